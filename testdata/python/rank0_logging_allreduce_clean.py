# Every rank all-reduces its epoch loss; rank 0 alone prints it. The loss is
# read with .item() once per step (counted: 8 steps, 8 calls).
# expect: clean
# expect: item-per-step 1
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
    for epoch in range(2):
        epoch_loss = torch.zeros(1)
        for step in range(4):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(data), target)
            loss.backward()
            opt.step()
            epoch_loss += loss.item()  # <- item
        dist.all_reduce(epoch_loss)
        if rank == 0:
            print("epoch", epoch, "loss", float(epoch_loss[0]) / dist.get_world_size())
    # LibTorch 1.13's Gloo workers drop a finished collective's tensors
    # after wait() has returned; destroying the group (with the GIL held)
    # before they have can deadlock. Let them finish without the GIL.
    time.sleep(0.2)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
