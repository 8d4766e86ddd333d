// Clean trap: the same factories, but the options helper sets
// opts->timeout before it returns the options (through a reference to the
// 1.13 base class), and the Gloo factory passes options made with a timeout.
// run: none -- nothing to prove by running: every group has a timeout
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include <chrono>

using StorePtr = c10::intrusive_ptr<c10d::Store>;

template <typename OptionsT>
c10::intrusive_ptr<OptionsT> bounded(c10::intrusive_ptr<OptionsT> opts,
                                     std::chrono::milliseconds limit) {
  opts->timeout = limit;
  return opts;
}

c10::intrusive_ptr<c10d::ProcessGroupNCCL::Options> nccl_options() {
  auto opts = c10d::ProcessGroupNCCL::Options::create();
  c10d::ProcessGroup::Options &base = *opts;
  base.timeout = std::chrono::minutes(3);
  return opts;
}

c10::intrusive_ptr<c10d::ProcessGroup> make_group(const StorePtr &store,
                                                  int rank, int world) {
  auto opts = nccl_options();
  return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world, opts);
}

c10::intrusive_ptr<c10d::ProcessGroup> make_gloo_group(const StorePtr &store,
                                                       int rank, int world) {
  return c10::make_intrusive<c10d::ProcessGroupGloo>(
      store, rank, world,
      c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(90)));
}

int main() {
  StorePtr store;
  auto pg = make_group(store, 0, 1);
  auto cpu = make_gloo_group(store, 0, 1);
  (void)pg;
  (void)cpu;
}
