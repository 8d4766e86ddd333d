// Rank 0 averages the loss for its log line with an all-reduce that only rank
// 0 issues. NCCL pairs operations by their order on the communicator, so rank
// 0's 1-element all-reduce meets rank 1's 1024-element gradient all-reduce:
// the counts disagree and both ranks wait forever.
// run: nccl buggy
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *grads = deviceFloats(1024, float(job.rank + 1));
  float *loss = deviceFloats(1, 0.25f * float(job.rank + 1));

  if (job.rank == 0)
    CHECK_NCCL(ncclAllReduce(loss, loss, 1, ncclFloat, ncclAvg, job.comm, job.stream)); // expect: distlint-rank-divergent-collective
  CHECK_NCCL(ncclAllReduce(grads, grads, 1024, ncclFloat, ncclSum, job.comm, job.stream));

  finishJob(&job);
  printf("rank %d: grad[0] = %g\n", job.rank, firstValue(grads));
  return 0;
}
