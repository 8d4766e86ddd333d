// A training loop whose only rank-dependent work is rank 0's progress log:
// every rank issues the same all-reduce every step.
// run: nccl clean
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *grads = deviceFloats(512, float(job.rank + 1));
  const int steps = 5;

  for (int step = 0; step < steps; ++step) {
    CHECK_NCCL(ncclAllReduce(grads, grads, 512, ncclFloat, ncclAvg, job.comm, job.stream));
    if (job.rank == 0)
      printf("step %d of %d issued\n", step + 1, steps);
  }

  finishJob(&job);
  printf("rank %d: grad[0] = %g\n", job.rank, firstValue(grads));
  return 0;
}
