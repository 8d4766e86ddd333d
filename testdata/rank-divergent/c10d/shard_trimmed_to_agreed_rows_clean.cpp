// Every rank holds a shard of its own length (48 + 16 * rank rows). The
// ranks agree on the smallest batch count with an all-reduce (MIN) and trim
// their shard to it with narrow(0, 0, keep): the trimmed shard has keep rows
// on every rank, so the training helper, which loops over x.size(0), runs
// the same number of gradient all-reduces everywhere.
// run: gloo clean
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
    pg.allreduce_coalesced(grads)->wait();
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
  auto steps = torch::tensor({x.size(0) / batch}, torch::kInt64);
  std::vector<at::Tensor> sv{steps};
  c10d::AllreduceOptions smallest;
  smallest.reduceOp = c10d::ReduceOp::MIN;
  pg->allreduce(sv, smallest)->wait();
  const int64_t keep = steps.item<int64_t>() * batch;

  torch::nn::Linear model(6, 1);
  train(*pg, model, x.narrow(0, 0, keep), batch);
  std::cout << "rank " << rank << " trained on " << keep << " rows\n";
  return 0;
}
