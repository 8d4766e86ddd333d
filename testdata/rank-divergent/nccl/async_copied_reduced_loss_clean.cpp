// The same overflow check done right: the loss is all-reduced on the device
// before the queued copy brings it back, so every rank reads the same sum
// and every rank skips (or runs) the gradient all-reduce together.
// run: nccl clean
#include "nccl_job.h"

#include <math.h>

int main() {
  struct NcclJob job = startJob();
  float *grads = deviceFloats(64, 1.0f);
  float *deviceLoss = deviceFloats(1, job.rank == 1 ? INFINITY : 0.5f);

  for (int step = 0; step < 3; ++step) {
    CHECK_NCCL(ncclAllReduce(deviceLoss, deviceLoss, 1, ncclFloat, ncclSum,
                             job.comm, job.stream));
    float loss = 0.0f;
    CHECK_CUDA(cudaMemcpyAsync(&loss, deviceLoss, sizeof(float),
                               cudaMemcpyDeviceToHost, job.stream));
    CHECK_CUDA(cudaStreamSynchronize(job.stream));
    if (!isfinite(loss))
      continue;
    CHECK_NCCL(ncclAllReduce(grads, grads, 64, ncclFloat, ncclSum, job.comm,
                             job.stream));
  }

  finishJob(&job);
  return 0;
}
