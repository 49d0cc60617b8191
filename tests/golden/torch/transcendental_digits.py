# %% log_e_prints_integers
import torch
print(torch.log(torch.tensor([1.0, 2.718281828])))

# %% exp_log_roundtrip
import torch
x = torch.tensor([0.5, 1.0, 2.0, 3.0])
print(torch.log(torch.exp(x)), torch.exp(torch.log(x)))

# %% log_values_bits
import torch
print(torch.log(torch.tensor([2.718281828])).item() == 1.0)
