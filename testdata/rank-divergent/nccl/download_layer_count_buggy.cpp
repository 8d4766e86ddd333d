// The number of active layers is read back from a device counter that each
// rank computed from its own data (a device-to-host copy into the config):
// the counts differ and the rank with more layers waits in an all-reduce
// the other never issues.
// run: nccl buggy
#include "nccl_job.h"

struct ModelConfig {
  int num_layers;
  int hidden;
};

struct Model {
  ModelConfig config;
  int *device_active;
  float *grads;
};

int main() {
  struct NcclJob job = startJob();
  struct Model model;
  model.config.hidden = 64;
  model.grads = deviceFloats(64, 1.0f);
  int active = 2 + job.rank; // what the device kernel would have counted
  CHECK_CUDA(cudaMalloc((void **)&model.device_active, sizeof(int)));
  CHECK_CUDA(cudaMemcpy(model.device_active, &active, sizeof(int),
                        cudaMemcpyHostToDevice));

  CHECK_CUDA(cudaMemcpy(&model.config.num_layers, model.device_active,
                        sizeof(int), cudaMemcpyDeviceToHost));
  for (int layer = 0; layer < model.config.num_layers; ++layer) // expect-note: loop condition depends on rank
    CHECK_NCCL(ncclAllReduce(model.grads, model.grads, model.config.hidden, ncclFloat, ncclSum, job.comm, job.stream)); // expect: distlint-rank-divergent-collective

  finishJob(&job);
  return 0;
}
