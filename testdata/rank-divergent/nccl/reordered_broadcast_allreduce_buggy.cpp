// The root broadcasts the new learning rate before reducing the gradients;
// the others reduce first. NCCL pairs operations by their order on the
// communicator, so the broadcast meets the all-reduce and both ranks hang.
// run: nccl buggy
#include "nccl_job.h"

static void share_lr(struct NcclJob *job, float *lr) {
  CHECK_NCCL(ncclBroadcast(lr, lr, 1, ncclFloat, 0, job->comm, job->stream));
}

int main() {
  struct NcclJob job = startJob();
  float *grads = deviceFloats(256, float(job.rank + 1));
  float *lr = deviceFloats(1, 0.1f);

  if (job.rank == 0) {
    share_lr(&job, lr); // expect: distlint-rank-divergent-collective
    CHECK_NCCL(ncclAllReduce(grads, grads, 256, ncclFloat, ncclSum, job.comm, job.stream));
  } else {
    CHECK_NCCL(ncclAllReduce(grads, grads, 256, ncclFloat, ncclSum, job.comm, job.stream)); // expect-note: rank class B issues 'ncclAllReduce' here instead
    share_lr(&job, lr);
  }

  finishJob(&job);
  printf("rank %d: grad[0] = %g\n", job.rank, firstValue(grads));
  return 0;
}
