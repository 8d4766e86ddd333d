// Each rank scores a slice of its own length (30 + 7 * rank rows). The
// gather helpers take their tensors by value; the ragged one all-gathers
// every rank's length, pads its scores into a buffer of the longest length
// made with the scores' own options (dtype, device: not their shape) and
// all-gathers the buffers: every rank passes a tensor of that one length.
// run: gloo clean
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <algorithm>
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

static std::vector<torch::Tensor> gather_same_shape(c10d::ProcessGroup &pg,
                                                   torch::Tensor t) {
  std::vector<std::vector<at::Tensor>> out(1);
  for (int r = 0; r < pg.getSize(); ++r)
    out[0].push_back(torch::empty_like(t));
  std::vector<at::Tensor> in{t};
  pg.allgather(out, in)->wait();
  return out[0];
}

static std::vector<torch::Tensor> gather_ragged(c10d::ProcessGroup &pg,
                                                torch::Tensor t) {
  auto lengths =
      gather_same_shape(pg, torch::full({1}, t.size(0), torch::kInt64));
  int64_t longest = 0;
  for (auto &l : lengths)
    longest = std::max(longest, l.item<int64_t>());
  auto padded = torch::zeros({longest}, t.options());
  padded.narrow(0, 0, t.size(0)).copy_(t);
  auto parts = gather_same_shape(pg, padded);
  for (size_t r = 0; r < parts.size(); ++r)
    parts[r] = parts[r].narrow(0, 0, lengths[r].item<int64_t>());
  return parts;
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(500 + rank);
  auto scores = torch::rand({30 + 7 * rank});
  auto everything = torch::cat(gather_ragged(*pg, scores));
  if (rank == 0)
    std::cout << "gathered " << everything.size(0) << " scores\n";
  return 0;
}
