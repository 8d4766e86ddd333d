// Rank 0 waits on a barrier before it joins the loss all-reduce ("let the
// logger catch up"); the other ranks reduce first and wait on the barrier
// afterwards. Same collectives, different order: Gloo pairs the barrier with
// the all-reduce and every rank waits until the timeout.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

struct Group {
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
  int rank = 0;

  void sync() { pg->barrier()->wait(); }
  void sum(at::Tensor &t) {
    std::vector<at::Tensor> ts{t};
    pg->allreduce(ts)->wait();
  }
};

Group make_group(int rank, int world_size) {
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  Group g;
  g.pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size,
                                                     options);
  g.rank = rank;
  return g;
}

} // namespace

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  Group g = make_group(rank, world_size);
  at::Tensor loss = torch::ones({4}) * (rank + 1);
  if (rank == 0) {
    g.sync(); // expect: distlint-rank-divergent-collective
    g.sum(loss);
  } else {
    g.sum(loss);
    g.sync();
  }
  std::cout << "rank " << rank << " loss " << loss.sum().item<float>() << "\n";
  return 0;
}
