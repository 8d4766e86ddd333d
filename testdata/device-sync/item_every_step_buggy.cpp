// Classic LibTorch training loop on the GPU that sums the loss with
// loss.item<float>() after every optimizer step: the host waits for the
// whole step to finish before it can queue the next one.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <torch/torch.h>

#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc1(register_module("fc1", torch::nn::Linear(784, 64))),
              fc2(register_module("fc2", torch::nn::Linear(64, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    return fc2->forward(torch::relu(fc1->forward(x)));
  }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

int main() {
  torch::Device device(torch::kCUDA); // expect-note: CUDA is selected here
  Net net;
  net->to(device);
  torch::optim::SGD optimizer(net->parameters(), /*lr=*/0.01);
  float running = 0;
  for (int step = 0; step < 1000; ++step) { // expect-note: training loop
    auto x = torch::randn({64, 784}, torch::TensorOptions().device(device));
    auto y = torch::randn({64, 10}, torch::TensorOptions().device(device));
    optimizer.zero_grad();
    auto loss = torch::mse_loss(net->forward(x), y);
    loss.backward();
    optimizer.step();
    running += loss.item<float>(); // expect: distlint-stray-device-sync
  }
  std::cout << running / 1000 << "\n";
}
