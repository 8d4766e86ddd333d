# Collectives while other Python threads hold the GIL: a thread spinning in
# pure Python, and a worker thread issuing its own all-reduces on a second
# group. The recorder takes the GIL back only on the issuing thread; the job
# must finish as without it, each collective at its own thread's line.
# expect: clean
# expect: sites
import datetime
import threading
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def spin(stop):
    n = 0
    while not stop.is_set():
        n = (n * 31 + 7) % 1000003  # pure Python: holds the GIL between switches


def worker(group, rounds):
    t = torch.ones(16)
    for _ in range(rounds):
        dist.all_reduce(t, group=group)  # <- site


def main():
    timeout = datetime.timedelta(seconds=60)
    dist.init_process_group("gloo", timeout=timeout)
    side = dist.new_group([0, 1], timeout=timeout)
    torch.manual_seed(0)
    model = DDP(nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    data, target = torch.randn(16, 8), torch.randn(16, 1)
    stop = threading.Event()
    spinner = threading.Thread(target=spin, args=(stop,), daemon=True)
    side_thread = threading.Thread(target=worker, args=(side, 50))
    spinner.start()
    side_thread.start()
    for step in range(30):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(data), target)
        loss.backward()  # <- site
        opt.step()
        dist.all_reduce(loss.detach())  # <- site
    side_thread.join()
    stop.set()
    spinner.join()
    # LibTorch 1.13's Gloo workers drop a finished collective's tensors
    # after wait() has returned; destroying the group (with the GIL held)
    # before they have can deadlock. Let them finish without the GIL.
    time.sleep(0.2)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
