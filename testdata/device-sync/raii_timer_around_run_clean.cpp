// The scoped timer whose destructor waits for the device, used as intended:
// one timer around the whole run (its sync runs once, after the last step)
// and one around a single evaluation pass after training.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <torch/torch.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

class ScopedTimer {
public:
  explicit ScopedTimer(const char *name)
      : name_(name), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    cudaDeviceSynchronize();
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                  std::chrono::steady_clock::now() - start_)
                  .count();
    std::printf("%s: %lld us\n", name_, static_cast<long long>(us));
  }

private:
  const char *name_;
  std::chrono::steady_clock::time_point start_;
};

void train(torch::nn::Linear &model, torch::optim::SGD &opt, int steps) {
  ScopedTimer whole_run("training");
  for (int step = 0; step < steps; ++step) {
    auto x = torch::randn({32, 16}, torch::kCUDA);
    auto loss = model->forward(x).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

void evaluate(torch::nn::Linear &model) {
  ScopedTimer timer("evaluation");
  torch::NoGradGuard no_grad;
  auto out = model->forward(torch::randn({256, 16}, torch::kCUDA));
  std::printf("mean %f\n", out.mean().item<float>());
}
