// A raw NCCL trainer in the style of production code: every runtime call is
// wrapped in a project check macro whose error branch prints and aborts the
// job. The stream sync after the all-reduce is stray: nothing on the host
// reads what it waited for before the next step queues device work.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(err_));                                  \
      MPI_Abort(MPI_COMM_WORLD, 1);                                            \
    }                                                                          \
  } while (0)

#define NCCL_OK(call)                                                          \
  do {                                                                         \
    ncclResult_t res_ = (call);                                                \
    if (res_ != ncclSuccess) {                                                 \
      std::fprintf(stderr, "NCCL: %s\n", ncclGetErrorString(res_));            \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

#define CHECK(cond)                                                            \
  if (!(cond)) {                                                               \
    std::fprintf(stderr, "check failed: %s\n", #cond);                         \
    MPI_Abort(MPI_COMM_WORLD, 2);                                              \
  }

void sgd_update(float *params, const float *grads, size_t n, cudaStream_t s);
void compute_grads(const float *params, float *grads, size_t n,
                   cudaStream_t s);

void train(ncclComm_t comm, float *params, float *grads, size_t n, int steps) {
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  CHECK(n > 0);
  for (int step = 0; step < steps; ++step) { // expect-note: training loop
    compute_grads(params, grads, n, stream);
    NCCL_OK(ncclAllReduce(grads, grads, n, ncclFloat, ncclAvg, comm, stream));
    CUDA_OK(cudaStreamSynchronize(stream)); // expect: distlint-stray-device-sync
    sgd_update(params, grads, n, stream);
    CHECK(step >= 0);
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaStreamDestroy(stream));
}
