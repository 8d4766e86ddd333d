// The periodic guard sits inside the helper the step loop calls: an early
// return unless the step is a multiple of the interval, and a helper that
// checks a time budget it resets.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <torch/torch.h>

#include <chrono>
#include <iostream>

class Logger {
public:
  explicit Logger(int64_t every) : every_(every) {}
  void maybe_log(int64_t step, const torch::Tensor &loss) {
    if (step % every_ != 0)
      return;
    std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  void heartbeat(const torch::Tensor &loss) {
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(30))
      return;
    last_ = now;
    std::cout << "alive, loss " << loss.item<float>() << "\n";
  }

private:
  int64_t every_;
  std::chrono::steady_clock::time_point last_{};
};

void train(torch::nn::Linear &model, torch::optim::SGD &opt) {
  model->to(torch::kCUDA);
  Logger logger(100);
  for (int64_t step = 0; step < 10000; ++step) {
    auto loss = model->forward(torch::randn({8, 4}, torch::kCUDA)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    logger.maybe_log(step, loss);
    logger.heartbeat(loss);
  }
}
