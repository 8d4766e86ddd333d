// Gradient sparsification split into helpers, as compression libraries
// write it: `sparsify` keeps the entries above a threshold (a struct of
// indices and values), `exchange` all-gathers them. How many entries pass
// depends on each rank's own gradient values (here 50 and 34), so the
// gathered tensors differ in length between ranks and Gloo fails the job.
// Neither helper sees a rank-dependent value itself: the callers' values
// decide the shape.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
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

struct SparseGrad {
  torch::Tensor indices;
  torch::Tensor values;
};

static SparseGrad sparsify(const torch::Tensor &grad, double threshold) {
  torch::Tensor idx = (grad.abs() >= threshold).nonzero().squeeze(1);
  return {idx, grad.index_select(0, idx)};
}

static void exchange(const Group &pg, const SparseGrad &s, int world_size) {
  std::vector<std::vector<at::Tensor>> out(1);
  for (int r = 0; r < world_size; ++r)
    out[0].push_back(torch::empty_like(s.indices));
  std::vector<at::Tensor> in{s.indices};
  pg->allgather(out, in)->wait(); // expect: distlint-rank-divergent-collective
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::Tensor grad =
      torch::arange(100).remainder(rank + 2).to(torch::kFloat) * -1.0;
  SparseGrad sparse = sparsify(grad, 0.5);
  exchange(pg, sparse, world_size);
  std::cout << "rank " << rank << " sent " << sparse.indices.numel() << "\n";
  return 0;
}
