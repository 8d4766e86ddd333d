// The loader is rebuilt every epoch inside a lambda stored in a
// std::function, which the epoch loop calls; the sampler it copies never
// gets set_epoch, so its epoch stays 0 and every epoch has the same order.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <functional>
#include <iostream>

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  torch::data::samplers::DistributedRandomSampler sampler(
      64, w ? std::atoi(w) : 1, r ? std::atoi(r) : 0);
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(64));
  std::function<void(size_t)> one_epoch = [&](size_t epoch) {
    auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
        dataset, sampler, torch::data::DataLoaderOptions(4));
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  };
  for (size_t epoch = 0; epoch < 3; ++epoch) // expect-note: epoch loop
    one_epoch(epoch);
}
