// LibTorch stream and event objects, and a lambda run by an algorithm:
// the side stream is synchronized after every step though nothing reads
// what it produced, an event is waited on the same way, and a gradient-norm
// lambda passed to std::for_each calls item() for every parameter.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <algorithm>
#include <vector>

void train(torch::nn::Sequential &model, torch::optim::Adam &opt,
           std::vector<torch::Tensor> &batches) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent copied;
  float max_norm = 0;
  for (auto &batch : batches) {
    auto loss = model->forward(batch.to(torch::kCUDA)).mean();
    opt.zero_grad();
    loss.backward();
    auto params = model->parameters();
    std::for_each(params.begin(), params.end(), [&](const torch::Tensor &p) {
      max_norm = std::max(max_norm, p.grad().norm().item<float>()); // expect: distlint-stray-device-sync
    });
    opt.step();
    copied.record(side);
    copied.synchronize(); // expect: distlint-stray-device-sync
    side.synchronize(); // expect: distlint-stray-device-sync
  }
}
