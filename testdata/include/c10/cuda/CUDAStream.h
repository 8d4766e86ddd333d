// distlint test declarations: c10::cuda::CUDAStream (at::cuda::CUDAStream).
#pragma once
#include <c10/core/Device.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace c10 {
namespace cuda {

class C10_CUDA_API CUDAStream {
public:
  bool operator==(const CUDAStream &other) const noexcept;
  bool operator!=(const CUDAStream &other) const noexcept;
  operator cudaStream_t() const { return stream(); }
  DeviceType device_type() const { return DeviceType::CUDA; }
  DeviceIndex device_index() const;
  Device device() const;
  int64_t id() const;
  bool query() const;
  /// Blocks the host until all work queued on this stream is done.
  void synchronize() const;
  int priority() const;
  cudaStream_t stream() const;

private:
  CUDAStream() = default;
  friend CUDAStream getStreamFromPool(const bool, DeviceIndex);
  friend CUDAStream getDefaultCUDAStream(DeviceIndex);
  friend CUDAStream getCurrentCUDAStream(DeviceIndex);
};

C10_CUDA_API CUDAStream getStreamFromPool(const bool isHighPriority = false,
                                          DeviceIndex device = -1);
C10_CUDA_API CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
C10_CUDA_API CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
C10_CUDA_API void setCurrentCUDAStream(CUDAStream stream);

} // namespace cuda
} // namespace c10
