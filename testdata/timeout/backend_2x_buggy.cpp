// LibTorch 2.x: ProcessGroupGloo::createProcessGroupGloo with a zero
// timeout, and the NCCL backend (a c10d::Backend) whose Options::create()
// result never gets a timeout. The disabled watchdog uses 2.x's name list.
// run: none -- written against the LibTorch 2.x Backend API; Debian 12 ships only LibTorch 1.13
// libtorch: 2.x
// distlint-args: -DDISTLINT_TORCH_2X
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include <chrono>
#include <cstdlib>

c10::intrusive_ptr<c10d::Backend>
make_backends(const c10::intrusive_ptr<c10d::Store> &store, int rank, int size) {
  auto gloo = c10d::ProcessGroupGloo::createProcessGroupGloo(
      store, rank, size, std::chrono::milliseconds(0)); // expect: distlint-missing-timeout
  setenv(c10d::TORCH_NCCL_ASYNC_ERROR_HANDLING[0].c_str(), "0", 1); // expect: distlint-missing-timeout
  auto opts = c10d::ProcessGroupNCCL::Options::create(); // expect-note: options created here
  opts->global_ranks_in_group = {0, 1};
  auto nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, // expect: distlint-missing-timeout(note)
                                                          opts);
  (void)gloo;
  return nccl;
}
