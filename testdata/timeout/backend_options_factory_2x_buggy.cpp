// LibTorch 2.x, lambdas stored in std::function: the backend factory builds
// a ProcessGroupNCCL backend whose Backend::Options never get a timeout and
// registers it on a ProcessGroup wrapper; the second factory's helper sets
// the timeout through the Backend::Options base and is fine.
// run: none -- written against the LibTorch 2.x Backend API; Debian 12 ships only LibTorch 1.13
// libtorch: 2.x
// distlint-args: -DDISTLINT_TORCH_2X
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include <chrono>
#include <functional>

using StorePtr = c10::intrusive_ptr<c10d::Store>;
using BackendPtr = c10::intrusive_ptr<c10d::Backend>;
using Factory = std::function<BackendPtr(const StorePtr &, int, int)>;

int main() {
  Factory plain = [](const StorePtr &store, int rank, int size) -> BackendPtr {
    auto opts = c10d::ProcessGroupNCCL::Options::create(); // expect-note: options created here
    opts->is_high_priority_stream = false;
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, opts); // expect: distlint-missing-timeout(note)
  };
  Factory bounded = [](const StorePtr &store, int rank, int size) -> BackendPtr {
    auto opts = c10d::ProcessGroupNCCL::Options::create();
    c10d::Backend::Options &base = *opts;
    base.timeout = std::chrono::minutes(2);
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, opts);
  };
  StorePtr store;
  auto pg = c10::make_intrusive<c10d::ProcessGroup>(store, 0, 1);
  pg->setBackend(c10::DeviceType::CUDA, c10d::ProcessGroup::NCCL,
                 plain(store, 0, 1)); // expect-note: process group made by this call
  auto second = bounded(store, 0, 1);
  (void)second;
}
