# %% post_accumulate_grad_hook
import torch
p = torch.nn.Parameter(torch.ones(2))
def hook(t):
    print("post acc", t is p, t.grad)
    t.grad.mul_(0.5)
h = p.register_post_accumulate_grad_hook(hook)
(p * 3).sum().backward()
(p * 3).sum().backward()
print(p.grad, type(h).__name__)
h.remove()
(p * 3).sum().backward()
print(p.grad)

# %% post_accumulate_grad_hook_errors
import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
for t in [y, torch.ones(2)]:
    try:
        t.register_post_accumulate_grad_hook(lambda t: None)
    except RuntimeError as e:
        print("RuntimeError", e)

# %% post_hook_runs_after_tensor_hooks
import torch
w = torch.tensor([1., 2.], requires_grad=True)
w.register_hook(lambda g: print("tensor hook", g) or g * 10)
w.register_post_accumulate_grad_hook(lambda t: print("post", t.grad))
(w ** 2).sum().backward()
