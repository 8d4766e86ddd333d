// The first rank appends every loss to the metric histories it owns; the
// others do not. What the histories hold differs between ranks, the
// pointers to them do not: skipping empty slots is the same on every rank,
// and so is the synchronized loop over the slots.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
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

#include <memory>
#include <vector>

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);
  const bool is_main = rank == 0;

  torch::manual_seed(rank);
  std::vector<std::shared_ptr<std::vector<float>>> histories = {
      std::make_shared<std::vector<float>>(), nullptr,
      std::make_shared<std::vector<float>>()};
  for (int step = 0; step < 3; ++step) {
    const float loss = torch::randn({4}).abs().sum().item<float>();
    for (auto &history : histories) {
      if (is_main && history)
        history->push_back(loss);
      if (!history)
        continue;
      std::vector<at::Tensor> sync{torch::full({1}, step)};
      pg->allreduce(sync)->wait();
    }
  }
  auto *first = histories.front().get();
  if (is_main)
    first->push_back(0.f);
  if (first != nullptr)
    pg->barrier()->wait();
  if (is_main)
    std::cout << "recorded " << first->size() << " losses\n";
  return 0;
}
