// Clean trap: the loader is built once in the constructor, but the sampler
// it copies is a small wrapper holding a reference to the trainer's
// DistributedRandomSampler, so set_epoch on that sampler in the epoch loop
// reaches the sampler the loader really draws from.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>

using Distributed = torch::data::samplers::DistributedRandomSampler;

/// Forwards to a sampler owned elsewhere: copies share it.
class SharedSampler : public torch::data::samplers::Sampler<> {
public:
  explicit SharedSampler(Distributed &inner) : inner_(inner) {}
  void reset(torch::optional<size_t> size = torch::nullopt) override { inner_.reset(size); }
  torch::optional<std::vector<size_t>> next(size_t n) override {
    return inner_.next(n);
  }
  void save(torch::serialize::OutputArchive &a) const override { inner_.save(a); }
  void load(torch::serialize::InputArchive &a) override { inner_.load(a); }

private:
  Distributed &inner_;
};

using Dataset = torch::data::datasets::TensorDataset;
using Loader = torch::data::StatelessDataLoader<Dataset, SharedSampler>;

class Trainer {
public:
  Trainer(Distributed &sampler)
      : sampler_(sampler),
        loader_(torch::data::make_data_loader(
            Dataset(torch::arange(64)), SharedSampler(sampler_),
            torch::data::DataLoaderOptions(4))) {}

  void run(size_t epochs) {
    for (size_t epoch = 0; epoch < epochs; ++epoch) {
      sampler_.set_epoch(epoch);
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
  Distributed &sampler_;
  std::unique_ptr<Loader> loader_;
};

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  Distributed sampler(64, w ? std::atoi(w) : 1, r ? std::atoi(r) : 0);
  Trainer trainer(sampler);
  trainer.run(3);
}
