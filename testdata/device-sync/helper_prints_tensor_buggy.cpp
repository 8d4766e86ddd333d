// The sync hides in helpers: log_step() prints the loss tensor (operator<<
// copies it to the host) and accuracy() calls .cpu() and reads it. Both run
// on every step because train_step() is called from the step loop.
// The device comes from the command line: possibly CUDA.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <torch/torch.h>

#include <iostream>
#include <string>

namespace {

void log_step(int step, const torch::Tensor &loss) {
  std::cout << "step " << step << " loss " << loss << "\n"; // expect: distlint-stray-device-sync
}

double accuracy(const torch::Tensor &logits, const torch::Tensor &labels) {
  auto correct = logits.argmax(1).eq(labels).sum().cpu(); // expect: distlint-stray-device-sync
  return double(correct.data_ptr<int64_t>()[0]) / labels.size(0);
}

struct Trainer {
  torch::nn::Sequential model;
  torch::optim::SGD opt;
  Trainer(torch::nn::Sequential m)
      : model(m), opt(m->parameters(), torch::optim::SGDOptions(0.1)) {}

  void train_step(int step, const torch::Tensor &x, const torch::Tensor &y) {
    opt.zero_grad();
    auto logits = model->forward(x);
    auto loss = torch::nn::functional::cross_entropy(logits, y);
    loss.backward();
    opt.step();
    log_step(step, loss); // expect-note: reached in every step through this call
    (void)accuracy(logits, y);
  }
};

} // namespace

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? std::string(argv[1]) : std::string("cpu"));
  Trainer trainer(torch::nn::Sequential(torch::nn::Linear(16, 4)));
  trainer.model->to(device);
  for (int step = 0; step < 500; ++step) {
    auto x = torch::randn({8, 16}).to(device);
    auto y = torch::randint(0, 4, {8}).to(device);
    trainer.train_step(step, x, y);
  }
}
