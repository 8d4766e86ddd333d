// "Skip the batch if the loss is NaN" in a data-parallel loop: the check is on
// the rank's own loss, so the rank that hits a corrupt sample `continue`s past
// the gradient all-reduce that the other ranks are waiting in. The same trap
// as a caught exception: a bad batch throws, the catch logs and goes on.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <stdexcept>

struct BadBatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

static void average_gradients(c10d::ProcessGroupGloo &pg,
                              torch::nn::Module &model, int world_size) {
  for (auto &param : model.parameters()) {
    std::vector<at::Tensor> grads{param.grad()};
    pg.allreduce(grads)->wait();
    param.grad().div_(world_size);
  }
}

// Rank 1's shard has one corrupt record at step 2.
static at::Tensor load_batch(int rank, int step) {
  auto batch = torch::randn({16, 8});
  if (rank == 1 && step == 2)
    batch[3][5] = std::numeric_limits<float>::quiet_NaN();
  return batch;
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(rank);
  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  for (int step = 0; step < 4; ++step) {
    auto inputs = load_batch(rank, step);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs), inputs.sum(1, true));
    if (torch::isnan(loss).item<bool>()) {
      std::cerr << "rank " << rank << ": NaN loss at step " << step << "\n";
      continue;
    }
    loss.backward();
    average_gradients(*pg, *model, world_size); // expect: distlint-rank-divergent-collective
    optimizer.step();
  }

  for (int step = 4; step < 8; ++step) {
    auto inputs = load_batch(rank, step - 4);
    optimizer.zero_grad();
    try {
      auto loss = torch::mse_loss(model->forward(inputs), inputs.sum(1, true));
      if (!torch::isfinite(loss).all().item<bool>())
        throw BadBatch("non-finite loss");
      loss.backward();
      average_gradients(*pg, *model, world_size); // expect: distlint-rank-divergent-collective
      optimizer.step();
    } catch (const BadBatch &e) {
      std::cerr << "rank " << rank << ": skipped step " << step << ": "
                << e.what() << "\n";
    }
  }
  return 0;
}
