// Every tenth step rank 0 alone re-broadcasts the parameters "to be safe".
// The gradient all-reduce at the top of the loop is reached by every rank on
// every step (the CHECK_NCCL exits end the job, they are not a divergence),
// but the broadcast is issued by rank 0 only: NCCL pairs it with rank 1's
// next all-reduce and both ranks wait forever.
// run: nccl buggy
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *params = deviceFloats(256, 1.0f + float(job.rank));
  for (int step = 0; step < 20; ++step) {
    CHECK_NCCL(ncclAllReduce(params, params, 256, ncclFloat, ncclAvg, job.comm, job.stream));
    if (job.rank == 0 && step % 10 == 9)
      CHECK_NCCL(ncclBroadcast(params, params, 256, ncclFloat, 0, job.comm, job.stream)); // expect: distlint-rank-divergent-collective
  }
  finishJob(&job);
  printf("rank %d: params[0] = %g\n", job.rank, firstValue(params));
  return 0;
}
