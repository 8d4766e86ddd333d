// ncclCommSplit splits the job into even and odd ranks and keeps each half's
// communicator in a struct field. The even half all-reduces on it while the
// odd half broadcasts on its own: different collectives, but on different
// communicators whose members all take the same arm.
// run: nccl clean
#include "nccl_job.h"

struct Groups {
  ncclComm_t half;
};

int main() {
  struct NcclJob job = startJob();
  struct Groups groups;
  CHECK_NCCL(ncclCommSplit(job.comm, job.rank % 2, job.rank, &groups.half, NULL));
  float *grads = deviceFloats(64, 1.0f);
  if (job.rank % 2 == 0)
    CHECK_NCCL(ncclAllReduce(grads, grads, 64, ncclFloat, ncclSum, groups.half, job.stream));
  else
    CHECK_NCCL(ncclBroadcast(grads, grads, 32, ncclFloat, 0, groups.half, job.stream));
  CHECK_CUDA(cudaStreamSynchronize(job.stream));
  CHECK_NCCL(ncclCommDestroy(groups.half));
  finishJob(&job);
  return 0;
}
