// The fixed checkpoint path: rank 0 alone writes the file, then every rank
// meets at the barrier, so no rank starts the next epoch before the
// checkpoint exists. The barrier is outside the rank condition.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

using GroupPtr = c10::intrusive_ptr<c10d::ProcessGroupGloo>;

static GroupPtr init_process_group(int rank, int world_size) {
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

static void save_checkpoint(torch::nn::Linear &model, int epoch) {
  std::ostringstream bytes;
  torch::save(model, bytes);
  std::cout << "checkpoint epoch " << epoch << ": " << bytes.str().size()
            << " bytes\n";
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  GroupPtr pg = init_process_group(rank, world_size);

  torch::manual_seed(0);
  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (int step = 0; step < 4; ++step) {
      auto inputs = torch::randn({16, 8});
      auto targets = inputs.sum(1, /*keepdim=*/true);
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model->forward(inputs), targets);
      loss.backward();
      average_gradients(*pg, *model, world_size);
      optimizer.step();
    }
    if (rank == 0) {
      save_checkpoint(model, epoch);
      std::cout << "epoch " << epoch << " done\n";
    }
    pg->barrier()->wait();
  }
  std::cout << "rank " << rank << " finished\n";
  return 0;
}
