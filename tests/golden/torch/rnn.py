# %% rnn_bf0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.RNN(3, 4, batch_first=False)
print(m)
x = torch.randn(2, 5, 3)
out, h = m(x)
print(out[-1], h)
out.sum().backward()
print(m.weight_ih_l0.grad[:2], m.bias_hh_l0.grad if 'RNN' != 'GRU' else '')

# %% rnn_bf1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.RNN(3, 4, batch_first=True)
print(m)
x = torch.randn(2, 5, 3)
out, h = m(x)
print(out[-1], h)
out.sum().backward()
print(m.weight_ih_l0.grad[:2], m.bias_hh_l0.grad if 'RNN' != 'GRU' else '')

# %% rnn_layers
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.RNN(2, 3, num_layers=2)
print(m, [n for n, _ in m.named_parameters()])
out, h = m(torch.randn(4, 1, 2))
print(out.shape, h)

# %% rnn_bidirectional
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.RNN(2, 3, bidirectional=True, batch_first=True)
print(m)
out, h = m(torch.randn(1, 4, 2))
print(out, h)

# %% rnn_unbatched
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.RNN(2, 3)
out, h = m(torch.randn(4, 2))
print(out.shape, h)

# %% rnn_h0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.RNN(2, 3)
out, h = m(torch.randn(3, 2, 2), torch.ones(1, 2, 3))
print(out[0], h)

# %% lstm_bf0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.LSTM(3, 4, batch_first=False)
print(m)
x = torch.randn(2, 5, 3)
out, h = m(x)
print(out[-1], h)
out.sum().backward()
print(m.weight_ih_l0.grad[:2], m.bias_hh_l0.grad if 'LSTM' != 'GRU' else '')

# %% lstm_bf1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.LSTM(3, 4, batch_first=True)
print(m)
x = torch.randn(2, 5, 3)
out, h = m(x)
print(out[-1], h)
out.sum().backward()
print(m.weight_ih_l0.grad[:2], m.bias_hh_l0.grad if 'LSTM' != 'GRU' else '')

# %% lstm_layers
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.LSTM(2, 3, num_layers=2)
print(m, [n for n, _ in m.named_parameters()])
out, h = m(torch.randn(4, 1, 2))
print(out.shape, h)

# %% lstm_bidirectional
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.LSTM(2, 3, bidirectional=True, batch_first=True)
print(m)
out, h = m(torch.randn(1, 4, 2))
print(out, h)

# %% lstm_unbatched
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.LSTM(2, 3)
out, h = m(torch.randn(4, 2))
print(out.shape, h)

# %% lstm_h0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.LSTM(2, 3)
out, h = m(torch.randn(3, 2, 2), (torch.ones(1, 2, 3), torch.zeros(1, 2, 3)))
print(out[0], h)

# %% gru_bf0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.GRU(3, 4, batch_first=False)
print(m)
x = torch.randn(2, 5, 3)
out, h = m(x)
print(out[-1], h)
out.sum().backward()
print(m.weight_ih_l0.grad[:2], m.bias_hh_l0.grad if 'GRU' != 'GRU' else '')

# %% gru_bf1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.GRU(3, 4, batch_first=True)
print(m)
x = torch.randn(2, 5, 3)
out, h = m(x)
print(out[-1], h)
out.sum().backward()
print(m.weight_ih_l0.grad[:2], m.bias_hh_l0.grad if 'GRU' != 'GRU' else '')

# %% gru_layers
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.GRU(2, 3, num_layers=2)
print(m, [n for n, _ in m.named_parameters()])
out, h = m(torch.randn(4, 1, 2))
print(out.shape, h)

# %% gru_bidirectional
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.GRU(2, 3, bidirectional=True, batch_first=True)
print(m)
out, h = m(torch.randn(1, 4, 2))
print(out, h)

# %% gru_unbatched
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.GRU(2, 3)
out, h = m(torch.randn(4, 2))
print(out.shape, h)

# %% gru_h0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.GRU(2, 3)
out, h = m(torch.randn(3, 2, 2), torch.ones(1, 2, 3))
print(out[0], h)

# %% rnn_relu
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.RNN(2, 3, nonlinearity='relu', bias=False)
print(m)
print(m(torch.randn(3, 1, 2))[0])

# %% rnn_bad_input
import torch
import torch.nn as nn
import torch.nn.functional as F
m = nn.RNN(2, 3)
m(torch.randn(3, 1, 4))

# %% lstm_classifier
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 4)
        self.lstm = nn.LSTM(4, 8, batch_first=True)
        self.fc = nn.Linear(8, 2)
    def forward(self, x):
        out, (h, c) = self.lstm(self.emb(x))
        return self.fc(h[-1])
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
x = torch.randint(0, 20, (6, 5))
y = torch.tensor([0, 1, 0, 1, 1, 0])
for step in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))

