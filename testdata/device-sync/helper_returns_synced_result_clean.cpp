// A helper averages the loss over the ranks, waits for the stream and hands
// back a host copy; the training step reads it right away to decide whether
// to stop (every rank on the same value). The sync is
// what makes that read correct, so it is not stray.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

void launch_step(float *params, float *d_loss, cudaStream_t s);

struct HostLoss {
  float value = 0;
};

static HostLoss fetchMeanLoss(ncclComm_t comm, float *d_loss,
                              cudaStream_t stream) {
  ncclAllReduce(d_loss, d_loss, 1, ncclFloat, ncclAvg, comm, stream);
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
    HostLoss loss = fetchMeanLoss(comm, d_loss, stream);
    if (loss.value < 1e-4f)
      break;
  }
}
