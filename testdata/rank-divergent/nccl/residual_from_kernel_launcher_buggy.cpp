// A Jacobi-style solver: each sweep's residual lands in a device buffer the
// function allocated itself, written by a kernel launcher defined with the
// kernels (another file). The residual read back is this rank's own: each
// rank leaves the loop on its own convergence test while the others still
// wait in the halo all-reduce.
// run: none -- the kernel launcher is defined in the kernels' own file; the same hang (a rank-local device value read back ends the loop) runs under the NCCL stand-in in async_copied_loss_skip_buggy.cpp
#include <cuda_runtime.h>
#include <nccl.h>

void sweep(float *u, float *d_residual, cudaStream_t stream);

void solve(ncclComm_t comm, cudaStream_t stream, float *u, int n) {
  float *d_residual = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&d_residual), sizeof(float));
  for (int it = 0; it < 1000; ++it) { // expect-note: loop condition depends on rank-local data
    sweep(u, d_residual, stream);
    ncclAllReduce(u, u, n, ncclFloat, ncclSum, comm, stream); // expect: distlint-rank-divergent-collective
    float residual = 0.0f;
    cudaMemcpy(&residual, d_residual, sizeof(float), cudaMemcpyDeviceToHost);
    if (residual < 1e-6f)
      break;
  }
  cudaFree(d_residual);
}
