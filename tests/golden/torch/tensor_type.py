# %% unbound_tensor_methods
import torch
print(torch.Tensor.sort, torch.Tensor.add, torch.Tensor.cumsum)
print(torch.Tensor.add(torch.ones(2), 1), torch.Tensor.sort(torch.tensor([2, 1])).values)
print(torch.Tensor.chunk(torch.arange(4), 2))
print(hasattr(torch.Tensor, 'zz'), hasattr(torch.Tensor, 'sort'), hasattr(torch.Tensor, 'split'))

# %% torch_type_names
import torch
for T in [torch.Tensor, torch.Size, torch.dtype, torch.device]:
    print(T.__name__, T.__qualname__, T.__module__)
    try:
        T.zz
    except AttributeError as e:
        print(e)
