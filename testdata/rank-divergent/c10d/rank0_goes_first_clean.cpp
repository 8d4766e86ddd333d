// "Rank 0 goes first" on a process group: the other ranks wait at a
// barrier until rank 0 has written the shared vocabulary file, then rank 0
// joins them with its own barrier. Two barriers under two rank branches,
// one per rank: they match. (The rank comes from torchrun's RANK.)
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

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

static void write_vocabulary(int rank) {
  std::ostringstream out;
  for (int i = 0; i < 16; ++i)
    out << "token" << i << "\n";
  std::cout << "rank " << rank << " wrote " << out.str().size() << " bytes\n";
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  GroupPtr pg = init_process_group(rank, world_size);

  if (rank != 0)
    pg->barrier()->wait(); // wait until rank 0 has the file
  if (rank == 0)
    write_vocabulary(rank);
  if (rank == 0)
    pg->barrier()->wait(); // release the others

  std::vector<at::Tensor> counts{torch::ones({4})};
  pg->allreduce(counts)->wait();
  std::cout << "rank " << rank << " sum " << counts[0].sum().item<float>()
            << "\n";
  return 0;
}
