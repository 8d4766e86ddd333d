// Rank 0 prepares the weights before the broadcast, the others only receive:
// both arms issue the same broadcast with the same root, so every rank issues
// the same sequence.
// run: nccl clean
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *weights = deviceFloats(64, 0.0f);

  if (job.rank == 0) {
    float *initial = deviceFloats(64, 3.5f);
    CHECK_CUDA(cudaMemcpy(weights, initial, 64 * sizeof(float), cudaMemcpyDeviceToDevice));
    CHECK_NCCL(ncclBroadcast(weights, weights, 64, ncclFloat, 0, job.comm, job.stream));
  } else {
    CHECK_NCCL(ncclBroadcast(weights, weights, 64, ncclFloat, 0, job.comm, job.stream));
  }
  CHECK_NCCL(ncclAllReduce(weights, weights, 64, ncclFloat, ncclSum, job.comm, job.stream));

  finishJob(&job);
  printf("rank %d: weights[0] = %g\n", job.rank, firstValue(weights));
  return 0;
}
