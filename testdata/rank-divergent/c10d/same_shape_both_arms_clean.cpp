// The metric tensor is built differently on the first rank (which also
// logs) and on the others, but both arms build a one-element tensor: only
// its values differ, its shape does not, so the all-reduce matches. The
// number of metrics is the same constant in both arms too.
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

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(rank);
  auto loss = torch::randn({4, 4}).pow(2).mean();
  at::Tensor metric;
  int metrics;
  if (rank == 0) {
    std::cout << "loss " << loss.item<float>() << "\n";
    metric = loss.detach().reshape({1});
    metrics = 2;
  } else {
    metric = torch::zeros({1}).reshape({1});
    metrics = 2;
  }
  for (int i = 0; i < metrics; ++i) {
    std::vector<at::Tensor> bucket{metric};
    pg->allreduce(bucket)->wait();
  }
  std::cout << "rank " << rank << " metric " << metric.item<float>() << "\n";
  return 0;
}
