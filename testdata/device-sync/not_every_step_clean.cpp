// Syncs that are not per step: once per epoch after the batch loop, in a
// validation pass after training, in a data-preparation loop that trains
// nothing, and a conversion to a dtype (not the CPU) inside the loop. The
// validation pass accumulates on the device and reads the total once.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <torch/torch.h>

#include <iostream>
#include <vector>

void evaluate(torch::nn::Linear &model, const std::vector<torch::Tensor> &data) {
  torch::NoGradGuard no_grad;
  auto total = torch::zeros({1}, torch::kCUDA);
  for (const auto &x : data)
    total += model->forward(x).mean();
  std::cout << "validation " << total.item<float>() << "\n";
}

void train(torch::nn::Linear &model, torch::optim::SGD &opt,
           std::vector<torch::Tensor> &batches) {
  torch::Device cuda(torch::kCUDA);
  // Data preparation: no training step in this loop.
  for (auto &b : batches) {
    b = b.to(cuda);
    std::cout << "batch mean " << b.mean().item<float>() << "\n";
  }
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto epoch_loss = torch::zeros({1}, cuda);
    for (auto &b : batches) {
      auto loss = model->forward(b.to(torch::kFloat)).sum();
      opt.zero_grad();
      loss.backward();
      opt.step();
      epoch_loss += loss.detach();
    }
    // Once per epoch.
    std::cout << "epoch " << epoch << " " << epoch_loss.item<float>() << "\n";
    torch::cuda::synchronize();
  }
  evaluate(model, batches);
}
