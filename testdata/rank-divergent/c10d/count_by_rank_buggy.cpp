// Every rank reaches the collective, but its arguments must agree and do
// not: the all-reduce buffer is sized by the rank's own number of classes
// seen ("per-class counts"), which is derived from the rank. Gloo pairs the
// two buffers, the sizes disagree and the ranks wait until the timeout.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>

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

// Rank r's shard only contains the classes 0..(r + 2).
static int64_t classes_in_shard(int rank) { return rank + 3; }

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  const int64_t num_classes = classes_in_shard(rank);
  auto labels = torch::randint(0, num_classes, {128}, torch::kLong);
  auto counts = torch::bincount(labels, /*weights=*/{}, num_classes)
                    .to(torch::kFloat);
  std::vector<at::Tensor> histogram{counts};
  pg->allreduce(histogram)->wait(); // expect: distlint-rank-divergent-collective
  std::cout << "rank " << rank << " class histogram " << counts << "\n";
  return 0;
}
