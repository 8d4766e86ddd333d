// LibTorch 2.x with timeouts everywhere: createProcessGroupGloo with 60 s,
// NCCL backend options with a timeout set through a helper on a pointer.
// run: none -- written against the LibTorch 2.x Backend API; Debian 12 ships only LibTorch 1.13
// libtorch: 2.x
// distlint-args: -DDISTLINT_TORCH_2X
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include <chrono>

static void set_timeouts(c10d::Backend::Options *options) {
  options->timeout = std::chrono::seconds(90);
}

c10::intrusive_ptr<c10d::Backend>
make_backends(const c10::intrusive_ptr<c10d::Store> &store, int rank, int size) {
  auto gloo = c10d::ProcessGroupGloo::createProcessGroupGloo(
      store, rank, size, std::chrono::seconds(60));
  auto opts = c10d::ProcessGroupNCCL::Options::create();
  set_timeouts(opts.get());
  auto nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size,
                                                          opts);
  (void)gloo;
  return nccl;
}
