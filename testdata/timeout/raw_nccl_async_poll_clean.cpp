// Raw NCCL that can survive a hung peer: non-blocking initialization, then
// while waiting for the stream, ncclCommGetAsyncError is polled against a
// deadline and ncclCommAbort tears the communicator down when it passes
// (the process then stops: the job fails instead of hanging).
// run: none -- needs the runtime stage's NCCL stand-in
#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

static void wait_or_abort(ncclComm_t comm, cudaStream_t stream,
                          std::chrono::seconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  while (cudaStreamQuery(stream) == cudaErrorNotReady) {
    ncclResult_t async_error = ncclSuccess;
    ncclCommGetAsyncError(comm, &async_error);
    const bool failed =
        async_error != ncclSuccess && async_error != ncclInProgress;
    if (failed || std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "collective failed or timed out; aborting\n");
      ncclCommAbort(comm);
      std::abort();
    }
  }
}

int run(int rank, int nranks, ncclUniqueId id, float *buf, size_t count) {
  ncclComm_t comm;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  ncclCommInitRankConfig(&comm, nranks, id, rank, &config);
  for (int step = 0; step < 100; ++step) {
    ncclAllReduce(buf, buf, count, ncclFloat, ncclSum, comm, stream);
    wait_or_abort(comm, stream, std::chrono::seconds(60));
  }
  ncclCommDestroy(comm);
  return 0;
}
