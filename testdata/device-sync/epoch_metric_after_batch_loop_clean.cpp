// Once per epoch, after the batch loop (which runs the backward kernels and
// all-reduces the gradients in every step), every rank averages a metric with a collective and copies it
// to the host to print it: the epoch loop communicates too, but its
// iterations are epochs, not steps, so the copy's wait is once per epoch.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

extern const void *backward_kernel;

static float averaged_metric(ncclComm_t comm, cudaStream_t s, float *d_metric) {
  ncclAllReduce(d_metric, d_metric, 1, ncclFloat, ncclAvg, comm, s);
  float h = 0;
  cudaMemcpy(&h, d_metric, sizeof h, cudaMemcpyDeviceToHost);
  return h;
}

static void backward(float *grads, cudaStream_t s) {
  void *args[] = {&grads};
  cudaLaunchKernel(backward_kernel, dim3(64), dim3(256), args, 0, s);
}

static void train_epoch(ncclComm_t comm, cudaStream_t s, float *grads,
                        size_t n, int batches) {
  for (int b = 0; b < batches; ++b) {
    backward(grads, s);
    ncclAllReduce(grads, grads, n, ncclFloat, ncclAvg, comm, s);
  }
}

void train(ncclComm_t comm, cudaStream_t s, float *grads, float *d_metric,
           size_t n, int epochs, int batches) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int b = 0; b < batches; ++b) {
      backward(grads, s);
      ncclAllReduce(grads, grads, n, ncclFloat, ncclAvg, comm, s);
    }
    std::printf("epoch %d metric %f\n", epoch,
                averaged_metric(comm, s, d_metric));
  }
  // The batch loop in a helper of its own.
  for (int epoch = 0; epoch < epochs; ++epoch) {
    train_epoch(comm, s, grads, n, batches);
    std::printf("epoch %d metric %f\n", epoch,
                averaged_metric(comm, s, d_metric));
  }
  ncclResult_t state;
  ncclCommGetAsyncError(comm, &state);
}
