# %% cnn_digits_train
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import TensorDataset, DataLoader
from cudalearn.datasets import load_digits
torch.manual_seed(0)
X, y = load_digits()
X = (X / 16.0).reshape(-1, 1, 8, 8)
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
print(model)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * xb.shape[0]
    print(f'epoch {epoch + 1}: loss {total / len(X):.4f}')

# %% cnn_digits_bn_avgpool
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from cudalearn.datasets import load_digits
torch.manual_seed(1)
X, y = load_digits()
X = (X[:256] / 16.0).reshape(-1, 1, 8, 8)
y = y[:256]
model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(36, 10))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(8):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    print(step, f'{loss.item():.4f}')
model.eval()
print(model[1].running_mean, (model(X).argmax(1) == y).float().mean())

