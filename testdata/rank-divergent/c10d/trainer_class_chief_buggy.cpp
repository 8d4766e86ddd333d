// A Trainer class remembers whether it is the "chief" in a field assigned
// from the process group's rank. end_epoch() evaluates only on the chief,
// but evaluate() all-reduces the validation statistics, so the chief waits
// for ranks that never join.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <utility>

static c10::intrusive_ptr<c10d::ProcessGroupGloo> init_process_group() {
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(
      store, std::atoi(std::getenv("RANK")), world_size, options);
}

class Trainer {
public:
  explicit Trainer(c10::intrusive_ptr<c10d::ProcessGroupGloo> pg)
      : pg_(std::move(pg)), world_size_(pg_->getSize()),
        is_chief_(pg_->getRank() == 0), model_(8, 2),
        optimizer_(model_->parameters(), /*lr=*/0.1) {}

  void train_step() {
    auto inputs = torch::randn({8, 8});
    auto labels = torch::randint(0, 2, {8}, torch::kLong);
    optimizer_.zero_grad();
    auto loss = torch::cross_entropy_loss(model_->forward(inputs), labels);
    loss.backward();
    for (auto &param : model_->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg_->allreduce(grads)->wait();
      param.grad().div_(world_size_);
    }
    optimizer_.step();
  }

  void end_epoch(int epoch) {
    if (is_chief_) {
      double accuracy = evaluate(); // expect: distlint-rank-divergent-collective
      std::cout << "epoch " << epoch << " accuracy " << accuracy << "\n";
    }
  }

private:
  double evaluate() {
    torch::NoGradGuard no_grad;
    auto inputs = torch::randn({64, 8});
    auto labels = torch::randint(0, 2, {64}, torch::kLong);
    auto correct = model_->forward(inputs).argmax(1).eq(labels).sum();
    std::vector<at::Tensor> stats{
        torch::stack({correct.to(torch::kFloat), torch::full({}, 64.f)})};
    pg_->allreduce(stats)->wait();
    return (stats[0][0] / stats[0][1]).item<double>();
  }

  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
  int world_size_;
  bool is_chief_;
  torch::nn::Linear model_;
  torch::optim::SGD optimizer_;
};

int main() {
  torch::manual_seed(7);
  Trainer trainer(init_process_group());
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (int step = 0; step < 3; ++step)
      trainer.train_step();
    trainer.end_epoch(epoch);
  }
  return 0;
}
