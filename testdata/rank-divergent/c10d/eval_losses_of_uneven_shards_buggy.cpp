// The held-out rows are split round-robin, so ranks score different numbers
// of rows (41 rows: 21/20 on two ranks). The evaluation lambda returns the
// per-row losses of its shard, a tensor as long as the shard, and the ranks
// reduce tensors of different lengths to rank 0: Gloo fails on the size
// mismatch.
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

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(2024);
  auto table = torch::randn({41, 5});
  auto labels = (table.sum(1) > 0).to(torch::kFloat32);
  auto mine = torch::arange(rank, 41, world_size);
  auto my_x = table.index_select(0, mine);
  auto my_y = labels.index_select(0, mine);
  auto w = torch::zeros({5});

  auto evaluate = [&]() {
    auto logits = my_x.matmul(w);
    return torch::mse_loss(logits, my_y, /*reduction=none*/ 0);
  };

  for (int round = 0; round < 3; ++round) {
    w.add_(0.1);
    std::vector<at::Tensor> part{evaluate()};
    c10d::ReduceOptions to_root;
    to_root.rootRank = 0;
    pg->reduce(part, to_root)->wait(); // expect: distlint-rank-divergent-collective
    if (rank == 0)
      std::cout << "round " << round << " mean loss "
                << part[0].mean().item<double>()
                << "\n";
  }
  return 0;
}
