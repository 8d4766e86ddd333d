// Clean: the same check-macro style, but each sync is one the host needs
// right away: the stream sync is followed by reading the loss an async copy
// brought back, and cudaDeviceSynchronize() comes before reading mapped host
// memory that a kernel wrote. A benchmark loop that times an all-reduce is
// not a training step either.
// run: none -- no sync here is stray
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <chrono>
#include <cstdio>

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA: %s\n", cudaGetErrorString(err_));            \
      MPI_Abort(MPI_COMM_WORLD, 1);                                            \
    }                                                                          \
  } while (0)

void loss_kernel(const float *params, float *loss, size_t n, cudaStream_t s);
extern const void *count_nans_kernel;

float train(ncclComm_t comm, float *params, float *d_loss, size_t n) {
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  float *h_loss = nullptr;
  CUDA_OK(cudaMallocHost(&h_loss, sizeof(float)));
  for (int step = 0; step < 1000; ++step) {
    loss_kernel(params, d_loss, n, stream);
    ncclAllReduce(params, params, n, ncclFloat, ncclAvg, comm, stream);
    // Every rank stops on the same (averaged) loss.
    ncclAllReduce(d_loss, d_loss, 1, ncclFloat, ncclAvg, comm, stream);
    CUDA_OK(cudaMemcpyAsync(h_loss, d_loss, sizeof(float),
                            cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    if (*h_loss < 1e-4f)
      break;
  }
  return *h_loss;
}

int check_params(float *params, size_t n, int steps) {
  int *flags = nullptr, *d_flags = nullptr;
  CUDA_OK(cudaHostAlloc(reinterpret_cast<void **>(&flags), sizeof(int),
                        cudaHostAllocMapped));
  CUDA_OK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&d_flags), flags,
                                   0));
  int bad = 0;
  for (int step = 0; step < steps; ++step) {
    void *args[] = {&params, &n, &d_flags};
    CUDA_OK(cudaLaunchKernel(count_nans_kernel, dim3(64), dim3(256), args, 0,
                             nullptr));
    CUDA_OK(cudaDeviceSynchronize());
    bad += *flags;
  }
  return bad;
}

void bench_allreduce(ncclComm_t comm, float *buf, size_t n, int rank) {
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  for (int iter = 0; iter < 20; ++iter) {
    auto t0 = std::chrono::steady_clock::now();
    ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, stream);
    CUDA_OK(cudaStreamSynchronize(stream));
    auto t1 = std::chrono::steady_clock::now();
    if (rank == 0)
      std::printf("allreduce %zu floats: %lld us\n", n,
                  static_cast<long long>(
                      std::chrono::duration_cast<std::chrono::microseconds>(
                          t1 - t0)
                          .count()));
  }
}
