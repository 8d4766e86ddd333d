// Clean trap: the loader is rebuilt inside train_epoch() every epoch, after
// set_epoch(epoch) on the member sampler; the epoch loop is in another
// method. The order changes every epoch.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

class Trainer {
public:
  Trainer(size_t world, size_t rank)
      : dataset_(torch::arange(64)), sampler_(64, world, rank) {}

  void fit(size_t epochs) {
    for (size_t epoch = 0; epoch < epochs; ++epoch)
      train_epoch(epoch);
  }

private:
  void train_epoch(size_t epoch) {
    sampler_.set_epoch(epoch);
    auto loader = torch::data::make_data_loader(
        dataset_, sampler_, torch::data::DataLoaderOptions().batch_size(4));
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }

  torch::data::datasets::TensorDataset dataset_;
  torch::data::samplers::DistributedRandomSampler sampler_;
};

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  Trainer trainer(w ? std::atoi(w) : 1, r ? std::atoi(r) : 0);
  trainer.fit(3);
}
