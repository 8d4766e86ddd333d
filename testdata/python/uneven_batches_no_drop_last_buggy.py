# Each rank loads its own shard: 12 samples on rank 0, 13 on rank 1. With
# batch_size 4 and no drop_last, rank 1 runs a 4th step (a batch of one) and
# its gradient all-reduce meets rank 0's end-of-epoch loss all-reduce.
# expect: divergence
import datetime

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
    samples = 12 + rank  # the shard files are not the same length
    shard = TensorDataset(torch.randn(samples, 8), torch.randn(samples, 1))
    loader = DataLoader(shard, batch_size=4)
    epoch_loss = torch.zeros(1)
    for x, y in loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()  # <- rank 1
        opt.step()
        epoch_loss += loss.detach()
    dist.all_reduce(epoch_loss)  # <- rank 0
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
