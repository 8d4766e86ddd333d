// A new sampler and loader every epoch, but the sampler is a temporary:
// nobody can call set_epoch on it, its epoch is 0 each time.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

int main() {
  const size_t rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
  const size_t world =
      std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(32));
  for (int epoch = 0; epoch < 3; ++epoch) { // expect-note: epoch loop
    auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
        dataset,
        torch::data::samplers::DistributedRandomSampler(32, world, rank),
        torch::data::DataLoaderOptions(4));
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }
}
