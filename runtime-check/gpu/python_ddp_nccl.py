"""A Python DDP job on NCCL (one GPU, world size 1) for run_h200.sh.

Run under `distlint-rt run --nproc 1`: each step's gradient all-reduce is
issued by LibTorch on its CUDA autograd thread (no Python frame there), the
explicit all-reduce of the loss on this thread, torch.cuda.synchronize() and
.item() once per step. Prints `key value` facts the script checks the report
against (the lines are found by their markers in this file).
"""
import datetime
import sys

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=120))
    torch.cuda.set_device(0)
    torch.manual_seed(0)
    model = DDP(nn.Linear(1024, 1024).cuda(), device_ids=[0])
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    data = torch.randn(64, 1024, device="cuda")
    total = torch.zeros(1024, device="cuda")
    for _ in range(steps):
        opt.zero_grad()
        loss = model(data).square().mean()
        loss.backward()  # marker: backward
        opt.step()
        total += loss.detach()
        dist.all_reduce(total)  # marker: allreduce
        torch.cuda.synchronize()  # marker: sync
        loss.item()  # marker: item
    dist.destroy_process_group()
    print(f"steps {steps}")


if __name__ == "__main__":
    main()
