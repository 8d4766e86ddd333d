// The loader is built once (in a range-based epoch loop style with a
// separate trainer function) and iterated by a helper every epoch; the
// sampler is reached through a reference alias but set_epoch is never
// called on it at all.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <vector>

template <typename Loader> void run_epoch(int epoch, Loader &loader) {
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
  torch::data::samplers::DistributedRandomSampler base(64, world, rank);
  auto &sampler = base;
  auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
      dataset, sampler, torch::data::DataLoaderOptions(4));
  const std::vector<int> epochs = {0, 1, 2};
  for (int epoch : epochs) // expect-note: epoch loop
    run_epoch(epoch, *loader);
}
