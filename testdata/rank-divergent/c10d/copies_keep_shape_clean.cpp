// Rank 0 sends copies and conversions of its own tensors; the others
// receive into tensors made like them: `clone()` and `empty_like(w)` have
// w's shape whatever its random values, and a comparison converted with
// `.to(kFloat)` keeps its operand's shape. Every broadcast pairs tensors of
// one shape.
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

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  at::Tensor weights = torch::randn({32, 8});
  at::Tensor buf = rank == 0 ? weights.clone() : torch::empty_like(weights);
  std::vector<at::Tensor> b{buf};
  pg->broadcast(b)->wait();
  weights.copy_(buf);

  at::Tensor mask = torch::zeros({64});
  if (rank == 0)
    mask = (torch::rand({64}) > 0.1).to(torch::kFloat);
  std::vector<at::Tensor> m{mask};
  pg->broadcast(m)->wait();
  // The mask's values are random: print what every run agrees on.
  std::cout << "rank " << rank << " mask of " << mask.numel() << "\n";
  return 0;
}
