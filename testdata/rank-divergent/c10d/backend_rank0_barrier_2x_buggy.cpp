// LibTorch 2.x style: the collectives live on c10d::Backend, and the
// user-facing c10d::ProcessGroup dispatches to the backend registered for the
// tensors' device. The trainer keeps the Gloo backend as a
// c10::intrusive_ptr<c10d::Backend> for gradient averaging and gets the
// ProcessGroup wrapper handed in for bookkeeping. Rank 0's checkpoint path
// waits on a barrier through the wrapper, and its "wait for the writer" step
// on the backend: neither is reached by the other ranks.
// run: none -- written against the LibTorch 2.x Backend API; Debian 12 ships only LibTorch 1.13 (its 2.6 headers are parsed in tests/torch, its libraries need a newer glibc)
// libtorch: 2.x
// distlint-args: -DDISTLINT_TORCH_2X
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>

using BackendPtr = c10::intrusive_ptr<c10d::Backend>;
using ProcessGroupPtr = c10::intrusive_ptr<c10d::ProcessGroup>;

static BackendPtr make_gloo_backend(const c10::intrusive_ptr<c10d::Store> &store,
                                    int rank, int world_size) {
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(30 * 1000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size,
                                                     options);
}

static void average_gradients(const BackendPtr &backend,
                              torch::nn::Module &model) {
  for (auto &param : model.parameters()) {
    std::vector<at::Tensor> grads{param.grad()};
    backend->allreduce(grads)->wait();
    param.grad().div_(backend->getSize());
  }
}

static void save_checkpoint(const torch::nn::Linear &model, int epoch) {
  std::ostringstream bytes;
  torch::save(model, bytes);
  std::cout << "epoch " << epoch << " checkpoint " << bytes.str().size() << "\n";
}

void train(const ProcessGroupPtr &pg, const BackendPtr &backend) {
  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (int step = 0; step < 4; ++step) {
      auto inputs = torch::randn({16, 8});
      optimizer.zero_grad();
      torch::mse_loss(model->forward(inputs), inputs.sum(1, true)).backward();
      average_gradients(backend, *model);
      optimizer.step();
    }
    if (pg->getRank() == 0) {
      save_checkpoint(model, epoch);
      pg->barrier()->wait(); // expect: distlint-rank-divergent-collective
    }
    if (backend->getRank() == 0)
      backend->barrier()->wait(); // expect: distlint-rank-divergent-collective
  }
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/distlint-store", world_size);
  BackendPtr backend = make_gloo_backend(store, rank, world_size);
  ProcessGroupPtr pg = c10::make_intrusive<c10d::ProcessGroup>(
      store, rank, world_size);
  pg->setBackend(c10::DeviceType::CPU, c10d::ProcessGroup::BackendType::GLOO,
                 backend);
  train(pg, backend);
  return 0;
}
