// Each rank publishes its own epoch count under a key named by its rank and
// reads its own key back: the values differ (rank 1 asks for one more), so
// rank 1 waits in an all-reduce rank 0 never issues.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank,
                                                        world_size, options);

  const std::string key = "distlint-epochs-" + std::to_string(rank);
  store->set(key, std::vector<uint8_t>{uint8_t('2' + rank)});
  const std::vector<uint8_t> value = store->get(key);
  const int epochs = value[0] - '0';
  for (int e = 0; e < epochs; ++e) { // expect-note: loop condition depends on rank
    std::vector<at::Tensor> t{torch::ones({4})};
    pg->allreduce(t)->wait(); // expect: distlint-rank-divergent-collective
  }
  std::cout << "rank " << rank << " ran " << epochs << " epochs\n";
  return 0;
}
