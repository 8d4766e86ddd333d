# Every rank calls save_checkpoint (its all-reduce is collective); only rank 0
# writes the file.
# expect: clean
import datetime
import os
import tempfile
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def save_checkpoint(model, step, path):
    steps = torch.tensor([float(step)])
    dist.all_reduce(steps, op=dist.ReduceOp.MAX)
    if dist.get_rank() == 0:
        torch.save({"model": model.state_dict(), "step": int(steps)}, path)


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(0)
    model = DDP(nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    data, target = torch.randn(16, 8), torch.randn(16, 1)
    path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
    for step in range(6):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(data), target)
        loss.backward()
        opt.step()
        if step == 2:
            save_checkpoint(model.module, step, path)
    # LibTorch 1.13's Gloo workers drop a finished collective's tensors
    # after wait() has returned; destroying the group (with the GIL held)
    # before they have can deadlock. Let them finish without the GIL.
    time.sleep(0.2)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
