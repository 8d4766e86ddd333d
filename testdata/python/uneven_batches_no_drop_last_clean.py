# The same uneven shards with drop_last=True: 3 full batches on each rank.
# expect: clean
import datetime
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = DDP(nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    samples = 12 + rank
    shard = TensorDataset(torch.randn(samples, 8), torch.randn(samples, 1))
    loader = DataLoader(shard, batch_size=4, drop_last=True)
    epoch_loss = torch.zeros(1)
    for x, y in loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        epoch_loss += loss.detach()
    dist.all_reduce(epoch_loss)
    # LibTorch 1.13's Gloo workers drop a finished collective's tensors
    # after wait() has returned; destroying the group (with the GIL held)
    # before they have can deadlock. Let them finish without the GIL.
    time.sleep(0.2)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
