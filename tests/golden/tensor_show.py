"""Helpers shared by the tensor golden cases (imported by each case; gen.py's directory is on sys.path).

show(t) prints `dtype [shape] [flat values]`, which the Rust side (tests/tensor_golden.rs) reproduces
without needing the repr printer; lay(t) prints the view layout.
"""
import torch


def show(t):
    print(t.dtype, list(t.shape), t.flatten().tolist())


def lay(t):
    print(list(t.shape), t.stride(), t.storage_offset(), t.is_contiguous())
