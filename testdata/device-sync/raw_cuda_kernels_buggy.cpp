// A raw-CUDA trainer with no LibTorch and no collective in its loop: kernel
// launches and a cuBLAS GEMM every iteration, then a device-wide sync every
// step (a loop that queues device work each iteration is a step loop). The
// update is a lambda stored in a std::function.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <functional>

extern const void *relu_kernel;

void train(cublasHandle_t blas, float *w, float *x, float *y, int n,
           int iters) {
  const float one = 1.0f, zero = 0.0f, lr = -0.01f;
  std::function<void()> update = [&] {
    cublasSaxpy(blas, n * n, &lr, y, 1, w, 1);
  };
  for (int it = 0; it < iters; ++it) { // expect-note: training loop
    cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, w, n, x, n,
                &zero, y, n);
    void *args[] = {&y, &n};
    cudaLaunchKernel(relu_kernel, dim3(n), dim3(n), args, 0, nullptr);
    update();
    cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
  }
}
