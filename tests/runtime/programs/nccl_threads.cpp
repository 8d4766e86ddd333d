// Two communicators over the same ranks, each driven by its own thread:
// the recorder must keep their sequences apart and stay thread-safe.
// Must finish with the same output with and without the recorder.
// run: nccl clean
#include "nccl_job.h"

#include <thread>

int main() {
  struct NcclJob job = startJob();
  char first[512], second[600];
  idFilePath(first, sizeof(first));
  snprintf(second, sizeof(second), "%s.second", first);
  setenv("NCCL_ID_FILE", second, 1);
  ncclUniqueId id;
  if (job.rank == 0) {
    CHECK_NCCL(ncclGetUniqueId(&id));
    publishId(&id);
  } else {
    fetchId(&id);
  }
  ncclComm_t other;
  CHECK_NCCL(ncclCommInitRank(&other, job.size, id, job.rank));
  cudaStream_t otherStream;
  CHECK_CUDA(cudaStreamCreate(&otherStream));

  float *a = deviceFloats(64, 1.0f);
  float *b = deviceFloats(16, float(job.rank));
  float *gathered = deviceFloats(16 * (size_t)job.size, 0.0f);
  std::thread reducer([&] {
    for (int i = 0; i < 40; ++i)
      CHECK_NCCL(ncclAllReduce(a, a, 64, ncclFloat, ncclMax, job.comm, job.stream));
  });
  std::thread gatherer([&] {
    for (int i = 0; i < 40; ++i)
      CHECK_NCCL(ncclAllGather(b, gathered, 16, ncclFloat, other, otherStream));
  });
  reducer.join();
  gatherer.join();
  CHECK_CUDA(cudaStreamSynchronize(otherStream));
  CHECK_NCCL(ncclCommDestroy(other));
  finishJob(&job);
  if (job.rank == 0)
    unlink(second);
  printf("rank %d: a[0] = %g, gathered[16] = %g\n", job.rank, firstValue(a),
         firstValue(gathered + 16));
  return 0;
}
