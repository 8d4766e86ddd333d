// The same selected positions, but padded to the longest selection first:
// the ranks agree on the longest count with a MAX all-reduce, each copies
// its own positions into a buffer of that length, and the all-gather of the
// equally long buffers matches.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

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

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::Tensor g = torch::arange(100).remainder(rank + 2);
  torch::Tensor idx = (g < 1).nonzero().squeeze(1);
  const int64_t n = idx.numel();
  std::vector<at::Tensor> longest{torch::full({1}, n, torch::kLong)};
  c10d::AllreduceOptions max_op;
  max_op.reduceOp = c10d::ReduceOp::MAX;
  pg->allreduce(longest, max_op)->wait();
  const int64_t max_n = longest[0].item<int64_t>();

  torch::Tensor padded = torch::full({max_n}, -1, torch::kLong);
  padded.narrow(0, 0, n).copy_(idx);
  std::vector<std::vector<at::Tensor>> out(1);
  for (int r = 0; r < world_size; ++r)
    out[0].push_back(torch::empty_like(padded));
  std::vector<at::Tensor> in{padded};
  pg->allgather(out, in)->wait();
  std::cout << "rank " << rank << " sent " << n << " of " << max_n << "\n";
  return 0;
}
