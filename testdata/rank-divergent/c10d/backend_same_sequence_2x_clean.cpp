// LibTorch 2.x style, clean: the backend is created through the 2.x factory
// ProcessGroupGloo::createProcessGroupGloo and used as a c10d::Backend.
// Rank 0 prepares the initial weights and both arms of the rank branch then
// issue the same broadcast; a flag computed from rank-local data is
// all-reduced before it decides anything; the checkpoint is written by rank 0
// alone and everybody meets at the barrier afterwards.
// run: none -- written against the LibTorch 2.x Backend API; Debian 12 ships only LibTorch 1.13 (its 2.6 headers are parsed in tests/torch, its libraries need a newer glibc)
// libtorch: 2.x
// distlint-args: -DDISTLINT_TORCH_2X
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>

using BackendPtr = c10::intrusive_ptr<c10d::Backend>;

static void broadcast_from_zero(const BackendPtr &backend, at::Tensor tensor) {
  std::vector<at::Tensor> tensors{tensor};
  c10d::BroadcastOptions options;
  options.rootRank = 0;
  backend->broadcast(tensors, options)->wait();
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/distlint-store", world_size);
  BackendPtr backend = c10d::ProcessGroupGloo::createProcessGroupGloo(
      store, rank, world_size, std::chrono::milliseconds(60 * 1000));

  torch::nn::Linear model(8, 1);
  torch::NoGradGuard no_grad;
  if (rank == 0) {
    model->weight.fill_(0.25);
    broadcast_from_zero(backend, model->weight.data());
  } else {
    broadcast_from_zero(backend, model->weight.data());
  }
  broadcast_from_zero(backend, model->bias.data());

  const float local_loss =
      torch::mse_loss(model->forward(torch::randn({4, 8})), torch::zeros({4, 1}))
          .item<float>();
  at::Tensor diverged = torch::full({1}, std::isfinite(local_loss) ? 0 : 1, torch::kInt);
  std::vector<at::Tensor> flag{diverged};
  c10d::AllreduceOptions any_rank;
  any_rank.reduceOp = c10d::ReduceOp::MAX;
  backend->allreduce(flag, any_rank)->wait();
  if (diverged.item<int>() == 0) {
    std::vector<at::Tensor> weights{model->weight.data()};
    backend->allreduce(weights)->wait();
  }

  if (rank == 0)
    std::cout << "checkpoint written\n";
  backend->barrier()->wait();
  return 0;
}
