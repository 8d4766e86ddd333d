// The sampler itself is created inside the epoch loop, then set_epoch with
// the epoch counter, then the loader: effective. A second loop uses a
// do-while and an epoch counter that is incremented in the body.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

int main() {
  const size_t rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
  const size_t world =
      std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(32));
  for (int epoch = 0; epoch < 3; ++epoch) {
    torch::data::samplers::DistributedRandomSampler sampler(32, world, rank);
    sampler.set_epoch(static_cast<size_t>(epoch));
    auto loader = torch::data::make_data_loader(
        dataset, sampler, torch::data::DataLoaderOptions(4));
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }
  torch::data::samplers::DistributedRandomSampler again(32, world, rank);
  size_t pass = 0;
  do {
    again.set_epoch(pass);
    auto loader = torch::data::make_data_loader(
        dataset, again, torch::data::DataLoaderOptions(8));
    for (auto &batch : *loader)
      (void)batch;
  } while (++pass < 2);
}
