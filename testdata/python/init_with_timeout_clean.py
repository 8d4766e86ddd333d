# Both groups have an explicit timeout.
# expect: clean
import datetime
import time

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    group = dist.new_group([0, 1], timeout=datetime.timedelta(seconds=60))
    t = torch.ones(4)
    dist.all_reduce(t, group=group)
    # LibTorch 1.13's Gloo workers drop a finished collective's tensors
    # after wait() has returned; destroying the group (with the GIL held)
    # before they have can deadlock. Let them finish without the GIL.
    time.sleep(0.2)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
