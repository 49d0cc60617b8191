# Benchmark: an MLP (64 -> 128 -> 10) trained on the 8x8 digits for 20 epochs, batch 64,
# shuffled, Adam. Runs unchanged under cudalearn and under real PyTorch:
#   cargo build --release && target/release/cudalearn run benches/train_digits_mlp.py
#   ../shared/tools/torch-golden benches/train_digits_mlp.py
# Prints the final loss and accuracy (the same digits under both, seeded) and the training
# wall time in seconds.
import time
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import TensorDataset, DataLoader

try:
    from cudalearn.datasets import load_digits
except ImportError:
    # Real PyTorch: the plain-Python stand-in that reads the same asset file.
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'golden', 'shim'))
    from cudalearn.datasets import load_digits

torch.manual_seed(0)
X, y = load_digits()
X = X / 16.0
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=1e-3)

start = time.perf_counter()
for epoch in range(20):
    model.train()
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
elapsed = time.perf_counter() - start

model.eval()
with torch.no_grad():
    acc = (model(X).argmax(dim=1) == y).float().mean().item()
print(f'final loss {loss.item():.4f}, accuracy {acc:.4f}')
print(f'train time {elapsed:.3f} s')
