# %% float_basic
import torch
print(torch.tensor([1.5, 2.25, -3.125]))
# %% float_integer_mode
import torch
print(torch.tensor([1.0, 2.0, 3.0]))
# %% float_integer_mode_neg
import torch
print(torch.tensor([[-1.0, 20.0], [300.0, 4.0]]))
# %% float_precision4
import torch
print(torch.tensor([0.123456, 1.0 / 3.0, 2.0 / 3.0]))
# %% float_sci_large
import torch
print(torch.tensor([1e10, 1.0, 2.5]))
# %% float_sci_small
import torch
print(torch.tensor([1e-5, 1.0, 2.5]))
# %% float_sci_ratio
import torch
print(torch.tensor([0.001, 1000.0]))
# %% float_no_sci_ratio_999
import torch
print(torch.tensor([0.01, 5.0]))
# %% float_sci_intmode_large
import torch
print(torch.tensor([1e9, 2.0]))
# %% float_intmode_large_1e8
import torch
print(torch.tensor([1e8, 2.0]))
# %% float_inf_nan
import torch
print(torch.tensor([float('inf'), float('-inf'), float('nan'), 1.5]))
# %% float_inf_intmode
import torch
print(torch.tensor([float('inf'), 1.0, 2.0]))
# %% float_all_nan
import torch
print(torch.tensor([float('nan'), float('nan')]))
# %% float_zeros
import torch
print(torch.zeros(3))
# %% float_negative_zero
import torch
print(torch.tensor([-0.0, 1.0]))
# %% scalar_float
import torch
print(torch.tensor(3.5))
# %% scalar_int
import torch
print(torch.tensor(7))
# %% scalar_bool
import torch
print(torch.tensor(True))
# %% scalar_float_intmode
import torch
print(torch.tensor(2.0))
# %% scalar_sci
import torch
print(torch.tensor(1e-8))
# %% empty_1d
import torch
print(torch.tensor([]))
# %% empty_2d
import torch
print(torch.zeros(0, 3))
# %% empty_int
import torch
print(torch.zeros(2, 0, dtype=torch.int64))
# %% empty_float64
import torch
print(torch.zeros(0, dtype=torch.float64))
# %% int_tensor
import torch
print(torch.tensor([1, -22, 333]))
# %% int_2d
import torch
print(torch.arange(12).reshape(3, 4))
# %% int32_suffix
import torch
print(torch.tensor([1, 2, 3], dtype=torch.int32))
# %% int8_uint8
import torch
print(torch.tensor([1, -2], dtype=torch.int8))
print(torch.tensor([1, 200], dtype=torch.uint8))
# %% bool_tensor
import torch
print(torch.tensor([True, False, True]))
# %% bool_2d
import torch
print(torch.tensor([[1, 2], [3, 4]]) > 2)
# %% float64_suffix
import torch
print(torch.tensor([1.5, 2.5], dtype=torch.float64))
# %% float64_intmode_suffix
import torch
print(torch.ones(2, dtype=torch.double))
# %% float16_suffix
import torch
print(torch.tensor([1.5, 2.1], dtype=torch.float16))
# %% bfloat16_suffix
import torch
print(torch.tensor([1.5, 2.1], dtype=torch.bfloat16))
# %% requires_grad_suffix
import torch
print(torch.ones(2, requires_grad=True))
# %% requires_grad_float64
import torch
print(torch.zeros(2, dtype=torch.float64, requires_grad=True))
# %% matrix_2d
import torch
print(torch.tensor([[1.25, -2.5], [3.0, 4.75]]))
# %% tensor_3d
import torch
print(torch.arange(24, dtype=torch.float32).reshape(2, 3, 4) / 7)
# %% tensor_4d
import torch
print(torch.arange(16).reshape(2, 2, 2, 2))
# %% column_widths
import torch
print(torch.tensor([[1.0, 100.5], [-1000.25, 2.0]]))
# %% wrap_80_columns
import torch
print(torch.arange(30, dtype=torch.float32) / 3)
# %% wrap_int_long
import torch
print(torch.arange(40) * 1000)
# %% wrap_2d_rows
import torch
print(torch.arange(40, dtype=torch.float32).reshape(2, 20) * 1.5)
# %% summarize_1d
import torch
print(torch.arange(2000))
# %% summarize_2d
import torch
print(torch.arange(1100, dtype=torch.float32).reshape(110, 10))
# %% summarize_2d_wide
import torch
print(torch.arange(2000).reshape(20, 100))
# %% summarize_3d
import torch
print(torch.ones(11, 11, 11))
# %% no_summarize_1000
import torch
print(torch.arange(1000).reshape(100, 10)[:3])
# %% summarize_exactly_1001
import torch
print(torch.zeros(1001))
# %% print_repr_same
import torch
x = torch.tensor([1.0, 2.5])
print(repr(x) == str(x))
print(repr(x))
# %% printoptions_precision
import torch
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.5]))
# %% printoptions_precision_6
import torch
torch.set_printoptions(precision=6)
print(torch.tensor([1.0 / 3.0, 2.0]))
# %% printoptions_sci_true
import torch
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 2.0]))
# %% printoptions_sci_false
import torch
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-6, 1e6]))
# %% printoptions_threshold
import torch
torch.set_printoptions(threshold=5)
print(torch.arange(10))
# %% printoptions_edgeitems
import torch
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10.0))
# %% printoptions_linewidth
import torch
torch.set_printoptions(linewidth=40)
print(torch.arange(20))
# %% printoptions_profile_short
import torch
torch.set_printoptions(profile='short')
print(torch.tensor([1.23456, 2.0]))
# %% printoptions_profile_default
import torch
torch.set_printoptions(precision=1)
torch.set_printoptions(profile='default')
print(torch.tensor([1.23456, 2.5]))
# %% fstring_tensor
import torch
x = torch.tensor([1.0, 2.0])
print(f"x = {x}")
# %% fstring_scalar_format
import torch
x = torch.tensor(3.14159)
print(f"{x:.2f}")
# %% print_in_list
import torch
print([torch.tensor(1.5), torch.tensor(2)])
# %% print_shape
import torch
print(torch.zeros(2, 3, 4).shape)
print(torch.zeros(2, 3).size())
print(torch.Size([]))
# %% print_dtypes
import torch
print(torch.float32, torch.float, torch.int64, torch.long, torch.bool, torch.half, torch.bfloat16, torch.uint8)
# %% print_devices
import torch
print(torch.device('cpu'), repr(torch.device('cpu')))
print(torch.device('cuda', 1), repr(torch.device('cuda:0')))
# %% print_small_values
import torch
print(torch.tensor([0.0001, 0.0002]))
# %% print_mixed_magnitudes
import torch
print(torch.tensor([123.456, 0.5, -7.25]))
# %% print_large_ints_float
import torch
print(torch.tensor([123456.0, 7.0]))
# %% print_bool_empty
import torch
print(torch.tensor([], dtype=torch.bool))
# %% print_view_noncontig
import torch
x = torch.arange(6.).reshape(2, 3)
print(x.t())
# %% print_expanded
import torch
print(torch.tensor([1, 2, 3]).expand(2, 3))
# %% print_neg_int_width
import torch
print(torch.tensor([[-5, 10], [100, -1000]]))
# %% print_float_sci_neg
import torch
print(torch.tensor([-1e-7, 3e5]))
