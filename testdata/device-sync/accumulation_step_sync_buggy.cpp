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

extern const void *backward_kernel;

static void reduce_buckets(ncclComm_t comm, cudaStream_t s, float *grads,
                           int n) {
  for (int off = 0; off < n; off += 1024)
    ncclAllReduce(grads + off, grads + off, n - off < 1024 ? n - off : 1024,
                  ncclFloat, ncclAvg, comm, s);
}

void train(ncclComm_t comm, cudaStream_t s, float *params, float *grads,
           int n, int steps, int micro_steps) {
  for (int step = 0; step < steps; ++step) {
    for (int m = 0; m < micro_steps; ++m)
      launch_backward(grads, n, s);
    ncclAllReduce(grads, grads, n, ncclFloat, ncclAvg, comm, s);
    launch_update(params, grads, n, s);
    cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
  }
  // The gradients all-reduced bucket by bucket in a helper: that loop
  // communicates without computing, so the loop around it is still the
  // step loop.
  for (int step = 0; step < steps; ++step) {
    void *args[] = {&grads, &n};
    cudaLaunchKernel(backward_kernel, dim3(64), dim3(256), args, 0, s);
    reduce_buckets(comm, s, grads, n);
    launch_update(params, grads, n, s);
    cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
  }
  ncclResult_t state;
  ncclCommGetAsyncError(comm, &state);
}
