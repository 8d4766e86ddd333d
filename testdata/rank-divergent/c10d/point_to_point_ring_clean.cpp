// Point-to-point traffic under rank conditions is how send/recv are meant to
// be used: rank 0 starts a token around the ring, every other rank receives
// from its left neighbour and sends to its right. Rank-0-only logging with no
// collective inside is harmless too.
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

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);
  const int right = (rank + 1) % world_size;
  const int left = (rank + world_size - 1) % world_size;
  const int tag = 7;

  std::vector<at::Tensor> token{torch::zeros({1}, torch::kLong)};
  if (rank == 0) {
    token[0].fill_(1);
    pg->send(token, right, tag)->wait();
    pg->recv(token, left, tag)->wait();
    std::cout << "token came back as " << token[0].item<int64_t>() << "\n";
  } else {
    pg->recv(token, left, tag)->wait();
    token[0].add_(1);
    pg->send(token, right, tag)->wait();
  }
  pg->barrier()->wait();
  return 0;
}
