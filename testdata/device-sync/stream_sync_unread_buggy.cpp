// Raw NCCL data parallelism: the gradient all-reduce is queued on a stream
// and the host then waits for that stream with nothing to read: the next
// kernels would be ordered after the all-reduce on the same stream anyway.
// A second loop waits on an event the same way.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

void launch_backward(float *grads, size_t n, cudaStream_t s);
void launch_update(float *params, const float *grads, size_t n, cudaStream_t s);

void train(ncclComm_t comm, float *params, float *grads, size_t n, int steps) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  for (int step = 0; step < steps; ++step) {
    launch_backward(grads, n, stream);
    ncclAllReduce(grads, grads, n, ncclFloat, ncclSum, comm, stream);
    cudaStreamSynchronize(stream); // expect: distlint-stray-device-sync
    launch_update(params, grads, n, stream);
  }
  cudaEvent_t done;
  cudaEventCreate(&done);
  for (int step = 0; step < steps; ++step) {
    ncclAllReduce(grads, grads, n, ncclFloat, ncclSum, comm, stream);
    cudaEventRecord(done, stream);
    cudaEventSynchronize(done); // expect: distlint-stray-device-sync
    launch_update(params, grads, n, stream);
  }
}
