// A per-rank time budget for data loading: each rank measures how long its
// own loader took and leaves the epoch early when the budget is used up.
// Clocks are rank-local data. Rank 1 reads from a slower disk, breaks out
// first, and rank 0 waits in the next gradient all-reduce.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

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

// Stands in for reading a batch from the rank's shard; rank 1's disk is slow.
static at::Tensor read_batch(int rank) {
  std::this_thread::sleep_for(std::chrono::milliseconds(rank == 1 ? 120 : 5));
  return torch::randn({16, 8});
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  const auto loading_budget = std::chrono::milliseconds(300);
  std::chrono::steady_clock::duration loading_time{};
  for (int step = 0; step < 8; ++step) {
    const auto start = std::chrono::steady_clock::now();
    auto inputs = read_batch(rank);
    loading_time += std::chrono::steady_clock::now() - start;
    if (loading_time > loading_budget)
      break;

    optimizer.zero_grad();
    torch::mse_loss(model->forward(inputs), inputs.sum(1, true)).backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait(); // expect: distlint-rank-divergent-collective
      param.grad().div_(world_size);
    }
    optimizer.step();
  }
  std::cout << "rank " << rank << " done\n";
  return 0;
}
