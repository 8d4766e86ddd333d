// Point-to-point under rank conditions is how send and receive are meant to
// be used: rank 0 sends a token to rank 1, then every rank passes a value to
// its right neighbour in a ring (grouped so the sends and receives progress
// together).
// run: nccl clean
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *token = deviceFloats(4, float(100 + job.rank));
  float *mine = deviceFloats(16, float(job.rank));
  float *fromLeft = deviceFloats(16, -1.0f);

  if (job.rank == 0)
    CHECK_NCCL(ncclSend(token, 4, ncclFloat, 1, job.comm, job.stream));
  else if (job.rank == 1)
    CHECK_NCCL(ncclRecv(token, 4, ncclFloat, 0, job.comm, job.stream));

  const int right = (job.rank + 1) % job.size;
  const int left = (job.rank + job.size - 1) % job.size;
  CHECK_NCCL(ncclGroupStart());
  CHECK_NCCL(ncclSend(mine, 16, ncclFloat, right, job.comm, job.stream));
  CHECK_NCCL(ncclRecv(fromLeft, 16, ncclFloat, left, job.comm, job.stream));
  CHECK_NCCL(ncclGroupEnd());

  finishJob(&job);
  printf("rank %d: token %g, from left %g\n", job.rank, firstValue(token),
         firstValue(fromLeft));
  return 0;
}
