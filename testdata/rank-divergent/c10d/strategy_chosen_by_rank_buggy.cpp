// The gradient-sync strategy is chosen by the rank itself: rank 0 runs the
// strategy that all-reduces and then broadcasts, the others the one that
// only all-reduces. The virtual call issues different collectives on
// different ranks: rank 0's broadcast meets the others' next all-reduce.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>

using c10d::ProcessGroupGloo;
using GroupPtr = c10::intrusive_ptr<ProcessGroupGloo>;

struct GradSync {
  virtual ~GradSync() = default;
  virtual void sync(const GroupPtr &pg, std::vector<at::Tensor> &grads) = 0;
};

struct SumSync : GradSync {
  void sync(const GroupPtr &pg, std::vector<at::Tensor> &grads) override {
    pg->allreduce(grads)->wait();
  }
};

struct RootAverageSync : GradSync {
  void sync(const GroupPtr &pg, std::vector<at::Tensor> &grads) override {
    pg->allreduce(grads)->wait();
    c10d::BroadcastOptions from_root;
    from_root.rootRank = 0;
    pg->broadcast(grads, from_root)->wait();
  }
};

static void barrier_on(const GroupPtr &pg) { pg->barrier()->wait(); }

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  GroupPtr pg =
      c10::make_intrusive<ProcessGroupGloo>(store, rank, world_size, options);

  std::unique_ptr<GradSync> strategy;
  if (rank == 0)
    strategy = std::make_unique<RootAverageSync>();
  else
    strategy = std::make_unique<SumSync>();
  std::vector<at::Tensor> grads{torch::ones({16}) * (rank + 1)};
  for (int step = 0; step < 3; ++step)
    strategy->sync(pg, grads); // expect: distlint-rank-divergent-collective
  barrier_on(pg);
  if (rank == 0)
    std::cout << "sum " << grads[0].sum().item<float>() << "\n";
  return 0;
}
