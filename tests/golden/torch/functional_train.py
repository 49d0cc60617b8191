# %% mlp_cross_entropy_loop
import torch
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(64, 10)
y = torch.randint(0, 3, (64,))
w1 = (torch.randn(32, 10) * 0.3).requires_grad_()
b1 = torch.zeros(32, requires_grad=True)
w2 = (torch.randn(3, 32) * 0.3).requires_grad_()
b2 = torch.zeros(3, requires_grad=True)
params = [w1, b1, w2, b2]
for epoch in range(15):
    h = F.relu(F.linear(X, w1, b1))
    logits = F.linear(h, w2, b2)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.1 * p.grad
            p.grad = None
    acc = (logits.argmax(1) == y).float().mean()
    print(epoch, f"{loss.item():.4f}", f"{acc.item():.4f}")
# %% regression_mse_loop
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.linspace(-1, 1, 50).unsqueeze(1)
y = 2 * x ** 3 - x + 0.1 * torch.randn(50, 1)
w1 = torch.randn(16, 1, requires_grad=True)
b1 = torch.zeros(16, requires_grad=True)
w2 = torch.randn(1, 16, requires_grad=True)
b2 = torch.zeros(1, requires_grad=True)
for epoch in range(20):
    pred = F.linear(torch.tanh(F.linear(x, w1, b1)), w2, b2)
    loss = F.mse_loss(pred, y)
    loss.backward()
    with torch.no_grad():
        for p in (w1, b1, w2, b2):
            p.sub_(0.05 * p.grad)
            p.grad.zero_()
    print(epoch, f"{loss.item():.4f}")
# %% dropout_layernorm_gelu_step
import torch
import torch.nn.functional as F
torch.manual_seed(1)
x = torch.randn(8, 6)
w = torch.randn(4, 6, requires_grad=True)
g = torch.ones(4, requires_grad=True)
b = torch.zeros(4, requires_grad=True)
h = F.layer_norm(F.gelu(F.linear(x, w)), (4,), g, b)
h = F.dropout(h, 0.2)
loss = F.binary_cross_entropy_with_logits(h, torch.rand(8, 4))
loss.backward()
print(loss)
print(w.grad)
print(g.grad, b.grad)
