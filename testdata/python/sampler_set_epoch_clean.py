# set_epoch(epoch) before each epoch: a new order every epoch.
# expect: clean
import datetime
import time

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
        sampler.set_epoch(epoch)
        for x, y in loader:
            opt.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            opt.step()
    # LibTorch 1.13's Gloo workers drop a finished collective's tensors
    # after wait() has returned; destroying the group (with the GIL held)
    # before they have can deadlock. Let them finish without the GIL.
    time.sleep(0.2)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
