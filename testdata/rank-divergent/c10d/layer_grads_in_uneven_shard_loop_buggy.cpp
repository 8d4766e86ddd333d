// Each rank trains on its own strided slice of a dataset of 44 rows per rank
// plus one, in fixed windows of 15 rows. The slices are not the same length
// (rank 0 gets 45 rows, the others 44), so rank 0 runs a third window and
// waits alone in the gradient all-reduce of its last one. The gradients go
// into lists built fresh in each window from the layer's own weight and bias:
// their shapes are the layer's, the same on every rank that makes the call
// (a declaration's value does not depend on the loop around it), so only the
// loop is reported.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>

static c10::intrusive_ptr<c10d::ProcessGroupGloo>
init_process_group(int rank, int world_size) {
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size,
                                                     options);
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  const int64_t window = 15;
  torch::manual_seed(3);
  auto x_all = torch::randn({44 * world_size + 1, 6});
  auto y_all = (x_all.sum(1) > 0).to(torch::kLong);

  // Rank r takes rows r, r + world_size, ...: rank 0 gets the extra row.
  auto idx = torch::arange(rank, x_all.size(0), world_size);
  auto x = x_all.index_select(0, idx);
  auto y = y_all.index_select(0, idx);

  torch::manual_seed(4);
  torch::nn::Linear clf(6, 2);
  torch::optim::SGD opt(clf->parameters(), torch::optim::SGDOptions(0.5));
  const int64_t rows = x.size(0);
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (int64_t s = 0; s + window <= rows; s += window) {
      opt.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(
          clf->forward(x.narrow(0, s, window)), y.narrow(0, s, window));
      loss.backward();
      std::vector<at::Tensor> gw{clf->weight.grad()}, gb{clf->bias.grad()};
      pg->allreduce(gw)->wait(); // expect: distlint-rank-divergent-collective
      pg->allreduce(gb)->wait();
      clf->weight.grad().div_(world_size);
      clf->bias.grad().div_(world_size);
      opt.step();
    }
  }
  std::cout << "rank " << rank << " trained on " << rows << " rows\n";
  return 0;
}
