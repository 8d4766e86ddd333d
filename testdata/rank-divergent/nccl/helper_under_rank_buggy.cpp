// The collective hides in a helper: only rank 0 calls syncStatistics, whose
// all-reduce the other ranks never issue.
// run: nccl buggy
#include "nccl_job.h"

static void syncStatistics(struct NcclJob *job, float *stats) {
  CHECK_NCCL(ncclAllReduce(stats, stats, 8, ncclFloat, ncclMax, job->comm, job->stream));
}

int main() {
  struct NcclJob job = startJob();
  float *stats = deviceFloats(8, float(job.rank));

  if (job.rank == 0)
    syncStatistics(&job, stats); // expect: distlint-rank-divergent-collective

  finishJob(&job);
  printf("rank %d: stats[0] = %g\n", job.rank, firstValue(stats));
  return 0;
}
