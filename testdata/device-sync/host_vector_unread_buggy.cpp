// Buggy: each step copies the weights into a std::vector on the host and
// syncs the stream, but the host reads the copy only after the next step's
// device work was queued: the sync stalls the host every step for nothing.
// run: none -- a performance problem, nothing hangs
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <vector>

void step_kernel(float *w, size_t n, cudaStream_t s);

void train(ncclComm_t comm, float *w, size_t n, cudaStream_t s) {
  std::vector<float> host(n);
  for (int step = 0; step < 100; ++step) {
    step_kernel(w, n, s);
    ncclAllReduce(w, w, n, ncclFloat, ncclAvg, comm, s);
    cudaMemcpyAsync(host.data(), w, n * sizeof(float), cudaMemcpyDeviceToHost,
                    s);
    cudaStreamSynchronize(s); // expect: distlint-stray-device-sync
  }
  std::printf("last %f\n", host[0]);
}
