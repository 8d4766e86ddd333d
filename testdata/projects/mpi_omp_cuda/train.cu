// A CUDA training loop: one SGD kernel per step, then the loss is copied to
// the host and the whole device synchronized to print it -- every step
// waits for the GPU to drain its queue.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kParams = 1 << 20;

__global__ void sgdStep(float *weights, const float *grads, float lr, int n,
                        float *loss) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    weights[i] -= lr * grads[i];
    atomicAdd(loss, grads[i] * grads[i]);
  }
}

int main() {
  float *weights = nullptr, *grads = nullptr, *loss = nullptr;
  cudaMalloc(&weights, kParams * sizeof(float));
  cudaMalloc(&grads, kParams * sizeof(float));
  cudaMalloc(&loss, sizeof(float));
  for (int step = 0; step < 100; ++step) {
    cudaMemsetAsync(loss, 0, sizeof(float));
    sgdStep<<<(kParams + 255) / 256, 256>>>(weights, grads, 0.01f, kParams,
                                            loss);
    cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
    float host = 0.0f;
    cudaMemcpy(&host, loss, sizeof(float), cudaMemcpyDeviceToHost); // expect: distlint-stray-device-sync
    std::printf("step %d: loss %f\n", step, host);
  }
  cudaFree(loss);
  cudaFree(grads);
  cudaFree(weights);
  return 0;
}
