// Three collectives under rank conditions, for the join of static findings
// with a run of 2 ranks and JOIN_THRESHOLD unset: the first is reached by
// every rank, the second by none, the third by rank 0 only (so it hangs).
// Each line says the verdict the join must give its finding.
// run: nccl buggy
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  const char *setting = getenv("JOIN_THRESHOLD");
  const int threshold = setting ? atoi(setting) : 0;
  float *values = deviceFloats(4, 1.0f);

  if (job.rank >= threshold)
    CHECK_NCCL(ncclAllReduce(values, values, 4, ncclFloat, ncclSum, job.comm, job.stream)); // join: reached uniformly
  if (job.rank == 7)
    CHECK_NCCL(ncclAllReduce(values, values, 4, ncclFloat, ncclMax, job.comm, job.stream)); // join: not reached
  if (job.rank == 0)
    CHECK_NCCL(ncclAllReduce(values, values, 4, ncclFloat, ncclMin, job.comm, job.stream)); // join: confirmed, divergence here

  finishJob(&job);
  printf("rank %d: values[0] = %g\n", job.rank, firstValue(values));
  return 0;
}
