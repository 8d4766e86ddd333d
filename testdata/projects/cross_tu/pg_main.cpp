// Two NCCL process groups built from options another file makes: the one
// whose factory sets a timeout is fine; the other keeps the library's
// default (30 minutes), which the rule rates a note.
// run: none -- needs NCCL and GPUs
#include "pg_factory.h"

#include <torch/torch.h>

void connect(const c10::intrusive_ptr<c10d::Store> &store, int rank,
             int world) {
  auto bounded = xtu::boundedOptions();
  auto pg = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world,
                                                        bounded);
  auto plain = xtu::plainOptions(rank == 0);
  auto side = c10::make_intrusive<c10d::ProcessGroupNCCL>( // expect: distlint-missing-timeout(note)
      store, rank, world, plain);
  (void)pg;
  (void)side;
}
