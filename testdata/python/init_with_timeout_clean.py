# Both groups have an explicit timeout.
# expect: clean
import datetime

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    group = dist.new_group([0, 1], timeout=datetime.timedelta(seconds=60))
    t = torch.ones(4)
    dist.all_reduce(t, group=group)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
