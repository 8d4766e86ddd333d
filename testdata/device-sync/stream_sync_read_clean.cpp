// Stream and event syncs whose results the host reads right away: an
// asynchronous device-to-host copy of the loss read after the stream sync,
// and event timing read with cudaEventElapsedTime after the event sync.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

void launch_step(float *params, float *d_loss, cudaStream_t s);

void train(ncclComm_t comm, float *params, float *d_loss, size_t n, int steps) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  float *h_loss = nullptr;
  cudaMallocHost(reinterpret_cast<void **>(&h_loss), sizeof(float));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int step = 0; step < steps; ++step) {
    cudaEventRecord(start, stream);
    launch_step(params, d_loss, stream);
    ncclAllReduce(params, params, n, ncclFloat, ncclAvg, comm, stream);
    // Every rank stops on the same (averaged) loss.
    ncclAllReduce(d_loss, d_loss, 1, ncclFloat, ncclAvg, comm, stream);
    cudaMemcpyAsync(h_loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost,
                    stream);
    cudaEventRecord(stop, stream);
    cudaStreamSynchronize(stream);
    if (*h_loss < 1e-4f)
      break;
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    std::printf("step %d: %.3f ms\n", step, ms);
  }
}
