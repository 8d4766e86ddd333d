// Raw NCCL communicators from factory helpers, every call in a check macro:
// ncclCommInitRankConfig with config.blocking = 1 and ncclCommInitAll for
// the single-process path. Nothing in the file can detect or abort a hung
// communicator (no ncclCommGetAsyncError, no ncclCommAbort).
// run: none -- a hang of the stand-in NCCL needs the runtime stage, not a timeout
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>

#define NCCL_OK(call)                                                          \
  do {                                                                         \
    ncclResult_t r_ = (call);                                                  \
    if (r_ != ncclSuccess) {                                                   \
      std::fprintf(stderr, "NCCL error %s\n", ncclGetErrorString(r_));         \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

class CommFactory {
public:
  static ncclComm_t create(ncclUniqueId id, int rank, int nranks) {
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 1;
    ncclComm_t comm;
    NCCL_OK(ncclCommInitRankConfig(&comm, nranks, id, rank, &config)); // expect: distlint-missing-timeout
    return comm;
  }
  static void create_local(ncclComm_t *comms, int ndev) {
    NCCL_OK(ncclCommInitAll(comms, ndev, nullptr)); // expect: distlint-missing-timeout
  }
};

int run(ncclUniqueId id, int rank, int nranks, float *buf, size_t n) {
  ncclComm_t comm = CommFactory::create(id, rank, nranks); // expect-note: communicator made by this call
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  NCCL_OK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, stream));
  cudaStreamSynchronize(stream); // expect-note: the host waits here
  ncclComm_t local[2];
  CommFactory::create_local(local, 2); // expect-note: communicator made by this call
  return 0;
}
