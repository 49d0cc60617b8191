# %% tensor_dir_dunders
# The special methods a tensor lists in dir(), as PyTorch lists them.
import torch
x = torch.tensor(1.)
print([n for n in dir(x) if n.startswith("__") and n.endswith("__")])

# %% callable_classes
# Classes implemented natively are callable, as in PyTorch (Tab completion adds `(`).
import torch
import torch.nn as nn
for obj in [torch.device, torch.no_grad, torch.enable_grad, torch.inference_mode, torch.set_grad_enabled, torch.autocast, torch.Size, torch.Tensor, nn.Parameter, torch.amp.GradScaler]:
    print(callable(obj))
print(callable(torch.float32), callable(torch.ones(1)), callable(torch.ones))

# %% memory_summary_without_gpu
import torch
torch.cuda.memory_summary()

# %% method_call_site_meets_many_types
# One call site `o.name(...)` meeting tensors, a Parameter, other native objects, builtin
# values and a class of the program's own, in turn and back again.
import torch
import torch.nn as nn


class Box:
    def sum(self):
        return "Box.sum"

    def size(self):
        return "Box.size"


things = [torch.ones(2, 3), nn.Parameter(torch.zeros(2)), Box(), torch.device("cpu"), [1, 2], torch.arange(4.), Box(), torch.ones(1, dtype=torch.int64)]
for name in ["sum", "size"]:
    for o in things * 2:
        try:
            print(type(o).__name__, getattr(o, name)())
        except AttributeError as e:
            print(type(o).__name__, "AttributeError:", e)
for o in things:
    try:
        print(o.sum(), o.size())
    except AttributeError as e:
        print("AttributeError:", e)
x = torch.ones(3)
for k in range(3):
    print(x.add(k).sum().item(), x.shape, x.dtype)
try:
    x.shape()
except TypeError as e:
    print("TypeError:", e)
try:
    x.no_such_method()
except AttributeError as e:
    print("AttributeError:", e)

# %% native_type_names_in_errors
# Errors name a natively implemented type by its full name, as CPython's tp_name does.
import torch
d, dt, g = torch.device("cpu"), torch.float32, torch.Generator()
r = torch.ones(2).max(0)
attempts = [
    lambda: d.zzz, lambda: dt.zzz, lambda: torch.Size([1]).zzz, lambda: g.zzz, lambda: r.zzz,
    lambda: setattr(d, "zzz", 1), lambda: d + 1, lambda: 1 - dt, lambda: d[0], lambda: dt(),
    lambda: iter(d), lambda: 1 in dt, lambda: [x for x in g],
    lambda: torch.no_grad().zzz, lambda: torch.ones(1).zzz,
]
for f in attempts:
    try:
        f()
    except (AttributeError, TypeError) as e:
        print(type(e).__name__, e)
print(type(d).__name__, type(dt).__name__, type(torch.Size([1])).__name__, type(r).__name__)

# %% dir_lists_tensor_attributes
import torch
d = dir(torch.ones(1))
print([n for n in ["shape", "dtype", "device", "ndim", "is_cuda", "requires_grad", "is_leaf", "grad", "grad_fn", "_version", "retains_grad", "data", "T", "mT", "nbytes", "itemsize"] if n not in d])
