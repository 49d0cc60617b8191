"""Stand-ins for cudalearn's own modules, so golden cases that use them run under PyTorch."""
