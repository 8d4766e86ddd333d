// Raw NCCL + CUDA runtime, one rank (one GPU). Two modes:
//   nccl_single check N   N all-reduces from trainStep(), one stream sync per
//                         step and one device-to-host copy at the end; prints
//                         the call lines so the script can compare them with
//                         the trace.
//   nccl_single bench N   N one-element all-reduces; prints the CPU time per
//                         call (the script runs it with and without the
//                         recorder).
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#define CHECK_NCCL(call)                                                       \
  do {                                                                         \
    ncclResult_t r_ = (call);                                                  \
    if (r_ != ncclSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   ncclGetErrorString(r_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t r_ = (call);                                                   \
    if (r_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(r_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static double cpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static const int kAllReduceLine = __LINE__ + 3;
__attribute__((noinline)) static void trainStep(float *grads, size_t n, ncclComm_t comm,
                                                cudaStream_t stream) {
  CHECK_NCCL(ncclAllReduce(grads, grads, n, ncclFloat, ncclSum, comm, stream));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "check";
  const long n = argc > 2 ? std::atol(argv[2]) : 100;
  CHECK_CUDA(cudaSetDevice(0));
  ncclUniqueId id;
  CHECK_NCCL(ncclGetUniqueId(&id));
  ncclComm_t comm;
  CHECK_NCCL(ncclCommInitRank(&comm, 1, id, 0));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  float *grads;
  CHECK_CUDA(cudaMalloc((void **)&grads, 1024 * sizeof(float)));
  CHECK_CUDA(cudaMemset(grads, 0, 1024 * sizeof(float)));

  if (std::strcmp(mode, "bench") == 0) {
    for (int i = 0; i < 100; ++i) // Warm-up: NCCL set-up, recorder learns the stack.
      trainStep(grads, 1, comm, stream);
    CHECK_CUDA(cudaStreamSynchronize(stream));
    double t0 = cpuNs();
    for (long i = 0; i < n; ++i) {
      trainStep(grads, 1, comm, stream);
      if (i % 256 == 255) // Keep the queue short; same for both runs.
        CHECK_CUDA(cudaStreamSynchronize(stream));
    }
    double t1 = cpuNs();
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::printf("ns_per_call %.1f\n", (t1 - t0) / double(n));
  } else {
    static const int kSyncLine = __LINE__ + 3;
    for (long i = 0; i < n; ++i) {
      trainStep(grads, 1024, comm, stream);
      CHECK_CUDA(cudaStreamSynchronize(stream));
    }
    float first = -1;
    static const int kCopyLine = __LINE__ + 1;
    CHECK_CUDA(cudaMemcpy(&first, grads, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("allreduce_line %d\nsync_line %d\ncopy_line %d\nsteps %ld\nvalue %g\n",
                kAllReduceLine, kSyncLine, kCopyLine, n, first);
  }
  CHECK_NCCL(ncclCommDestroy(comm));
  return 0;
}
