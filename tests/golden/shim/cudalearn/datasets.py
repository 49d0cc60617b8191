"""cudalearn.datasets for real PyTorch: the same tensors, read from the same embedded asset."""
import os

import torch

_ASSET = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "assets", "digits.bin")


def load_digits():
    with open(_ASSET, "rb") as f:
        data = f.read()
    n = 1797
    x = torch.tensor(list(data[: n * 64]), dtype=torch.float32).reshape(n, 64)
    y = torch.tensor(list(data[n * 64 :]), dtype=torch.int64)
    return x, y
