// distlint test declarations: c10::cuda device and stream guards.
#pragma once
#include <c10/cuda/CUDAStream.h>

namespace c10 {
namespace cuda {

struct CUDAGuard {
  explicit CUDAGuard() = delete;
  explicit CUDAGuard(DeviceIndex device_index);
  explicit CUDAGuard(Device device);
  ~CUDAGuard();
  void set_device(Device device);
  Device current_device() const;
};

struct CUDAStreamGuard {
  explicit CUDAStreamGuard(CUDAStream stream);
  ~CUDAStreamGuard();
};

} // namespace cuda
} // namespace c10
