// ProcessGroupNCCL built without options (the constructor's default
// Options::create()), on the stack and through std::make_shared, and once
// with options whose only change is the stream priority.
// run: none -- needs NCCL and GPUs; the default timeout is 30 minutes
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <memory>

using c10d::ProcessGroupNCCL;

void run(const c10::intrusive_ptr<c10d::Store> &store, int rank,
         int size) {
  ProcessGroupNCCL direct(store, rank, size); // expect: distlint-missing-timeout(note)
  auto shared = std::make_shared<ProcessGroupNCCL>(store, rank, size); // expect: distlint-missing-timeout(note)
  auto opts = ProcessGroupNCCL::Options::create(/*is_high_priority_stream=*/true);
  auto prioritized =
      c10::make_intrusive<ProcessGroupNCCL>(store, rank, size, opts); // expect: distlint-missing-timeout(note)
  (void)shared;
  (void)prioritized;
}
