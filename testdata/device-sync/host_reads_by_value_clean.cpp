// The stream sync is what lets the host read the loss it copied back; the
// host reads it by passing it by value to a library function
// (std::isfinite, std::abs) rather than comparing it directly.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

#include <cmath>
#include <cstdio>

void launch_step(float *params, float *d_loss, cudaStream_t s);

void train(ncclComm_t comm, cudaStream_t s, float *params, float *d_loss,
           size_t n, int steps) {
  for (int step = 0; step < steps; ++step) {
    launch_step(params, d_loss, s);
    ncclAllReduce(params, params, n, ncclFloat, ncclAvg, comm, s);
    float h = 0;
    cudaMemcpyAsync(&h, d_loss, sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    if (!std::isfinite(h))
      break;
  }
  for (int step = 0; step < steps; ++step) {
    launch_step(params, d_loss, s);
    float h = 0;
    cudaMemcpyAsync(&h, d_loss, sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    std::printf("%f\n", std::abs(h));
  }
  ncclResult_t state;
  ncclCommGetAsyncError(comm, &state);
}
