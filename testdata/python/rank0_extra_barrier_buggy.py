# Rank 0 waits on a barrier nobody else calls (it "waits for the others to
# see its log line"); rank 1 is in the next step's gradient all-reduce.
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
    data, target = torch.randn(16, 8), torch.randn(16, 1)
    for step in range(6):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(data), target)
        loss.backward()  # <- rank 1
        opt.step()
        if rank == 0 and step == 2:
            print("step", step, "loss", float(loss))
            dist.barrier()  # <- rank 0
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
