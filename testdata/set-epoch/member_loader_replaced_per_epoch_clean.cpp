// Clean trap: the constructor's initializer list builds a loader member, but
// fit() gives the member a new loader at the top of every epoch, after
// set_epoch(epoch); the loader built in the constructor is never iterated.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>

class Trainer {
public:
  using Sampler = torch::data::samplers::DistributedRandomSampler;
  using Dataset = torch::data::datasets::TensorDataset;
  using Loader = torch::data::StatelessDataLoader<Dataset, Sampler>;

  Trainer(size_t world, size_t rank)
      : dataset_(torch::arange(64)), sampler_(64, world, rank),
        loader_(torch::data::make_data_loader(
            dataset_, sampler_, torch::data::DataLoaderOptions(4))) {}

  void fit(size_t epochs) {
    for (size_t epoch = 0; epoch < epochs; ++epoch) {
      sampler_.set_epoch(epoch);
      loader_ = torch::data::make_data_loader(
          dataset_, sampler_, torch::data::DataLoaderOptions(4));
      std::cout << "epoch " << epoch << " order:";
      int shown = 0;
      for (auto &batch : *loader_)
        for (auto &example : batch)
          if (shown++ < 8)
            std::cout << " " << example.data.item<int64_t>();
      std::cout << std::endl;
    }
  }

private:
  Dataset dataset_;
  Sampler sampler_;
  std::shared_ptr<Loader> loader_;
};

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  Trainer trainer(w ? std::atoi(w) : 1, r ? std::atoi(r) : 0);
  trainer.fit(3);
}
