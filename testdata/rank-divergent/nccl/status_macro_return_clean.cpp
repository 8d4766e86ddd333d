// Benchmark-style error handling: every NCCL and CUDA call goes through a
// macro that prints the error and returns it, and callers propagate the
// status. Those returns are error paths (the job is broken on any rank that
// takes one), not rank-divergent early exits.
// run: nccl clean
#include "nccl_job.h"

#define NCCL_RETURN(cmd)                                                       \
  do {                                                                         \
    ncclResult_t res_ = (cmd);                                                 \
    if (res_ != ncclSuccess) {                                                 \
      fprintf(stderr, "NCCL failure %s:%d '%s'\n", __FILE__, __LINE__,         \
              ncclGetErrorString(res_));                                       \
      return res_;                                                             \
    }                                                                          \
  } while (0)

// The input comes from a file on each node: its status is rank-local.
static ncclResult_t load_inputs(float *host, size_t count) {
  FILE *in = fopen("/dev/zero", "rb");
  if (!in)
    return ncclSystemError;
  size_t got = fread(host, sizeof(float), count, in);
  fclose(in);
  return got == count ? ncclSuccess : ncclSystemError;
}

static ncclResult_t step(struct NcclJob *job, float *grads, size_t count,
                         int iteration) {
  float host[128];
  NCCL_RETURN(load_inputs(host, count < 128 ? count : 128));
  NCCL_RETURN(ncclAllReduce(grads, grads, count, ncclFloat, ncclSum, job->comm,
                            job->stream));
  if (job->rank == 0 && iteration % 2 == 0)
    printf("iteration %d reduced\n", iteration);
  NCCL_RETURN(ncclBroadcast(grads, grads, count, ncclFloat, 0, job->comm,
                            job->stream));
  return ncclSuccess;
}

int main(int argc, char **argv) {
  struct NcclJob job = startJob();
  float *grads = deviceFloats(128, (float)job.rank);
  const int iterations = argc > 1 ? atoi(argv[1]) : 4;
  for (int it = 0; it < iterations; ++it)
    if (step(&job, grads, 128, it) != ncclSuccess)
      return 1;
  if (cudaStreamSynchronize(job.stream) != cudaSuccess)
    return 1;
  CHECK_NCCL(ncclAllReduce(grads, grads, 1, ncclFloat, ncclMax, job.comm,
                           job.stream));
  finishJob(&job);
  printf("rank %d: %g\n", job.rank, firstValue(grads));
  return 0;
}
