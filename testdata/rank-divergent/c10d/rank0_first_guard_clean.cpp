// "Rank 0 goes first" as a scoped guard over a c10d process group: the
// constructor makes the other ranks wait in a barrier, the destructor lets
// rank 0 release them once it has written the cache. Each rank issues one
// barrier over the guard's lifetime, then every rank all-reduces.
// run: gloo clean
// libtorch: 1.13, 2.x
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

class RankZeroFirst {
public:
  explicit RankZeroFirst(c10d::ProcessGroupGloo &pg) : pg_(pg) {
    if (pg_.getRank() != 0)
      pg_.barrier()->wait(); // the others wait for rank 0's cache
  }
  ~RankZeroFirst() {
    if (pg_.getRank() == 0)
      pg_.barrier()->wait(); // rank 0 releases them
  }

private:
  c10d::ProcessGroupGloo &pg_;
};

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);
  {
    RankZeroFirst first(*pg);
    if (rank == 0)
      std::cout << "rank 0 writes the cache" << std::endl;
  }
  std::vector<at::Tensor> ones{torch::ones({4})};
  pg->allreduce(ones)->wait();
  std::cout << "rank " << rank << ": " << ones[0].sum().item<float>()
            << std::endl;
  return 0;
}
