// A communicator split from the world (all ranks one color), and a group
// that issues collectives on both communicators at once.
// Must finish with the same output with and without the recorder.
// run: nccl clean
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  ncclComm_t sub;
  CHECK_NCCL(ncclCommSplit(job.comm, 0, job.rank, &sub, NULL));
  float *a = deviceFloats(8, float(job.rank + 1));
  float *b = deviceFloats(8, float(10 * (job.rank + 1)));
  for (int i = 0; i < 3; ++i) {
    CHECK_NCCL(ncclGroupStart());
    CHECK_NCCL(ncclAllReduce(a, a, 8, ncclFloat, ncclSum, job.comm, job.stream));
    CHECK_NCCL(ncclAllReduce(b, b, 8, ncclFloat, ncclMax, sub, job.stream));
    CHECK_NCCL(ncclGroupEnd());
  }
  finishJob(&job);
  printf("rank %d: a[0] = %g, b[0] = %g\n", job.rank, firstValue(a), firstValue(b));
  return 0;
}
