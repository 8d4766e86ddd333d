// Conditions that look rank-related but are the same on every rank: the world
// size, `rank < world_size` and `rank >= 0` (always true whatever the rank), a
// command-line flag, a non-rank environment variable (launchers give every
// rank the same environment), and constants. Every collective below is
// reached by all ranks.
// run: gloo clean
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
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

constexpr bool kSyncBatchStats = true;

int main(int argc, char **argv) {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);
  const bool skip_warmup = argc > 1 && std::strcmp(argv[1], "--no-warmup") == 0;
  const char *accumulate = std::getenv("GRAD_ACCUMULATE");
  const int accumulate_steps = accumulate ? std::atoi(accumulate) : 1;

  std::vector<at::Tensor> stats{torch::ones({4}) * rank};
  if (world_size > 1)
    pg->allreduce(stats)->wait();
  if (rank < world_size)
    pg->allreduce(stats)->wait();
  if (rank >= 0 && rank <= world_size - 1)
    pg->barrier()->wait();
  if (!skip_warmup)
    pg->allreduce(stats)->wait();
  for (int i = 0; i < accumulate_steps; ++i)
    pg->allreduce(stats)->wait();
  if (kSyncBatchStats)
    pg->allreduce(stats)->wait();

  if (rank == 0)
    std::cout << "stats " << stats[0][0].item<float>() << "\n";
  return 0;
}
