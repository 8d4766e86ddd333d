// Each rank's loss and accuracy are full reductions (`sum()`, `mean()`) of
// a shard whose length is this rank's own, and one rank zeroes its loss
// under a branch: a reduction of every element is a 0-dim tensor whatever
// the input's shape, arithmetic between two of them keeps that shape, and
// stacking two of them gives two elements on every rank, so the all-reduce
// of the stacked statistics matches.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

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
  torch::manual_seed(17 + rank); // the same batches in every run

  for (int step = 0; step < 3; ++step) {
    torch::Tensor shard = torch::rand({8 + 3 * rank, 4});
    torch::Tensor mask = (shard > 0.5).to(torch::kFloat);
    torch::Tensor loss = (shard * mask).sum() / mask.sum().clamp_min(1.0);
    if (rank == world_size - 1 && step == 1)
      loss = loss * 0.0; // this rank's batch is dropped
    torch::Tensor stats = torch::stack({loss, shard.mean()});
    std::vector<at::Tensor> v{stats};
    pg->allreduce(v)->wait();
    std::cout << "rank " << rank << " step " << step << " loss "
              << v[0][0].item<float>() / world_size << "\n";
  }
  return 0;
}
