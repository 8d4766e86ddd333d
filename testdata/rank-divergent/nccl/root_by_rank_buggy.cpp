// Each rank passes its own rank as the broadcast root, so every rank believes
// it is the source: the roots disagree and the broadcast never completes.
// run: nccl buggy
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *weights = deviceFloats(64, float(job.rank));

  CHECK_NCCL(ncclBroadcast(weights, weights, 64, ncclFloat, job.rank, job.comm, job.stream)); // expect: distlint-rank-divergent-collective

  finishJob(&job);
  printf("rank %d: weights[0] = %g\n", job.rank, firstValue(weights));
  return 0;
}
