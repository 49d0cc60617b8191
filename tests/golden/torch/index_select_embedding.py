# %% index_select_and_embedding
# Tensor.index_select / torch.index_select and F.embedding: values, shapes, grads, grad_fn
# names, the padding row's gradient, and PyTorch's errors
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.arange(12.).reshape(3, 4).requires_grad_()
i = torch.tensor([2, 0, 2])
y = x.index_select(0, i)
print(y, y.grad_fn.name())
y.sum().backward(); print(x.grad)
print(torch.index_select(x, 1, torch.tensor([3, 1])), torch.index_select(x, -1, torch.tensor(1)))
print(x.index_select(dim=1, index=torch.tensor([], dtype=torch.long)).shape)
print(torch.arange(5).index_select(0, torch.tensor([4, 4], dtype=torch.int32)))
for bad in (lambda: x.index_select(0, torch.tensor([[0]])), lambda: x.index_select(0, torch.tensor([0.0])), lambda: x.index_select(0, torch.tensor([3])), lambda: x.index_select(2, i), lambda: x.index_select(0, torch.tensor([-1]))):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
w = torch.randn(10, 3, requires_grad=True)
e = F.embedding(torch.tensor([[1, 2], [9, 1]]), w)
print(e.shape, e.grad_fn.name(), bool((e[0, 0] == w[1]).all()))
e.sum().backward(); print(w.grad[1], w.grad[0])
e = F.embedding(torch.tensor([1, 3]), w, padding_idx=1)
w.grad = None; e.sum().backward(); print(w.grad[1], w.grad[3])
for bad in (lambda: F.embedding(torch.tensor([10]), w), lambda: F.embedding(torch.tensor([1.0]), w), lambda: F.embedding(torch.tensor([-1]), w)):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])

# %% embedding_padding_rows
# the padding row keeps its value in the forward pass (only its gradient is dropped), a negative
# padding_idx, its range assertion, nn.Embedding.from_pretrained
import torch
import torch.nn as nn
import torch.nn.functional as F
w = torch.arange(12.).reshape(4, 3).requires_grad_()
e = F.embedding(torch.tensor([0, 3, 3]), w, padding_idx=-1)
print(e)
e.sum().backward(); print(w.grad)
try:
    F.embedding(torch.tensor([0]), w, padding_idx=4)
except AssertionError as err:
    print('AssertionError', err)
m = nn.Embedding.from_pretrained(torch.arange(6.).reshape(3, 2), freeze=False, padding_idx=1)
y = m(torch.tensor([[1, 2]]))
print(y, y.grad_fn.name())
y.sum().backward(); print(m.weight.grad)
print(torch.tensor([1, 2]).type(), torch.zeros(2, dtype=torch.float16).type())
