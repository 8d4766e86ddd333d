// A loss-spike guard that tests the wrong list: the all-gather's input (this
// rank's own loss) instead of its output. Only the rank whose batch spiked
// skips the step; the others wait for it in the gradient all-reduce.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>
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

// Every rank's loss, in rank order.
static std::vector<double> gather_losses(c10d::ProcessGroup &pg,
                                         double loss) {
  std::vector<at::Tensor> mine{torch::full({1}, loss, torch::kFloat64)};
  std::vector<std::vector<at::Tensor>> all(1);
  for (int r = 0; r < pg.getSize(); ++r)
    all[0].push_back(torch::empty({1}, torch::kFloat64));
  pg.allgather(all, mine)->wait();
  std::vector<double> out;
  for (auto &t : mine)
    out.push_back(t.item<double>());
  return out;
}

// A spike: some loss is far above what this model ever reaches.
static bool spike(const std::vector<double> &losses) {
  return *std::max_element(losses.begin(), losses.end()) > 1000.0;
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(0);
  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  torch::manual_seed(100 + rank);
  for (int step = 0; step < 4; ++step) {
    auto inputs = torch::randn({16, 8});
    if (rank == world_size - 1 && step == 2)
      inputs.mul_(50.0); // a corrupted batch on one rank
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs), inputs.sum(1, true));
    if (spike(gather_losses(*pg, loss.item<double>()))) {
      if (rank == 0)
        std::cout << "step " << step << ": skipped\n";
      continue;
    }
    loss.backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait(); // expect: distlint-rank-divergent-collective
      param.grad().div_(world_size);
    }
    optimizer.step();
  }
  // Ranks that went on wait here for a rank that is still elsewhere.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  return 0;
}
