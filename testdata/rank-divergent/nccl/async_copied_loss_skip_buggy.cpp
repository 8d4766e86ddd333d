// Mixed-precision style "skip the step when the loss overflowed": each rank
// copies its own loss back with cudaMemcpyAsync and waits for the stream.
// The queued copy brings this rank's device data to the host just as a
// synchronous one does: the rank whose loss overflowed skips the gradient
// all-reduce and the others wait in it forever.
// run: nccl buggy
#include "nccl_job.h"

#include <math.h>

int main() {
  struct NcclJob job = startJob();
  float *grads = deviceFloats(64, 1.0f);
  // What this rank's forward pass left on the device: rank 1 overflowed.
  float *deviceLoss = deviceFloats(1, job.rank == 1 ? INFINITY : 0.5f);

  for (int step = 0; step < 3; ++step) {
    float loss = 0.0f;
    CHECK_CUDA(cudaMemcpyAsync(&loss, deviceLoss, sizeof(float),
                               cudaMemcpyDeviceToHost, job.stream));
    CHECK_CUDA(cudaStreamSynchronize(job.stream));
    if (!isfinite(loss)) // expect-note: branch depends on rank
      continue;
    CHECK_NCCL(ncclAllReduce(grads, grads, 64, ncclFloat, ncclSum, job.comm, job.stream)); // expect: distlint-rank-divergent-collective
  }

  finishJob(&job);
  return 0;
}
