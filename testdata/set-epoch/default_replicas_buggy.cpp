// Two ways to end up with one replica and rank 0 on every rank:
// make_data_loader<DistributedRandomSampler>(dataset, options) builds the
// sampler as DistributedRandomSampler(dataset.size()), and a sampler built
// with hard-coded replicas/rank. Every rank trains on the same samples.
// run: none -- every rank silently trains on the same data; nothing hangs or fails
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <iostream>

using namespace torch::data;

int main() {
  auto dataset = datasets::TensorDataset(torch::arange(32));
  auto whole = make_data_loader<samplers::DistributedRandomSampler>( // expect: distlint-missing-set-epoch
      dataset, DataLoaderOptions(4));
  samplers::DistributedSequentialSampler fixed(32, 4, /*rank=*/0); // expect: distlint-missing-set-epoch
  samplers::DistributedRandomSampler single(32); // expect: distlint-missing-set-epoch
  (void)fixed;
  (void)single;
  for (auto &batch : *whole)
    std::cout << batch.size() << "\n";
}
