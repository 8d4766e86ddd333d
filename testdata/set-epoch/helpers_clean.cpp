// Correct code spread over helpers: the sampler lives in main, the epoch
// loop calls set_epoch through a pointer and builds the loader inside the
// loop, and train_epoch() iterates the loader it receives.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

using Sampler = torch::data::samplers::DistributedRandomSampler;

template <typename Loader> void train_epoch(size_t epoch, Loader &loader) {
  std::cout << "epoch " << epoch << " order:";
  int shown = 0;
  for (auto &batch : loader)
    for (auto &example : batch)
      if (shown++ < 8)
        std::cout << " " << example.data.template item<int64_t>();
  std::cout << std::endl;
}

int main() {
  const size_t rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
  const size_t world =
      std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(64));
  Sampler sampler(64, world, rank);
  Sampler *handle = &sampler;
  for (size_t epoch = 0; epoch < 3; ++epoch) {
    handle->set_epoch(epoch + 100);
    auto loader = torch::data::make_data_loader(
        dataset, sampler, torch::data::DataLoaderOptions().batch_size(4));
    train_epoch(epoch, *loader);
  }
}
