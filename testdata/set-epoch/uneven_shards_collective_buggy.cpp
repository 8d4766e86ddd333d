// Each rank builds its sampler from the size of its own local data file, so
// the sizes differ (24 + 8 * rank examples). DistributedRandomSampler gives
// each rank size / world_size samples (allow_duplicates = false): 12 and 16
// with two ranks, 3 and 4 batches. The loop over the loader all-reduces in
// every batch, so the rank with the extra batch waits for a partner that
// has already left the loop.
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
      store_file ? store_file : "/tmp/distlint-set-epoch-store", world_size);
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

  const int64_t local_examples = 24 + 8 * rank;
  auto dataset =
      torch::data::datasets::TensorDataset(torch::arange(local_examples));
  torch::data::samplers::DistributedRandomSampler sampler( // expect: distlint-missing-set-epoch
      local_examples, world_size, rank, /*allow_duplicates=*/false);
  auto loader = torch::data::make_data_loader(
      dataset, sampler, torch::data::DataLoaderOptions(4));
  int batches = 0;
  for (auto &batch : *loader) {
    std::vector<at::Tensor> count{torch::ones({1})};
    pg->allreduce(count)->wait(); // expect: distlint-rank-divergent-collective expect-note: collective issued in every batch
    ++batches;
    (void)batch;
  }
  std::cout << "rank " << rank << " ran " << batches << " batches\n";
}
