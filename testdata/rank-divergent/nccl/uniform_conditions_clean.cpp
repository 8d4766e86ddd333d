// Conditions that mention the rank or differ between programs but are the
// same on every rank: the world size, rank < world size (always true), a
// non-rank environment variable and a trip count from the world size.
// run: nccl clean
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *buffer = deviceFloats(32, 1.0f);
  const char *extra = getenv("EXTRA_SYNC_STEPS");
  const int extraSteps = extra ? atoi(extra) : 1;

  if (job.size > 1)
    CHECK_NCCL(ncclAllReduce(buffer, buffer, 32, ncclFloat, ncclSum, job.comm, job.stream));
  if (job.rank < job.size)
    CHECK_NCCL(ncclAllReduce(buffer, buffer, 32, ncclFloat, ncclMax, job.comm, job.stream));
  for (int i = 0; i < extraSteps; ++i)
    CHECK_NCCL(ncclAllReduce(buffer, buffer, 32, ncclFloat, ncclMin, job.comm, job.stream));
  for (int i = 0; i < job.size; ++i)
    CHECK_NCCL(ncclBroadcast(buffer, buffer, 32, ncclFloat, i, job.comm, job.stream));

  finishJob(&job);
  printf("rank %d: buffer[0] = %g\n", job.rank, firstValue(buffer));
  return 0;
}
