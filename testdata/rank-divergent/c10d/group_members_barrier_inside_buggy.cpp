// The first half of the ranks build a process group of their own and
// all-reduce on it under `if (rank < half)` (fine: every member takes that
// arm), but the job-wide barrier that should follow for everybody sits in
// the same block: the other half never issues it and waits in its own
// all-reduce on the job's group, which rank 0 never reaches.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>

using c10d::ProcessGroupGloo;
using GroupPtr = c10::intrusive_ptr<ProcessGroupGloo>;

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  c10::intrusive_ptr<c10d::Store> store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  GroupPtr pg =
      c10::make_intrusive<ProcessGroupGloo>(store, rank, world_size, options);

  const int half = world_size / 2 > 0 ? world_size / 2 : 1;
  GroupPtr writers;
  if (rank < half) {
    auto prefixed = c10::make_intrusive<c10d::PrefixStore>("writers", store);
    writers = c10::make_intrusive<ProcessGroupGloo>(prefixed, rank, half,
                                                    options);
  }

  std::vector<at::Tensor> shards{torch::ones({8}) * (rank + 1)};
  if (rank < half) {
    writers->allreduce(shards)->wait();
    pg->barrier()->wait(); // expect: distlint-rank-divergent-collective
  }

  std::vector<at::Tensor> counts{torch::ones({4})};
  pg->allreduce(counts)->wait();
  std::cout << "rank " << rank << " sum " << counts[0].sum().item<float>()
            << "\n";
  return 0;
}
