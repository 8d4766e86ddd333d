// The last rank has an empty shard and leaves early; the others go on to the
// gradient all-reduce, which now waits for a rank that is gone.
// run: nccl buggy
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  const int samples = job.rank == job.size - 1 ? 0 : 64;
  float *grads = deviceFloats(256, float(samples));

  if (samples == 0) {
    printf("rank %d: empty shard, nothing to contribute\n", job.rank);
    finishJob(&job);
    return 0;
  }
  CHECK_NCCL(ncclAllReduce(grads, grads, 256, ncclFloat, ncclSum, job.comm, job.stream)); // expect: distlint-rank-divergent-collective

  finishJob(&job);
  printf("rank %d: grad[0] = %g\n", job.rank, firstValue(grads));
  return 0;
}
