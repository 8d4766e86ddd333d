// Sharded initialization: each rank fills its own shard of an embedding
// table (the others hold empty tensors of the same shape) and a helper
// broadcasts every shard from its owner in turn. The tensors differ in
// their values between ranks, never in their shapes: every broadcast
// matches.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <tuple>
#include <vector>

using Group = c10::intrusive_ptr<c10d::ProcessGroupGloo>;

static Group init_process_group(int rank, int world_size) {
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

static void sync_shards(const Group &pg, std::vector<at::Tensor> &shards,
                        int world_size) {
  for (int owner = 0; owner < world_size; ++owner) {
    std::vector<at::Tensor> one{shards[owner]};
    c10d::BroadcastOptions opts;
    opts.rootRank = owner;
    pg->broadcast(one, opts)->wait();
  }
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  std::vector<at::Tensor> shards;
  for (int r = 0; r < world_size; ++r)
    shards.push_back(r == rank ? torch::ones({64, 16}) * (r + 1)
                               : torch::zeros({64, 16}));
  sync_shards(pg, shards, world_size);
  std::cout << "rank " << rank << " shard sums";
  for (const at::Tensor &s : shards)
    std::cout << " " << s.sum().item<float>();
  std::cout << "\n";
  return 0;
}
