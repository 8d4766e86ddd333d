// The same skip-on-overflow check with the norm taken too early: the
// kernel launcher sums the squares of this rank's own gradients, before the
// helper all-reduces them. A rank whose micro-batch overflowed skips the
// update broadcast that the others issue.
// run: none -- the kernel launchers are defined in the kernels' own file; the same hang (a rank-local device value read back skips a collective) runs under the NCCL stand-in in async_copied_loss_skip_buggy.cpp
#include <cuda_runtime.h>
#include <nccl.h>

#include <cmath>

struct Model {
  float *params;
  float *grads;
  float *norm;
  int n;
};

void backward(float *grads, const float *params, int n, int seed,
              cudaStream_t stream);
void sum_squares(float *out, const float *values, int n, cudaStream_t stream);

static void reduce_grads(Model *m, ncclComm_t comm, cudaStream_t stream) {
  ncclAllReduce(m->grads, m->grads, m->n, ncclFloat, ncclAvg, comm, stream);
}

static void update(Model *m, ncclComm_t comm, cudaStream_t stream) {
  ncclBroadcast(m->params, m->params, m->n, ncclFloat, 0, comm, stream);
}

void train(Model &m, ncclComm_t comm, cudaStream_t stream, int rank) {
  for (int step = 0; step < 100; ++step) {
    backward(m.grads, m.params, m.n, rank + step, stream);
    cudaMemsetAsync(m.norm, 0, sizeof(float), stream);
    sum_squares(m.norm, m.grads, m.n, stream);
    reduce_grads(&m, comm, stream);
    float squared = 0.0f;
    cudaMemcpy(&squared, m.norm, sizeof(float), cudaMemcpyDeviceToHost);
    if (!std::isfinite(squared)) // expect-note: branch depends on rank-local data
      continue;
    update(&m, comm, stream); // expect: distlint-rank-divergent-collective
  }
}
