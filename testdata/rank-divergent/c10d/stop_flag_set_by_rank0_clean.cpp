// Rank 0 decides whether to stop and writes the decision into one element
// of a flag tensor that every rank allocated with the same shape; the flag
// is then broadcast from rank 0. Writing an element under `rank == 0`
// changes the tensor's contents on rank 0 only, never its shape, so every
// rank broadcasts a tensor of shape {1}; after the broadcast the decision is
// the same everywhere.
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

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);
  torch::manual_seed(rank);
  float best = 1e9f;
  for (int epoch = 0; epoch < 20; ++epoch) {
    auto loss = torch::rand({1}) + 1.0f / (epoch + 1);
    std::vector<at::Tensor> losses{loss};
    pg->allreduce(losses)->wait();
    auto stop = torch::zeros({1});
    if (rank == 0) {
      float mean = losses[0].item<float>() / world_size;
      if (mean > best || epoch == 5)
        stop[0] = 1;
      best = std::min(best, mean);
    }
    std::vector<at::Tensor> flag{stop};
    pg->broadcast(flag)->wait();
    if (stop.item<float>() > 0) {
      std::cout << "rank " << rank << " stops after epoch " << epoch << "\n";
      break;
    }
  }
  pg->barrier()->wait();
  return 0;
}
