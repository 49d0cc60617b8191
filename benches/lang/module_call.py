# Per-iteration cost of nn.Module.__call__ on a one-layer model (torch's nn is written in
# the Python subset). Runs only under cudalearn or with PyTorch installed.
import torch
import torch.nn as nn


def main():
    model = nn.Linear(4, 2)
    x = torch.ones(1, 4)
    y = None
    for _ in range(20000):
        y = model(x)
    return y.shape[1]
