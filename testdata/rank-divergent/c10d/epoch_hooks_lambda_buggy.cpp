// Collectives hidden in callbacks. The trainer keeps an end-of-epoch hook in
// a std::function that waits on a barrier, and a lambda that averages a
// validation metric. The hook is only run by rank 0 ("it writes the report"),
// and the metric lambda sits behind a short-circuit condition on the rank.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>

static c10::intrusive_ptr<c10d::ProcessGroupGloo>
init_process_group(int rank, int world_size) {
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size,
                                                     options);
}

struct TrainerHooks {
  std::function<void(int)> on_epoch_end;
};

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  TrainerHooks hooks;
  hooks.on_epoch_end = [&](int epoch) {
    std::cout << "epoch " << epoch << " report written\n";
    pg->barrier()->wait();
  };
  auto mean_over_ranks = [&](at::Tensor value) {
    std::vector<at::Tensor> buffer{value};
    pg->allreduce(buffer)->wait();
    return value.item<float>() / world_size;
  };

  torch::manual_seed(3);
  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  const bool verbose = std::getenv("TRAIN_VERBOSE") != nullptr;
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (int step = 0; step < 3; ++step) {
      auto inputs = torch::randn({16, 8});
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model->forward(inputs), inputs.mean(1, true));
      loss.backward();
      for (auto &param : model->parameters()) {
        std::vector<at::Tensor> grads{param.grad()};
        pg->allreduce(grads)->wait();
        param.grad().div_(world_size);
      }
      optimizer.step();
    }
    at::Tensor val_loss = torch::full({1}, 0.5f);
    if (verbose || rank == 0)
      std::cout << "val " << mean_over_ranks(val_loss) << "\n"; // expect: distlint-rank-divergent-collective
    if (rank == 0)
      hooks.on_epoch_end(epoch); // expect: distlint-rank-divergent-collective
  }
  return 0;
}
