// Skip-on-overflow after the gradient all-reduce: a helper all-reduces the
// model's gradient field in place, a kernel launcher (defined with the
// kernels, in another file) sums their squares into a zeroed device scalar,
// and the norm read back decides whether the step's update broadcast runs.
// The kernel reads only agreed data (the reduced gradients, the agreed
// length), so every rank reads the same norm and skips together. The helper
// agrees the gradients only: the model's length field was never in doubt,
// and the update's count stays agreed.
// run: none -- the kernel launchers are defined in the kernels' own file; the agreed read-back of all-reduced device data runs under the NCCL stand-in in async_copied_reduced_loss_clean.cpp
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
    reduce_grads(&m, comm, stream);
    cudaMemsetAsync(m.norm, 0, sizeof(float), stream);
    sum_squares(m.norm, m.grads, m.n, stream);
    float squared = 0.0f;
    cudaMemcpy(&squared, m.norm, sizeof(float), cudaMemcpyDeviceToHost);
    if (!std::isfinite(squared))
      continue;
    update(&m, comm, stream);
  }
}
