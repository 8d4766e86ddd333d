// Metrics logging guarded by an is_master() helper. The logger averages the
// loss over all ranks first, so the all-reduce inside log_metrics is issued by
// rank 0 only and pairs with the other ranks' gradient all-reduce instead.
// The rank comes from the process group into a global, the helper reads it.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

int g_rank = -1;
int g_world_size = 1;

bool is_master() { return g_rank == 0; }

c10::intrusive_ptr<c10d::ProcessGroupGloo> init_process_group() {
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(
      store, std::atoi(std::getenv("RANK")), world_size, options);
}

float global_mean(c10d::ProcessGroupGloo &pg, const at::Tensor &value) {
  std::vector<at::Tensor> buffer{value.detach().clone()};
  pg.allreduce(buffer)->wait();
  return buffer[0].item<float>() / g_world_size;
}

void log_metrics(c10d::ProcessGroupGloo &pg, int step, const at::Tensor &loss) {
  std::cout << "step " << step << " mean loss " << global_mean(pg, loss)
            << "\n";
}

} // namespace

int main() {
  auto pg = init_process_group();
  g_rank = pg->getRank();
  g_world_size = pg->getSize();

  torch::manual_seed(1);
  torch::nn::Sequential model(torch::nn::Linear(4, 16), torch::nn::ReLU(),
                              torch::nn::Linear(16, 1));
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 6; ++step) {
    auto inputs = torch::randn({32, 4});
    auto targets = (inputs * 0.5).sum(1, /*keepdim=*/true);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs), targets);
    loss.backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
      param.grad().div_(g_world_size);
    }
    optimizer.step();
    if (is_master() && step % 2 == 0)
      log_metrics(*pg, step, loss); // expect: distlint-rank-divergent-collective
  }
  return 0;
}
