// LibTorch ProcessGroupNCCL with one rank: NCCL is called by LibTorch on the
// caller's thread, so the recorder must find this file's line through
// LibTorch's frames. Prints the lines the script checks.
#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static const int kAllReduceLine = __LINE__ + 4;
__attribute__((noinline)) static void averageGradients(c10d::ProcessGroupNCCL &pg,
                                                       at::Tensor &grads) {
  std::vector<at::Tensor> tensors{grads};
  pg.allreduce(tensors)->wait();
}

int main(int argc, char **argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 20;
  const std::string storePath = argc > 2 ? argv[2] : "/tmp/distlint-rt-gpu-store";
  auto store = c10::make_intrusive<c10d::FileStore>(storePath, 1);
  auto options = c10d::ProcessGroupNCCL::Options::create();
  options->timeout = std::chrono::milliseconds(60000);
  c10d::ProcessGroupNCCL pg(store, 0, 1, options);
  auto grads = torch::ones({1024}, torch::TensorOptions().device(torch::kCUDA));
  static const int kSyncLine = __LINE__ + 3;
  for (int step = 0; step < steps; ++step) {
    averageGradients(pg, grads);
    c10::cuda::device_synchronize();
  }
  std::printf("allreduce_line %d\nsync_line %d\nsteps %d\nvalue %g\n", kAllReduceLine,
              kSyncLine, steps, grads.sum().item<float>());
  return 0;
}
