// Clean: each step copies the weights into a std::vector on the host
// (through data()) and syncs the stream because the host reads the copy
// right away (`host[0]`, then a loop over the elements).
// run: none -- no sync here is stray
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
    cudaStreamSynchronize(s);
    float sum = host[0];
    for (size_t i = 1; i < n; ++i)
      sum += host[i];
    std::printf("step %d sum %f\n", step, sum);
  }
}
