// The same helper waits for the stream in every step, but the step never
// looks at the loss it hands back: the sync only stalls the pipeline.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

void launch_step(float *params, float *d_loss, cudaStream_t s);

struct HostLoss {
  float value = 0;
};

static HostLoss fetchLoss(const float *d_loss, cudaStream_t stream) {
  HostLoss out;
  cudaMemcpyAsync(&out.value, d_loss, sizeof(float), cudaMemcpyDeviceToHost,
                  stream);
  cudaStreamSynchronize(stream);
  return out;
}

void train(ncclComm_t comm, float *params, float *d_loss, size_t n, int steps) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  for (int step = 0; step < steps; ++step) {
    launch_step(params, d_loss, stream);
    ncclAllReduce(params, params, n, ncclFloat, ncclAvg, comm, stream);
    fetchLoss(d_loss, stream); // expect: distlint-stray-device-sync
  }
}
