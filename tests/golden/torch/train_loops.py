# %% seed_regression_loop_cpu_device
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
print("\n--- Part 3: GPU-Aware Training Loop ---")
device = torch.device("cpu")
print(f"Training on device: {device}\n")
num_samples = 1024
num_features = 16
X = torch.randn(num_samples, num_features)
y = torch.randn(num_samples, 1)
dataset = TensorDataset(X, y)
data_loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=2, pin_memory=True)
model = nn.Sequential(
    nn.Linear(num_features, 64),
    nn.ReLU(),
    nn.Linear(64, 1)
)
model.to(device)
loss_function = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)
num_epochs = 3
for epoch in range(num_epochs):
    model.train()
    for batch_X, batch_y in data_loader:
        batch_X = batch_X.to(device)
        batch_y = batch_y.to(device)
        predictions = model(batch_X)
        loss = loss_function(predictions, batch_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"Epoch [{epoch+1}/{num_epochs}], Loss: {loss.item():.4f}")
print("\nTraining complete. All computations were performed on the GPU (if available).")

# %% seed_simple_nn_loop_cpu_device
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
class SimpleNN(nn.Module):
    def __init__(self):
        super(SimpleNN, self).__init__()
        self.fc1 = nn.Linear(3, 10)
        self.fc2 = nn.Linear(10, 2)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = self.fc2(x)
        return x
device = torch.device('cpu')
model = SimpleNN().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=0.01)
inputs = torch.randn(100, 3).to(device)
labels = torch.randint(0, 2, (100,)).to(device)
num_epochs = 5
for epoch in range(num_epochs):
    optimizer.zero_grad()
    outputs = model(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    print(f'Epoch [{epoch+1}/{num_epochs}], Loss: {loss.item():.4f}')

# %% digits_mlp_classifier
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import TensorDataset, DataLoader
from cudalearn.datasets import load_digits
torch.manual_seed(0)
X, y = load_digits()
X = X / 16.0
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    model.train()
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * xb.shape[0]
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(dim=1) == y).float().mean().item()
    print(f'epoch {epoch + 1}: loss {total / len(X):.4f}, accuracy {acc:.4f}')

# %% digits_train_test_split_sgd
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import TensorDataset, DataLoader, random_split
from cudalearn.datasets import load_digits
torch.manual_seed(1)
X, y = load_digits()
ds = TensorDataset(X / 16, y)
train_ds, test_ds = random_split(ds, [1500, 297])
train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=100)
model = nn.Sequential(nn.Linear(64, 32), nn.Tanh(), nn.Linear(32, 10))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(2):
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
    correct = 0
    with torch.no_grad():
        for xb, yb in test_loader:
            correct += (model(xb).argmax(1) == yb).sum().item()
    print(f'epoch {epoch}: last loss {loss.item():.4f}, test accuracy {correct / len(test_ds):.4f}')

# %% linear_regression_sgd
import torch
import torch.nn as nn
torch.manual_seed(0)
x = torch.linspace(-1, 1, 50).unsqueeze(1)
y = 2 * x + 1 + 0.1 * torch.randn(50, 1)
model = nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(20):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(f'epoch {epoch}: loss {loss.item():.4f}')
print(f'w={model.weight.item():.4f} b={model.bias.item():.4f}')

# %% logistic_regression_bce
import torch
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(64, 2)
y = (x[:, 0] + x[:, 1] > 0).float().unsqueeze(1)
model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(10):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    acc = ((model(x) > 0).float() == y).float().mean()
    print(f'{epoch}: {loss.item():.4f} {acc.item():.4f}')

# %% manual_sgd_no_optimizer
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
x = torch.randn(20, 3)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]])
for epoch in range(5):
    loss = ((model(x) - y) ** 2).mean()
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.1 * p.grad
    print(f'{loss.item():.4f}')

# %% adamw_steplr_training
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(2)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
x = torch.randn(60, 8)
y = torch.randint(0, 3, (60,))
opt = optim.AdamW(model.parameters(), lr=0.01)
sched = optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for epoch in range(8):
    opt.zero_grad()
    loss = nn.CrossEntropyLoss()(model(x), y)
    loss.backward()
    opt.step()
    sched.step()
    print(f'{epoch}: loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.5f}')

# %% layernorm_model_training
import torch
import torch.nn as nn
torch.manual_seed(3)
model = nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.ReLU(), nn.Linear(8, 1))
x = torch.randn(32, 4)
y = torch.randn(32, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(6):
    opt.zero_grad()
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    opt.step()
    print(f'{loss.item():.4f}')

# %% dataparallel_cpu_training
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.DataParallel(nn.Sequential(nn.Linear(5, 4), nn.ReLU(), nn.Linear(4, 2)))
x = torch.randn(16, 5)
y = torch.randint(0, 2, (16,))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(4):
    opt.zero_grad()
    loss = nn.CrossEntropyLoss()(model(x), y)
    loss.backward()
    opt.step()
    print(f'{loss.item():.4f}')

# %% eval_no_grad_predictions
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 3))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(30, 2)
y = torch.randint(0, 3, (30,))
for _ in range(20):
    opt.zero_grad()
    nn.CrossEntropyLoss()(model(x), y).backward()
    opt.step()
model.eval()
with torch.no_grad():
    out = model(x[:4])
print(out)
print(out.argmax(dim=1), y[:4])

# %% save_load_state_between_models
import torch
import torch.nn as nn
torch.manual_seed(0)
a = nn.Linear(3, 2)
opt = torch.optim.SGD(a.parameters(), lr=0.5)
x = torch.randn(4, 3)
for _ in range(3):
    opt.zero_grad()
    a(x).pow(2).mean().backward()
    opt.step()
b = nn.Linear(3, 2)
b.load_state_dict(a.state_dict())
with torch.no_grad():
    print(torch.equal(a(x), b(x)))
print(b.weight)
