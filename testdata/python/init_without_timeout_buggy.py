# Neither the default group nor the sub-group is given a timeout: a rank that
# stops issuing collectives holds the others for torch's default (30 min for
# Gloo in torch 1.13: torch.distributed.constants.default_pg_timeout).
# expect: no-timeout 1800
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")  # <- no-timeout
    group = dist.new_group([0, 1])  # <- no-timeout
    t = torch.ones(4)
    dist.all_reduce(t, group=group)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
