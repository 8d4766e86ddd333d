// Every rank builds the job's process group with its own rank (that is what
// the constructor's rank argument is for) and hands the group to helpers
// and to a virtual gradient-sync strategy, chosen from a setting rank 0
// broadcasts, which issue the collectives. The handles are one communicator
// on every rank: the strategy's communicator argument does not differ
// between ranks.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

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

  at::Tensor setting = torch::zeros({1}, torch::kLong);
  if (rank == 0) {
    const char *mode = std::getenv("SYNC_MODE");
    setting[0] = mode && std::string(mode) == "root" ? 1 : 0;
  }
  std::vector<at::Tensor> settings{setting};
  c10d::BroadcastOptions from_zero;
  from_zero.rootRank = 0;
  pg->broadcast(settings, from_zero)->wait();

  std::unique_ptr<GradSync> strategy;
  if (setting[0].item<int64_t>() == 1)
    strategy = std::make_unique<RootAverageSync>();
  else
    strategy = std::make_unique<SumSync>();
  std::vector<at::Tensor> grads{torch::ones({16}) * (rank + 1)};
  for (int step = 0; step < 3; ++step)
    strategy->sync(pg, grads);
  barrier_on(pg);
  if (rank == 0)
    std::cout << "sum " << grads[0].sum().item<float>() << "\n";
  return 0;
}
