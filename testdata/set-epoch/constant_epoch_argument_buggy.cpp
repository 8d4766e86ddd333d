// set_epoch is called in the loop before the loader is built, but with a
// value that does not change between epochs (the run's base seed), so
// every epoch shuffles identically.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

struct Config {
  size_t epochs = 3;
  size_t base_seed = 1234;
  size_t batch = 4;
};

int main() {
  Config cfg;
  const size_t rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
  const size_t world =
      std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(40));
  auto sampler = torch::data::samplers::DistributedRandomSampler(
      dataset.size().value(), world, rank);
  size_t epoch = 0;
  while (epoch < cfg.epochs) { // expect-note: epoch loop
    sampler.set_epoch(cfg.base_seed); // expect: distlint-missing-set-epoch
    auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
        dataset, sampler, torch::data::DataLoaderOptions(cfg.batch));
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
    ++epoch;
  }
}
