# Each rank stops when ITS OWN loss is small. Rank 0's shard is easy and it
# leaves the loop first, for the final metric all-reduce; rank 1 is already
# in its next forward(), where DDP broadcasts the rebuilt bucket order.
# expect: divergence
import datetime

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
    scale = 0.001 if rank == 0 else 10.0  # rank 0's shard is already fitted
    data, target = torch.randn(16, 8) * scale, torch.zeros(16, 1)
    for step in range(20):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(data), target)  # <- rank 1
        loss.backward()
        opt.step()
        if float(loss) < 1.0:
            break
    steps = torch.tensor([float(step)])
    dist.all_reduce(steps)  # <- rank 0
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
