// Early stopping done right: each rank looks at its own loss (rank-local
// data), but the decision is all-reduced (MAX) before anyone acts on it, so
// `if (stop.item<int>())` is the same on every rank and all ranks leave the
// loop at the same step. The copies of the reduced flag stay uniform too.
// run: gloo clean
// libtorch: 1.13, 2.x
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

// Each rank trains on its own shard; the last rank's shard has targets that
// grow every step, so its loss crosses the limit first.
static at::Tensor shard_targets(const at::Tensor &inputs, int rank,
                                int world_size, int step) {
  double scale = rank == world_size - 1 ? std::pow(4.0, step) : 1.0;
  return inputs.sum(1, /*keepdim=*/true) * scale;
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(rank);
  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);
  const float loss_limit = 1000.f;
  c10d::AllreduceOptions any_rank;
  any_rank.reduceOp = c10d::ReduceOp::MAX;
  int step = 0;
  for (; step < 20; ++step) {
    auto inputs = torch::randn({16, 8});
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs),
                                shard_targets(inputs, rank, world_size, step));
    const float local_loss = loss.item<float>();
    const bool diverged = !std::isfinite(local_loss) || local_loss > loss_limit;

    at::Tensor stop = torch::full({1}, diverged ? 1 : 0, torch::kInt);
    std::vector<at::Tensor> flag{stop};
    pg->allreduce(flag, any_rank)->wait();
    if (stop.item<int>())
      break;

    loss.backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
      param.grad().div_(world_size);
    }
    optimizer.step();
  }

  // The reduced flag copied into a plain int stays uniform as well.
  std::vector<at::Tensor> last{torch::full({1}, step, torch::kInt)};
  pg->allreduce(last, any_rank)->wait();
  const int stopped_at = last[0].item<int>();
  if (stopped_at < 20)
    pg->barrier()->wait();
  std::cout << "rank " << rank << " stopped at step " << stopped_at << "\n";
  return 0;
}
