// Each rank trains on its own contiguous block of a shared dataset: the
// block starts at rank * chunk and is chunk rows wide (written both as
// `(rank + 1) * chunk` and as `begin + chunk`), so every rank runs the same
// number of batches and all-reduces its gradients as often as the others.
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

  torch::manual_seed(7);
  const int64_t samples = 64, batch = 4;
  auto inputs = torch::randn({samples, 8});
  auto targets = inputs.sum(1, /*keepdim=*/true);
  const int64_t chunk = samples / world_size;
  auto x = inputs.slice(0, rank * chunk, (rank + 1) * chunk);
  const int64_t begin = rank * chunk;
  const int64_t end = begin + chunk;
  auto y = targets.slice(0, begin, end);
  const int64_t batches = x.size(0) / batch;

  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/1e-2);
  for (int64_t b = 0; b < batches; ++b) {
    optimizer.zero_grad();
    auto xb = x.slice(0, b * batch, (b + 1) * batch);
    auto yb = y.slice(0, b * batch, (b + 1) * batch);
    torch::mse_loss(model->forward(xb), yb).backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
      param.grad().div_(world_size);
    }
    optimizer.step();
  }
  std::cout << "rank " << rank << " ran " << batches << " batches\n";
  return 0;
}
