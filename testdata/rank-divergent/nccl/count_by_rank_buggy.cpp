// Every rank reaches the all-reduce, but the element count is computed from
// the rank's own shard size: the ranks disagree on the count and NCCL waits
// for bytes that never come.
// run: nccl buggy
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  const size_t local_classes = 256 * (size_t)(job.rank + 1);
  float *histogram = deviceFloats(512, 1.0f);

  CHECK_NCCL(ncclAllReduce(histogram, histogram, local_classes, ncclFloat, ncclSum, job.comm, job.stream)); // expect: distlint-rank-divergent-collective

  finishJob(&job);
  printf("rank %d: histogram[0] = %g\n", job.rank, firstValue(histogram));
  return 0;
}
