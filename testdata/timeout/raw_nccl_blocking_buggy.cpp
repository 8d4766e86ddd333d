// Raw NCCL with blocking ncclCommInitRank and no ncclCommGetAsyncError or
// ncclCommAbort anywhere: if a peer dies, ncclAllReduce never completes and
// the host waits in cudaStreamSynchronize forever.
// run: none -- a hang of the stand-in NCCL needs the runtime stage, not a timeout
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

int run(int rank, int nranks, ncclUniqueId id, float *buf, size_t count) {
  ncclComm_t comm;
  cudaStream_t stream;
  cudaSetDevice(rank);
  cudaStreamCreate(&stream);
  ncclCommInitRank(&comm, nranks, id, rank); // expect: distlint-missing-timeout
  for (int step = 0; step < 100; ++step) {
    ncclAllReduce(buf, buf, count, ncclFloat, ncclSum, comm, stream);
    if (step % 10 == 0)
      cudaStreamSynchronize(stream); // expect-note: the host waits here
  }
  cudaStreamSynchronize(stream);
  ncclCommDestroy(comm);
  std::printf("rank %d done\n", rank);
  return 0;
}
