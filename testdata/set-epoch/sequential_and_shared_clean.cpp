// Silent cases: a DistributedSequentialSampler (its order does not depend
// on the epoch), a user sampler type that shares a DistributedRandomSampler
// through a pointer (set_epoch on the shared one reaches the loader), and
// a single pass without any epoch loop.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>

using torch::data::samplers::DistributedRandomSampler;
using torch::data::samplers::DistributedSequentialSampler;

// Forwards to a sampler the caller keeps, so set_epoch on it takes effect.
class SharedSampler : public torch::data::samplers::Sampler<> {
public:
  explicit SharedSampler(std::shared_ptr<DistributedRandomSampler> inner)
      : inner_(std::move(inner)) {}
  void reset(torch::optional<size_t> new_size = torch::nullopt) override { inner_->reset(new_size); }
  torch::optional<std::vector<size_t>> next(size_t batch_size) override {
    return inner_->next(batch_size);
  }
  void save(torch::serialize::OutputArchive &archive) const override {
    inner_->save(archive);
  }
  void load(torch::serialize::InputArchive &archive) override {
    inner_->load(archive);
  }

private:
  std::shared_ptr<DistributedRandomSampler> inner_;
};

int main() {
  const size_t rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
  const size_t world =
      std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(32));

  DistributedSequentialSampler in_order(32, world, rank);
  auto eval_loader = torch::data::make_data_loader(
      dataset, in_order, torch::data::DataLoaderOptions(4));
  for (int epoch = 0; epoch < 2; ++epoch)
    for (auto &batch : *eval_loader)
      (void)batch;

  auto shared = std::make_shared<DistributedRandomSampler>(32, world, rank);
  auto loader = torch::data::make_data_loader(
      dataset, SharedSampler(shared), torch::data::DataLoaderOptions(4));
  for (size_t epoch = 0; epoch < 3; ++epoch) {
    shared->set_epoch(epoch);
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }

  DistributedRandomSampler once(32, world, rank);
  auto single_pass = torch::data::make_data_loader(
      dataset, once, torch::data::DataLoaderOptions(8));
  for (auto &batch : *single_pass)
    (void)batch;
}
