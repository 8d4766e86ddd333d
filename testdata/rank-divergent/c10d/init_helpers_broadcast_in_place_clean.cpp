// Rank 0 fills the weights and broadcasts them, the others receive into
// theirs, through two helpers taking `torch::Tensor &`: both write into the
// caller's tensor in place (copy_, a broadcast into it) and never rebind
// it, so after the branch the weights have the shape `main` gave them on
// every rank, and the all-reduce of the weights matches.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

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

using Group = c10::intrusive_ptr<c10d::ProcessGroupGloo>;

static void publish_init(const Group &pg, torch::Tensor &w) {
  w.copy_(torch::randn(w.sizes()) * 0.3);
  std::vector<at::Tensor> t{w};
  pg->broadcast(t)->wait();
}

static void receive_init(const Group &pg, torch::Tensor &w) {
  std::vector<at::Tensor> t{w};
  pg->broadcast(t)->wait();
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::Tensor w = torch::zeros({6, 3});
  if (rank == 0)
    publish_init(pg, w);
  else
    receive_init(pg, w);
  std::vector<at::Tensor> v{w};
  pg->allreduce(v)->wait();
  std::cout << "rank " << rank << " sum " << v[0].sum().item<float>() << "\n";
  return 0;
}
