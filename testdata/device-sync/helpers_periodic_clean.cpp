// Clean trap: the same helpers, but called only every N steps (the call sits
// under `step % N == 0`), or syncing only every N calls themselves.
// run: none -- no sync here runs every step
#include <cuda_runtime.h>
#include <torch/torch.h>

#include <iostream>

struct Metrics {
  double total = 0;
  void update(const torch::Tensor &loss) { total += loss.item<double>(); }
};

class Throughput {
public:
  explicit Throughput(int every) : every_(every) {}
  void tick() {
    if (++calls_ % every_ != 0)
      return;
    cudaDeviceSynchronize();
    std::cout << "synced after " << calls_ << " steps\n";
  }

private:
  int every_;
  int calls_ = 0;
};

void print_loss(int64_t step, const torch::Tensor &loss) {
  std::cout << "step " << step << " loss " << loss << "\n";
}

void train(torch::nn::Linear &model, torch::optim::SGD &opt, int64_t steps,
           int64_t log_every) {
  model->to(torch::kCUDA);
  Metrics metrics;
  Throughput meter(100);
  for (int64_t step = 0; step < steps; ++step) {
    auto loss = model->forward(torch::randn({8, 4}, torch::kCUDA)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    meter.tick();
    if (step % log_every == 0) {
      metrics.update(loss);
      print_loss(step, loss);
    }
  }
}
