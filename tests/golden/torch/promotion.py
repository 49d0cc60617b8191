# %% int_plus_float_scalar
import torch
x = torch.tensor([1, 2, 3])
y = x + 1.5
print(y, y.dtype)
# %% int_plus_int_scalar
import torch
x = torch.tensor([1, 2, 3])
print((x + 2).dtype, x * 2)
# %% int_div_int
import torch
x = torch.tensor([1, 2, 3])
print(x / 2)
# %% int_floordiv
import torch
x = torch.tensor([7, -7, 5])
print(x // 2, x % 3)
# %% float32_plus_float64_scalar
import torch
x = torch.tensor([1.0, 2.0])
print((x + 2.5).dtype)
# %% float32_plus_float64_tensor
import torch
a = torch.tensor([1.0, 2.0])
b = torch.tensor([1.0, 2.0], dtype=torch.float64)
print((a + b).dtype)
# %% int32_plus_int64
import torch
a = torch.tensor([1, 2], dtype=torch.int32)
b = torch.tensor([1, 2])
print((a + b).dtype, (a + 1).dtype)
# %% int_tensor_plus_float_tensor
import torch
a = torch.tensor([1, 2])
b = torch.tensor([0.5, 0.5])
print(a + b)
# %% zero_dim_does_not_promote
import torch
a = torch.tensor([1, 2], dtype=torch.int32)
b = torch.tensor(5)
print((a + b).dtype)
c = torch.tensor([1.0], dtype=torch.float16)
print((c + torch.tensor(2.0, dtype=torch.float64)).dtype)
# %% zero_dim_float_promotes_int
import torch
a = torch.tensor([1, 2])
print(a + torch.tensor(0.5, dtype=torch.float64))
# %% bool_plus_int
import torch
b = torch.tensor([True, False])
print(b + 1, (b + b).dtype)
# %% bool_times_float
import torch
b = torch.tensor([True, False])
print(b * 2.5)
# %% half_plus_bfloat16
import torch
a = torch.tensor([1.0], dtype=torch.half)
b = torch.tensor([1.0], dtype=torch.bfloat16)
print((a + b).dtype)
# %% half_plus_int
import torch
a = torch.tensor([1.5], dtype=torch.half)
print(a + 1, (a * 2.0).dtype)
# %% reflected_scalar
import torch
x = torch.tensor([1, 2])
print(10 - x, 1.0 / torch.tensor([2.0, 4.0]), 2 ** x)
# %% int_pow_float
import torch
x = torch.tensor([1, 2, 3])
print(x ** 0.5)
# %% int_true_div_tensor
import torch
print(torch.tensor([3]) / torch.tensor([2]))
# %% comparison_dtype
import torch
x = torch.tensor([1, 2, 3])
print(x > 1.5, (x == 2).dtype)
# %% float_tensor_int_compare
import torch
print(torch.tensor([1.0, 2.0]) == torch.tensor([1, 3]))
# %% bool_python_scalar
import torch
x = torch.tensor([1.0, 2.0])
print(x + True)
# %% int8_overflow
import torch
x = torch.tensor([100], dtype=torch.int8)
print(x + x)
# %% uint8_wrap
import torch
x = torch.tensor([250], dtype=torch.uint8)
print(x + 10)
# %% inplace_int_plus_int
import torch
x = torch.tensor([1, 2])
x += 3
print(x)
# %% inplace_float_into_float64
import torch
x = torch.zeros(2, dtype=torch.float64)
x += torch.ones(2)
print(x)
