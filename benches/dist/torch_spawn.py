# Runs allreduce.py under PyTorch as 2 processes (torch.multiprocessing, env:// as torchrun).
import os
import socket
import sys
import runpy
import torch.multiprocessing as mp


def worker(rank, port):
    os.environ.update(RANK=str(rank), WORLD_SIZE="2", LOCAL_RANK=str(rank),
                      MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "allreduce.py"))


if __name__ == "__main__":
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    mp.spawn(worker, args=(port,), nprocs=2)
