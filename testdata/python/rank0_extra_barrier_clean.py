# Rank 0 logs; every rank then meets at the barrier.
# expect: clean
import datetime
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = DDP(nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    data, target = torch.randn(16, 8), torch.randn(16, 1)
    for step in range(6):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(data), target)
        loss.backward()
        opt.step()
        if step == 2:
            if rank == 0:
                print("step", step, "loss", float(loss))
            dist.barrier()
    # LibTorch 1.13's Gloo workers drop a finished collective's tensors
    # after wait() has returned; destroying the group (with the GIL held)
    # before they have can deadlock. Let them finish without the GIL.
    time.sleep(0.2)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
