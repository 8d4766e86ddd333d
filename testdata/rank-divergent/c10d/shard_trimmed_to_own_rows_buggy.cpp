// Every rank holds a shard of its own length (48 + 16 * rank rows). Each
// rank trims it to whole batches with narrow(0, 0, keep), but keep is its
// own count: the training helper loops over x.size(0), so the rank with
// the longest shard all-reduces its gradients more often than the others
// and waits for partners that have finished.
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

static void train(c10d::ProcessGroup &pg, torch::nn::Linear &model,
                  const torch::Tensor &x, int64_t batch) {
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/1e-2);
  const int64_t n = x.size(0);
  for (int64_t i = 0; i + batch <= n; i += batch) {
    optimizer.zero_grad();
    auto xb = x.narrow(0, i, batch);
    model->forward(xb).sum().backward();
    std::vector<at::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    pg.allreduce_coalesced(grads)->wait(); // expect: distlint-rank-divergent-collective
    optimizer.step();
  }
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(100 + rank);
  const int64_t batch = 8;
  auto x = torch::randn({48 + 16 * rank, 6});
  const int64_t keep = x.size(0) / batch * batch;

  torch::nn::Linear model(6, 1);
  train(*pg, model, x.narrow(0, 0, keep), batch);
  std::cout << "rank " << rank << " trained on " << keep << " rows\n";
  return 0;
}
