// An explicit sync right before a blocking copy to the host waits for the
// same work the copy waits for: it is needed exactly when the copy is. When
// the host tests the copied loss to stop early, neither is reported; when it
// only prints it every step, both the sync and the copy are stray.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

void launch_step(float *params, float *d_loss, cudaStream_t s);

void stops_early(ncclComm_t comm, float *params, float *d_loss, size_t n,
                 cudaStream_t s, int steps) {
  for (int step = 0; step < steps; ++step) {
    launch_step(params, d_loss, s);
    ncclAllReduce(params, params, n, ncclFloat, ncclAvg, comm, s);
    ncclAllReduce(d_loss, d_loss, 1, ncclFloat, ncclAvg, comm, s);
    cudaStreamSynchronize(s);
    float loss = 0.0f;
    cudaMemcpy(&loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost);
    if (loss < 1e-4f)
      break;
  }
}

void prints_every_step(ncclComm_t comm, float *params, float *d_loss,
                       size_t n, cudaStream_t s, int steps) {
  for (int step = 0; step < steps; ++step) {
    launch_step(params, d_loss, s);
    ncclAllReduce(params, params, n, ncclFloat, ncclAvg, comm, s);
    cudaStreamSynchronize(s); // expect: distlint-stray-device-sync
    float loss = 0.0f;
    cudaMemcpy(&loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost); // expect: distlint-stray-device-sync
    std::printf("step %d: loss %f\n", step, loss);
  }
}
