// LibTorch 1.13's dispatcher-routed free functions (c10d::ops) on a
// c10::intrusive_ptr<c10d::ProcessGroup>. Two divergences: a `?:` that only
// gives rank 0 a barrier to wait on, and a loop whose trip count is chosen by
// rank (rank 0 "also reduces the remainder bucket").
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/Ops.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

using ProcessGroupPtr = c10::intrusive_ptr<c10d::ProcessGroup>;

static ProcessGroupPtr init_process_group(int rank, int world_size) {
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

static void reduce_bucket(const ProcessGroupPtr &pg, at::Tensor bucket) {
  c10d::ops::allreduce(pg, {bucket})->wait();
}

int main() {
  const int rank = std::stoi(std::getenv("RANK"));
  const int world_size = std::stoi(std::getenv("WORLD_SIZE"));
  ProcessGroupPtr pg = init_process_group(rank, world_size);

  std::vector<at::Tensor> buckets;
  for (int i = 0; i < 3; ++i)
    buckets.push_back(torch::ones({256}) * (rank + 1));

  c10::intrusive_ptr<c10d::Work> ready =
      rank == 0 ? c10d::ops::barrier(pg) // expect: distlint-rank-divergent-collective
                : c10::intrusive_ptr<c10d::Work>();
  if (ready)
    ready->wait();

  const int buckets_to_reduce = rank == 0 ? 3 : 2;
  for (int i = 0; i < buckets_to_reduce; ++i)
    reduce_bucket(pg, buckets[i]); // expect: distlint-rank-divergent-collective

  std::cout << "rank " << rank << " bucket sum "
            << buckets[0].sum().item<float>() << "\n";
  return 0;
}
