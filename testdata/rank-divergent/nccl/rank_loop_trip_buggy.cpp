// Each rank runs one warm-up step per unit of its rank: rank 1 issues a second
// all-reduce that rank 0 never matches.
// run: nccl buggy
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *buffer = deviceFloats(128, 1.0f);

  for (int step = 0; step <= job.rank; ++step)
    CHECK_NCCL(ncclAllReduce(buffer, buffer, 128, ncclFloat, ncclSum, job.comm, job.stream)); // expect: distlint-rank-divergent-collective

  finishJob(&job);
  printf("rank %d: buffer[0] = %g\n", job.rank, firstValue(buffer));
  return 0;
}
