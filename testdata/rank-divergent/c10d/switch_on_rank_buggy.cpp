// A `switch` on the rank gives the roles different collective sequences:
// the "writer" (rank 0) announces the shard layout with a broadcast and then
// waits on a barrier; every other rank only takes part in the broadcast.
// The broadcast matches on every rank; the writer's barrier does not.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
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

  at::Tensor layout = torch::zeros({world_size}, torch::kLong);
  std::vector<at::Tensor> layout_buffer{layout};
  c10d::BroadcastOptions from_writer;
  from_writer.rootRank = 0;
  switch (rank) {
  case 0:
    layout.copy_(torch::arange(world_size, torch::kLong) * 1000);
    pg->broadcast(layout_buffer, from_writer)->wait();
    pg->barrier()->wait(); // expect: distlint-rank-divergent-collective
    break;
  default:
    pg->broadcast(layout_buffer, from_writer)->wait();
    break;
  }
  std::cout << "rank " << rank << " shard offset " << layout[rank].item<int64_t>()
            << "\n";
  return 0;
}
