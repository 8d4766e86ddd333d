// Rank 0 pretrains a model briefly and saves it; after a barrier the other
// ranks load that checkpoint into the model they built. Loading fills the
// parameters the model's constructor made, so every rank loops over the
// same parameters when it all-reduces the gradients.
// run: gloo clean
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

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

  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const std::string checkpoint =
      std::string(store_file ? store_file : "/tmp/distlint-c10d-store") +
      ".warm.pt";
  torch::nn::Linear model(4, 2);
  if (rank == 0) {
    torch::optim::SGD warmup(model->parameters(), /*lr=*/0.1);
    auto loss = model->forward(torch::ones({3, 4})).sum();
    loss.backward();
    warmup.step();
    torch::save(model, checkpoint);
  }
  pg->barrier()->wait();
  if (rank != 0)
    torch::load(model, checkpoint);

  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);
  for (int step = 0; step < 3; ++step) {
    optimizer.zero_grad();
    auto loss = model->forward(torch::ones({2, 4}) * (rank + 1)).pow(2).mean();
    loss.backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
    }
    optimizer.step();
  }
  std::cout << "rank " << rank << " done\n";
  return 0;
}
