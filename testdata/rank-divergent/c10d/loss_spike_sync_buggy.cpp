// Gradient clipping "only when the loss spikes": the global gradient norm is
// all-reduced inside a branch on the rank's own loss value. Each rank sees a
// different loss (different shards), so only some ranks enter the branch and
// issue the all-reduce; the others go on with their gradient all-reduce.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cmath>
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

// Rank r's shard has targets scaled by 10^r: the higher ranks' losses are
// orders of magnitude above rank 0's.
static std::pair<at::Tensor, at::Tensor> load_batch(int rank) {
  auto inputs = torch::randn({16, 8});
  auto targets = inputs.sum(1, /*keepdim=*/true) * std::pow(10.0, rank);
  return {inputs, targets};
}

static float global_grad_norm(c10d::ProcessGroupGloo &pg,
                              torch::nn::Module &model) {
  at::Tensor squares = torch::zeros({1});
  for (auto &param : model.parameters())
    squares += param.grad().pow(2).sum();
  std::vector<at::Tensor> total{squares};
  pg.allreduce(total)->wait();
  return std::sqrt(total[0].item<float>());
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(rank);
  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/1e-3);
  const float spike_threshold = 50.f;
  for (int step = 0; step < 5; ++step) {
    auto batch = load_batch(rank);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(batch.first), batch.second);
    loss.backward();
    if (loss.item<float>() > spike_threshold) {
      float norm = global_grad_norm(*pg, *model); // expect: distlint-rank-divergent-collective
      if (norm > 1.f)
        for (auto &param : model->parameters())
          param.grad().div_(norm);
    }
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
      param.grad().div_(world_size);
    }
    optimizer.step();
  }
  std::cout << "rank " << rank << " finished\n";
  return 0;
}
