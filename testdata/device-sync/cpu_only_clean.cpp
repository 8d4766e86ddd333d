// A CPU-only program (no CUDA device anywhere in the translation unit):
// item() and printing read host memory and cost nothing extra, even in
// every step.
// run: none -- CPU-only training; the rule only concerns device syncs
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Device device(torch::kCPU);
  torch::nn::Linear model(8, 1);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01));
  double total = 0;
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({16, 8}, torch::TensorOptions().device(device));
    auto loss = model->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.item<double>();
    std::cout << loss << "\n";
    if (loss.isnan().any().is_nonzero())
      break;
  }
  std::cout << total << "\n";
}
