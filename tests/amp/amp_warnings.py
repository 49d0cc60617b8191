# Warnings AMP code gives, in Python's format (stderr). Expected text from real PyTorch, with
# the script path written as {SCRIPT}:
# ../shared/tools/torch-golden tests/amp/amp_warnings.py > tests/amp/amp_warnings.stdout 2> tests/amp/amp_warnings.stderr
import torch
a = torch.ones(2, 2)
for i in range(3):
    with torch.cpu.amp.autocast():
        b = a @ a
print(b.dtype)
with torch.autocast('cpu', dtype=torch.float32):
    print(torch.is_autocast_enabled('cpu'))
with torch.autocast('cuda'):
    print(torch.is_autocast_enabled('cuda'))
s = torch.amp.GradScaler('cuda')
print(s.is_enabled())
print(torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype())
with torch.cpu.amp.autocast(dtype=torch.float16):
    print((a @ a).dtype)
