// The held-out rows are split round-robin, so ranks score different numbers
// of rows (41 rows: 21/20 on two ranks). The evaluation lambda returns
// {loss sum, correct, rows} as a three-element tensor whatever the shard's
// length, so every rank reduces a tensor of one shape to rank 0.
// run: gloo clean
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
    double loss_sum = 0.0, correct = 0.0;
    const int64_t rows = my_x.size(0);
    for (int64_t i = 0; i < rows; i += 4) {
      const int64_t len = std::min<int64_t>(4, rows - i);
      auto logits = my_x.narrow(0, i, len).matmul(w);
      auto t = my_y.narrow(0, i, len);
      loss_sum += torch::mse_loss(logits, t, /*reduction=sum*/ 2)
                      .item<double>();
      correct += ((logits > 0).to(torch::kFloat32) == t).sum().item<double>();
    }
    return torch::tensor({loss_sum, correct, static_cast<double>(rows)},
                         torch::kFloat64);
  };

  for (int round = 0; round < 3; ++round) {
    w.add_(0.1);
    std::vector<at::Tensor> part{evaluate()};
    c10d::ReduceOptions to_root;
    to_root.rootRank = 0;
    pg->reduce(part, to_root)->wait();
    if (rank == 0)
      std::cout << "round " << round << " mean loss "
                << part[0][0].item<double>() / part[0][2].item<double>()
                << "\n";
  }
  return 0;
}
