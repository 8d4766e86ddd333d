// Each rank loads its own shard, from a path chosen by its rank, and
// all-reduces one statistic per row. The shards have different lengths (the
// loaded tensor's size(0) is rank-local), so the rank with the longer shard
// waits in an all-reduce the other never issues.
// run: gloo buggy
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

#include <string>
#include <unistd.h>

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  const std::string path = "/tmp/distlint-shard-" + std::to_string(rank) +
                           "-" + std::to_string(::getpid()) + ".pt";
  torch::save(torch::ones({2 + rank, 3}), path);
  at::Tensor shard;
  torch::load(shard, path);
  for (int64_t row = 0; row < shard.size(0); ++row) { // expect-note: loop condition depends on rank-local data
    std::vector<at::Tensor> stat{shard[row].sum().reshape({1})};
    pg->allreduce(stat)->wait(); // expect: distlint-rank-divergent-collective
  }
  std::cout << "rank " << rank << " rows " << shard.size(0) << "\n";
  return 0;
}
