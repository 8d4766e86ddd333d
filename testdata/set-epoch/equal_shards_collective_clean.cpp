// allow_duplicates = false with the same dataset size on every rank: each
// rank gets size / world_size samples, the same number of batches, and the
// per-batch all-reduce pairs up. set_epoch is called every epoch before the
// loader is rebuilt.
// run: gloo clean
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

  const int64_t examples = 30; // Not divisible by 4: the tail is dropped.
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(examples));
  torch::data::samplers::DistributedRandomSampler sampler(
      examples, world_size, rank, /*allow_duplicates=*/false);
  for (size_t epoch = 0; epoch < 3; ++epoch) {
    sampler.set_epoch(epoch);
    auto loader = torch::data::make_data_loader(
        dataset, sampler, torch::data::DataLoaderOptions(4));
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader) {
      std::vector<at::Tensor> count{torch::ones({1})};
      pg->allreduce(count)->wait();
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    }
    std::cout << std::endl;
  }
}
