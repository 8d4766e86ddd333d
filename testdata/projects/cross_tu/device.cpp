// The helpers' bodies: the trainers that call them are in gpu_train.cpp.
#include "device.h"

#include <cuda_runtime.h>

namespace xtu {

void waitForDevice() {
  cudaDeviceSynchronize(); // expect-note: the sync inside the helper
}

float readBack(const float *device) {
  float host = 0;
  cudaMemcpy(&host, device, sizeof(float), cudaMemcpyDeviceToHost);
  return host;
}

} // namespace xtu
