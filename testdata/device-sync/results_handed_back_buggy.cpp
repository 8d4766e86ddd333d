// The twins of results_handed_back_clean.cpp where nobody reads what the
// sync waited for: the field copied asynchronously is only overwritten, the
// out-parameter the helper's kernel wrote is never looked at, and the host
// copies a helper returns are only looked at for their rank. backward() issues
// the collective, so it is the step itself and its sync is reported where
// it is; the other two at their calls in the loop.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Model {
  float mean_loss = 0;
  float *d_loss = nullptr;
};

void backward(Model *model, ncclComm_t comm, cudaStream_t s) {
  ncclAllReduce(model->d_loss, model->d_loss, 1, ncclFloat, ncclAvg, comm, s);
  cudaMemcpyAsync(&model->mean_loss, model->d_loss, sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
  model->mean_loss = -1.f;
}

void count_wrong(const float *data, long *wrong, cudaStream_t s);

void check_delta(const float *data, long *wrong, cudaStream_t s) {
  count_wrong(data, wrong, s);
  cudaDeviceSynchronize(); // expect-note: the sync inside the helper
}

std::vector<torch::Tensor> host_copies(const std::vector<torch::Tensor> &ts) {
  std::vector<torch::Tensor> out(ts.size());
  for (size_t i = 0; i < ts.size(); ++i)
    out[i] = ts[i].cpu(); // expect-note: the sync inside the helper
  return out;
}

void train(Model &model, ncclComm_t comm, cudaStream_t s, float *d_out,
           std::vector<torch::Tensor> &ts) {
  long unused = 0;
  for (int step = 0; step < 1000; ++step) { // expect-note: training loop
    backward(&model, comm, s);      // the step itself: reported at its sync
    check_delta(d_out, &unused, s); // expect: distlint-stray-device-sync
    for (const auto &t : host_copies(ts)) // expect: distlint-stray-device-sync
      std::cout << t.dim() << "\n";
  }
}
