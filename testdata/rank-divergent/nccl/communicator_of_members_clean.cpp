// Rank 0 makes a second NCCL id and broadcasts it over the job's
// communicator; the first half of the ranks then create a communicator of
// their own with it (ncclCommInitRank with half the job's size, under
// `if (rank < half)`) and all-reduce on it under the same condition. A
// communicator created on some ranks only holds just those ranks, and each
// of them issues the all-reduce. Everybody then meets on the job's one.
// run: nccl clean
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  ncclUniqueId id;
  memset(&id, 0, sizeof id);
  if (job.rank == 0)
    CHECK_NCCL(ncclGetUniqueId(&id));
  char *idOnDevice;
  CHECK_CUDA(cudaMalloc((void **)&idOnDevice, sizeof id));
  CHECK_CUDA(cudaMemcpy(idOnDevice, &id, sizeof id, cudaMemcpyHostToDevice));
  CHECK_NCCL(ncclBroadcast(idOnDevice, idOnDevice, sizeof id, ncclChar, 0,
                           job.comm, job.stream));
  CHECK_CUDA(cudaStreamSynchronize(job.stream));
  CHECK_CUDA(cudaMemcpy(&id, idOnDevice, sizeof id, cudaMemcpyDeviceToHost));

  const int half = job.size / 2 > 0 ? job.size / 2 : 1;
  ncclComm_t writers = NULL;
  if (job.rank < half)
    CHECK_NCCL(ncclCommInitRank(&writers, half, id, job.rank));

  float *grads = deviceFloats(64, 1.0f);
  if (job.rank < half)
    CHECK_NCCL(ncclAllReduce(grads, grads, 64, ncclFloat, ncclSum, writers,
                             job.stream));
  CHECK_NCCL(ncclAllReduce(grads, grads, 64, ncclFloat, ncclSum, job.comm,
                           job.stream));
  CHECK_CUDA(cudaStreamSynchronize(job.stream));
  if (writers)
    CHECK_NCCL(ncclCommDestroy(writers));
  CHECK_CUDA(cudaFree(idOnDevice));
  finishJob(&job);
  return 0;
}
