// Explicit device-wide synchronization in every step, in three spellings:
// torch::cuda::synchronize(), c10::cuda::device_synchronize() and the CUDA
// runtime's cudaDeviceSynchronize(). A while loop counts steps by hand.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime.h>
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::Optimizer &opt,
           int64_t steps) {
  int64_t step = 0;
  while (step < steps) { // expect-note: training loop
    auto x = torch::randn({32, 8}, torch::kCUDA);
    auto loss = model->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    torch::cuda::synchronize(); // expect: distlint-stray-device-sync
    opt.step();
    c10::cuda::device_synchronize(); // expect: distlint-stray-device-sync
    if (cudaDeviceSynchronize() != cudaSuccess) // expect: distlint-stray-device-sync
      break;
    ++step;
  }
}

int main() {
  torch::nn::Linear model(8, 1);
  model->to(torch::kCUDA);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  train(model, opt, 100);
  // Once, after training: fine.
  torch::cuda::synchronize();
}
