# A DistributedSampler with shuffle=True, iterated for two epochs without
# set_epoch(): every epoch sees the order of epoch 0.
# expect: set-epoch 0
import datetime

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(0)
    model = DDP(nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    dataset = TensorDataset(torch.randn(32, 8), torch.randn(32, 1))
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=4, sampler=sampler)
    for epoch in range(2):
        for x, y in loader:  # <- set-epoch
            opt.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            opt.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
