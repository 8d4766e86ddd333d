// A scoped timer in the production style: its destructor waits for the device
// so the time it prints covers the GPU work, and the step body declares one.
// The destructor runs at the end of every step, so every step drains the GPU
// queue. The finding is at the sync in the destructor; a note points at the
// declaration in the step loop.
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
    cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
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
  for (int step = 0; step < steps; ++step) { // expect-note: training loop
    ScopedTimer timer("step"); // expect-note: destructor runs at the end of its scope
    auto x = torch::randn({32, 16}, torch::kCUDA);
    auto loss = model->forward(x).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
