// Rank 0 broadcasts a clone of its 32x8 weights, but the others receive
// into a tensor made like the transposed 8x4 slice they were given: the
// shapes differ, so the broadcast's sizes do not match and Gloo fails the
// job (or the ranks wait for bytes that never come).
// run: gloo buggy
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

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  at::Tensor weights = torch::randn({32, 8});
  at::Tensor slice = torch::zeros({8, 4});
  at::Tensor buf = rank == 0 ? weights.clone() : torch::empty_like(slice);
  std::vector<at::Tensor> b{buf};
  pg->broadcast(b)->wait(); // expect: distlint-rank-divergent-collective
  std::cout << "rank " << rank << " got " << buf.sum().item<float>() << "\n";
  return 0;
}
