# torch.profiler on the CPU: the table's layout (times differ from run to run; tests mask them).
# (Which ops fill the rows under `step` follows their times; the test accepts any of the program's ops there.)
import torch
from torch.profiler import profile, record_function, ProfilerActivity

torch.manual_seed(0)
x = torch.randn(512, 512)
w = torch.randn(512, 512)
with profile(activities=[ProfilerActivity.CPU]) as prof:
    with record_function("step"):
        y = x @ w
        z = y.sum()
print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=3))
print(ProfilerActivity.CPU, repr(ProfilerActivity.CUDA))
