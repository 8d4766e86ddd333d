// Class weights for an imbalanced classifier come from the label histogram
// of the whole training set: each rank counts the labels of its own shard
// with bincount and all-reduces the counts. Without a minimum length the
// histogram is as long as the rank's largest label plus one, and only rank
// 0's shard holds the rare class 4: rank 0 all-reduces five counts, the
// others four, and Gloo fails on the size mismatch.
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


static at::Tensor global_class_counts(c10d::ProcessGroup &pg,
                                      const at::Tensor &labels) {
  auto counts = torch::bincount(labels).to(torch::kFloat32);
  std::vector<at::Tensor> buf{counts};
  pg.allreduce(buf)->wait(); // expect: distlint-rank-divergent-collective
  return counts;
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  // Labels 0..3, the same on every rank; the first row of rank 0's shard is class 4.
  const int64_t per_rank = 12;
  torch::manual_seed(3);
  auto labels = torch::randint(0, 4, {per_rank * world_size}, torch::kLong);
  labels[0] = 4;
  auto mine = labels.narrow(0, rank * per_rank, per_rank);
  auto counts = global_class_counts(*pg, mine);
  std::cout << "rank " << rank << " classes " << counts.size(0) << "\n";
  return 0;
}
