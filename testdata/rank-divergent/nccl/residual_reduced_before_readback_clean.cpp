// The same solver done right: the residual each rank's sweep left on the
// device is max-reduced before it is read back, so every rank leaves the
// loop in the same iteration.
// run: none -- the kernel launcher is defined in the kernels' own file; the agreed read-back runs under the NCCL stand-in in async_copied_reduced_loss_clean.cpp
#include <cuda_runtime.h>
#include <nccl.h>

void sweep(float *u, float *d_residual, cudaStream_t stream);

void solve(ncclComm_t comm, cudaStream_t stream, float *u, int n) {
  float *d_residual = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&d_residual), sizeof(float));
  for (int it = 0; it < 1000; ++it) {
    sweep(u, d_residual, stream);
    ncclAllReduce(u, u, n, ncclFloat, ncclSum, comm, stream);
    ncclAllReduce(d_residual, d_residual, 1, ncclFloat, ncclMax, comm, stream);
    float residual = 0.0f;
    cudaMemcpy(&residual, d_residual, sizeof(float), cudaMemcpyDeviceToHost);
    if (residual < 1e-6f)
      break;
  }
  cudaFree(d_residual);
}
