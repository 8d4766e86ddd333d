// Gradient accumulation: the micro-steps run the backward without
// communicating, and the step loop around them all-reduces the gradients
// once per step; a device-wide sync after the update (nothing on the host
// reads) stalls every step. The inner loop does not make the outer one an
// epoch loop: it does not communicate.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

void launch_backward(float *grads, int n, cudaStream_t s);
void launch_update(float *params, const float *grads, int n, cudaStream_t s);

void train(ncclComm_t comm, cudaStream_t s, float *params, float *grads,
           int n, int steps, int micro_steps) {
  for (int step = 0; step < steps; ++step) {
    for (int m = 0; m < micro_steps; ++m)
      launch_backward(grads, n, s);
    ncclAllReduce(grads, grads, n, ncclFloat, ncclAvg, comm, s);
    launch_update(params, grads, n, s);
    cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
  }
  ncclResult_t state;
  ncclCommGetAsyncError(comm, &state);
}
