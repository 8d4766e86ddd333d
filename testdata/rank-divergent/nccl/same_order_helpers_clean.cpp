// Both rank classes broadcast the learning rate, then reduce; only the way
// the root computes the rate differs.
// run: nccl clean
#include "nccl_job.h"

static void share_lr(struct NcclJob *job, float *lr) {
  CHECK_NCCL(ncclBroadcast(lr, lr, 1, ncclFloat, 0, job->comm, job->stream));
}

int main() {
  struct NcclJob job = startJob();
  float *grads = deviceFloats(256, float(job.rank + 1));
  float *lr = deviceFloats(1, 0.1f);

  if (job.rank == 0) {
    share_lr(&job, lr);
    CHECK_NCCL(ncclAllReduce(grads, grads, 256, ncclFloat, ncclSum, job.comm, job.stream));
  } else {
    share_lr(&job, lr);
    CHECK_NCCL(ncclAllReduce(grads, grads, 256, ncclFloat, ncclSum, job.comm, job.stream));
  }

  finishJob(&job);
  printf("rank %d: grad[0] = %g\n", job.rank, firstValue(grads));
  return 0;
}
