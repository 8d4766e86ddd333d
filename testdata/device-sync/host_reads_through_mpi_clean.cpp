// Multi-GPU Jacobi style: every few iterations the residual norm is copied
// back, and after the halo exchange the stream is synchronized because the
// host hands the copied norm straight to MPI_Allreduce (MPI reads its send
// buffer on the host) to decide whether to stop. The sync is the data
// dependency, not a stray one.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <cmath>

void launch_jacobi(float *a, float *a_new, float *norm_d, bool norm,
                   cudaStream_t s);

void solve(ncclComm_t comm, float *a, float *a_new, float *norm_d, size_t nx,
           int iter_max, int nccheck, int top, int bottom) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  float *norm_h = nullptr;
  cudaMallocHost(reinterpret_cast<void **>(&norm_h), sizeof(float));
  float norm = 1.0f;
  bool calculate_norm = true;
  int iter = 0;
  while (norm > 1e-4f && iter < iter_max) {
    cudaMemsetAsync(norm_d, 0, sizeof(float), stream);
    calculate_norm = (iter % nccheck) == 0 || (iter % 100) == 0;
    launch_jacobi(a, a_new, norm_d, calculate_norm, stream);
    if (calculate_norm)
      cudaMemcpyAsync(norm_h, norm_d, sizeof(float), cudaMemcpyDeviceToHost,
                      stream);
    ncclGroupStart();
    ncclRecv(a_new, nx, ncclFloat, top, comm, stream);
    ncclSend(a_new + nx, nx, ncclFloat, bottom, comm, stream);
    ncclGroupEnd();
    if (calculate_norm) {
      cudaStreamSynchronize(stream);
      MPI_Allreduce(norm_h, &norm, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      norm = std::sqrt(norm);
    }
    float *swap = a;
    a = a_new;
    a_new = swap;
    ++iter;
  }
}
