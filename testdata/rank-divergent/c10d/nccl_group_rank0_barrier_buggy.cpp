// NCCL-flavoured c10d code (1.13): one GPU per rank, a ProcessGroupNCCL with
// its timeout assigned through the options, and rank 0 waiting alone on a
// barrier after writing the final weights. Parses against Debian's headers
// with the generated c10/cuda/impl/cuda_cmake_macros.h that tests/torch
// provides and the CUDA 13 + NCCL headers of this machine image.
// run: none -- needs GPUs and LibTorch built with CUDA; the same defect is run under Gloo in checkpoint_barrier_rank0_buggy.cpp
// libtorch: 1.13
#include <torch/torch.h>
#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  const int local_rank = std::atoi(std::getenv("LOCAL_RANK"));
  c10::cuda::set_device(static_cast<c10::DeviceIndex>(local_rank));

  c10d::TCPStoreOptions store_options;
  store_options.port = static_cast<uint16_t>(std::atoi(std::getenv("MASTER_PORT")));
  store_options.isServer = rank == 0;
  store_options.numWorkers = world_size;
  auto store = c10::make_intrusive<c10d::TCPStore>(std::getenv("MASTER_ADDR"),
                                                   store_options);
  auto options = c10d::ProcessGroupNCCL::Options::create();
  options->timeout = std::chrono::minutes(5);
  auto pg = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world_size,
                                                        options);

  const torch::Device device(torch::kCUDA, local_rank);
  torch::nn::Linear model(16, 4);
  model->to(device);
  std::vector<at::Tensor> weights{model->weight.data()};
  pg->allreduce(weights)->wait();

  if (rank == 0) {
    std::ostringstream bytes;
    torch::save(model, bytes);
    std::cout << "saved " << bytes.str().size() << " bytes\n";
    pg->barrier()->wait(); // expect: distlint-rank-divergent-collective
  }
  return 0;
}
