// set_epoch called once, before the epoch loop, with a seed from the
// command line; the loader is then rebuilt each epoch but always from the
// same epoch value.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

int main(int argc, char **argv) {
  const size_t seed = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 7;
  const size_t rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
  const size_t world =
      std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(32));
  torch::data::samplers::DistributedRandomSampler sampler(32, world, rank);
  sampler.set_epoch(seed); // expect: distlint-missing-set-epoch
  for (size_t epoch = 0; epoch < 3; ++epoch) { // expect-note: epoch loop
    auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
        dataset, sampler, torch::data::DataLoaderOptions(4));
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }
}
