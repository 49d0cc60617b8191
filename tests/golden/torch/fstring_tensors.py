# %% debug_tensor
import torch
x = torch.tensor([1.0, 2.5])
print(f"{x=}")

# %% debug_item_spec
import torch
loss = torch.tensor(0.123456)
print(f"{loss.item()=:.4f}")

# %% debug_shape
import torch
x = torch.zeros(2, 3)
print(f"{x.shape=}", f"{x.dtype = }", f"{x.device=!s}")

# %% debug_expression_spaces
import torch
x = torch.arange(4)
print(f"{x.sum() * 2 = }")

# %% repr_conversion_tensor
import torch
x = torch.tensor([1, 2])
print(f"{x!r}")
print(f"{x!s}")

# %% debug_grad_fn
import torch
w = torch.tensor([1.0], requires_grad=True)
y = w * 2
print(f"{y=}")
print(f"{y.grad_fn=}" .split(' at ')[0])

# %% nested_quotes_dict_of_tensors
import torch
stats = {'mean': torch.tensor(0.5), 'std': torch.tensor(0.25)}
print(f"{stats['mean'].item()=:.2f} {stats['std'].item():.3f}")

# %% debug_module
import torch.nn as nn
layer = nn.Linear(2, 1)
print(f"{layer=}")
print(f"{layer.in_features=}, {layer.out_features = }")

# %% debug_training_line
import torch
epoch, loss = 3, torch.tensor(1.234567)
print(f"{epoch=} {loss.item()=:.3f} {loss.item()!r:>12}")
