"""One DDP training step, timed (bench/runtime_overhead's Python row).

A 2-rank Gloo job on CPU (RANK, WORLD_SIZE, MASTER_ADDR/PORT from the
launcher): an MLP trained with DDP, the loss read with .item() every step as
training scripts do for logging. Rank 0 prints the median step time after a
warm-up: `STEP_MS <milliseconds>`.
"""
import argparse
import datetime
import statistics
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--width", type=int, default=512, help="hidden width (16: a ~1 ms step)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=120))
    torch.manual_seed(0)
    w = a.width
    model = DDP(nn.Sequential(nn.Linear(256, w), nn.ReLU(), nn.Linear(w, w), nn.ReLU(),
                              nn.Linear(w, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    data, target = torch.randn(64, 256), torch.randint(0, 10, (64,))
    times = []
    for step in range(a.warmup + a.steps):
        start = time.perf_counter()
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(data), target)
        loss.backward()
        opt.step()
        loss.item()
        if step >= a.warmup:
            times.append(time.perf_counter() - start)
    if dist.get_rank() == 0:
        print(f"STEP_MS {statistics.median(times) * 1000:.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
