// A helper cuts each rank's shard out of a dataset every rank generates
// alike and returns inputs and targets as a pair, unpacked with a structured
// binding. The shards start at different rows but have one length, so every
// rank runs the same number of steps and gradient all-reduces.
// run: gloo clean
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <utility>

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


static std::pair<at::Tensor, at::Tensor> shard_of(int rank, int world_size) {
  torch::manual_seed(8);
  auto x = torch::randn({40 * world_size, 6});
  auto y = x.sum(1, /*keepdim=*/true);
  const int64_t rows = x.size(0) / world_size;
  return {x.narrow(0, rank * rows, rows), y.narrow(0, rank * rows, rows)};
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  auto [x, y] = shard_of(rank, world_size);
  torch::nn::Linear model(6, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);
  const int64_t batch = 8;
  for (int64_t first = 0; first + batch <= x.size(0); first += batch) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(x.narrow(0, first, batch)),
                                y.narrow(0, first, batch));
    loss.backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
      param.grad().div_(world_size);
    }
    optimizer.step();
  }
  std::cout << "rank " << rank << " done\n";
  return 0;
}
