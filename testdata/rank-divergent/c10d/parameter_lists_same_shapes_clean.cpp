// Rank 0 starts from "pretrained" random weights and the others from zeros;
// each arm assigns the parameter list its own values, but the lists hold
// tensors of the same shapes in the same order: the loops over them run as
// often on every rank, and each parameter's broadcast and its gradient's
// all-reduce pass equal shapes.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>

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

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  GroupPtr pg = init_process_group(rank, world_size);

  std::vector<at::Tensor> params;
  if (rank == 0)
    params = {torch::randn({16, 8}), torch::randn({8})};
  else
    params = {torch::zeros({16, 8}), torch::zeros({8})};
  c10d::BroadcastOptions from_zero;
  from_zero.rootRank = 0;
  for (const at::Tensor &p : params) {
    std::vector<at::Tensor> one{p};
    pg->broadcast(one, from_zero)->wait();
  }

  float total = 0;
  for (const at::Tensor &p : params) {
    std::vector<at::Tensor> grad{torch::ones_like(p) * 0.01};
    pg->allreduce(grad)->wait();
    total += grad[0].sum().item<float>();
  }
  std::cout << "rank " << rank << " grad sum " << total << "\n";
  return 0;
}
