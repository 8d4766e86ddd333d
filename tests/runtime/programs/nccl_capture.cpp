// An all-reduce captured into a CUDA graph and launched three times. The
// recorder must not watch a captured operation (it runs at graph launch).
// Must finish with the same output with and without the recorder.
// run: nccl clean
#include "nccl_job.h"

int main() {
  struct NcclJob job = startJob();
  float *buffer = deviceFloats(16, float(job.rank + 1));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaStreamBeginCapture(job.stream, cudaStreamCaptureModeGlobal));
  CHECK_NCCL(ncclAllReduce(buffer, buffer, 16, ncclFloat, ncclSum, job.comm, job.stream));
  CHECK_CUDA(cudaStreamEndCapture(job.stream, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 3; ++i)
    CHECK_CUDA(cudaGraphLaunch(exec, job.stream));
  finishJob(&job);
  printf("rank %d: buffer[0] = %g\n", job.rank, firstValue(buffer));
  return 0;
}
