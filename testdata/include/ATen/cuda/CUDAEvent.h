// distlint test declarations: at::cuda::CUDAEvent.
#pragma once
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

namespace at {
namespace cuda {

struct TORCH_CUDA_CPP_API CUDAEvent {
  CUDAEvent() noexcept = default;
  CUDAEvent(unsigned int flags) noexcept : flags_(flags) {}
  ~CUDAEvent();
  CUDAEvent(const CUDAEvent &) = delete;
  CUDAEvent &operator=(const CUDAEvent &) = delete;
  CUDAEvent(CUDAEvent &&other) noexcept;
  CUDAEvent &operator=(CUDAEvent &&other) noexcept;

  operator cudaEvent_t() const { return event(); }
  bool isCreated() const;
  DeviceIndex device_index() const;
  cudaEvent_t event() const;
  bool query() const;
  void record();
  void recordOnce(const CUDAStream &stream);
  void record(const CUDAStream &stream);
  void block(const CUDAStream &stream);
  float elapsed_time(const CUDAEvent &other) const;
  /// Blocks the host until the recorded work is done.
  void synchronize() const;

private:
  unsigned int flags_ = cudaEventDisableTiming;
};

} // namespace cuda
} // namespace at
