// A helper uploads this rank's batch (host data read per rank) into the
// model's device input buffer. The copy writes the destination only: the
// model's configuration, and the loop over its layers, stay the same on
// every rank.
// run: nccl clean
#include "nccl_job.h"

struct ModelConfig {
  int num_layers;
  int hidden;
};

struct Model {
  ModelConfig config;
  float *inputs;
  float *grads;
};

static void upload_batch(struct Model *m, const float *host, size_t n) {
  CHECK_CUDA(cudaMemcpy(m->inputs, host, n * sizeof(float),
                        cudaMemcpyHostToDevice));
}

int main() {
  struct NcclJob job = startJob();
  struct Model model;
  model.config.num_layers = 3;
  model.config.hidden = 64;
  model.inputs = deviceFloats(64, 0.0f);
  model.grads = deviceFloats(64, 1.0f);

  float batch[64];
  for (int i = 0; i < 64; ++i)
    batch[i] = (float)(rand() % 100) + job.rank;
  upload_batch(&model, batch, 64);

  for (int layer = 0; layer < model.config.num_layers; ++layer)
    CHECK_NCCL(ncclAllReduce(model.grads, model.grads, model.config.hidden,
                             ncclFloat, ncclSum, job.comm, job.stream));

  finishJob(&job);
  printf("rank %d: grad[0] = %g\n", job.rank, firstValue(model.grads));
  return 0;
}
