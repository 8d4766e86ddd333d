// Each rank sends the positions of its gradient entries that pass a test
// (`(g < 1).nonzero()`): as many as its own values select, so the
// all-gathered tensors differ in length between ranks (here 50 and 34
// entries) and Gloo fails the job.
// run: gloo buggy
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
  std::vector<std::vector<at::Tensor>> out(1);
  for (int r = 0; r < world_size; ++r)
    out[0].push_back(torch::empty_like(idx));
  std::vector<at::Tensor> in{idx};
  pg->allgather(out, in)->wait(); // expect: distlint-rank-divergent-collective
  std::cout << "rank " << rank << " sent " << idx.numel() << "\n";
  return 0;
}
