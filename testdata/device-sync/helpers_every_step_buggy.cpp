// Syncs hidden in small helpers the step loop calls every step: a metrics
// struct whose update() reads the loss to the host, a timer whose stop()
// waits for the device, a logging function that prints the loss tensor, the
// caching allocator emptied every step. A check that stops the job on a
// device value (TORCH_CHECK of a NaN test) decides the step: not reported.
// The findings are at the calls in the step loop; the notes point at the
// syncs inside the helpers.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/util/Exception.h>
#include <cuda_runtime.h>
#include <torch/torch.h>

#include <chrono>
#include <iostream>

struct Metrics {
  double total = 0;
  int64_t count = 0;
  void update(const torch::Tensor &loss) {
    total += loss.item<double>(); // expect-note: the sync inside the helper
    ++count;
  }
};

class CudaTimer {
public:
  void start() { begin_ = std::chrono::steady_clock::now(); }
  double stop() {
    cudaDeviceSynchronize(); // expect-note: the sync inside the helper
    auto end = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(end - begin_).count();
  }

private:
  std::chrono::steady_clock::time_point begin_;
};

template <typename T> void log_value(const char *name, const T &value) {
  std::cout << name << " " << value << "\n"; // expect-note: the sync inside the helper
}

void train(torch::nn::Linear &model, torch::optim::SGD &opt, int64_t steps) {
  model->to(torch::kCUDA);
  Metrics metrics;
  CudaTimer timer;
  auto stream = c10::cuda::getCurrentCUDAStream();
  for (int64_t step = 0; step < steps; ++step) { // expect-note: training loop
    timer.start();
    auto loss = model->forward(torch::randn({8, 4}, torch::kCUDA)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    metrics.update(loss); // expect: distlint-stray-device-sync
    double seconds = timer.stop(); // expect: distlint-stray-device-sync
    log_value("loss", loss); // expect: distlint-stray-device-sync
    (void)seconds;
    TORCH_CHECK(!loss.isnan().any().item<bool>(), "loss diverged"); // decides: stops the job
    C10_CUDA_CHECK(cudaStreamSynchronize(stream)); // expect: distlint-stray-device-sync
    c10::cuda::CUDACachingAllocator::emptyCache(); // expect: distlint-stray-device-sync
  }
}
