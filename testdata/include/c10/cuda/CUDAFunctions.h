// distlint test declarations: c10/cuda/CUDAFunctions.h (LibTorch 1.13).
#pragma once
#include <c10/core/Device.h>
#include <c10/macros/Macros.h>
#include <cuda_runtime_api.h>

namespace c10 {
namespace cuda {

C10_CUDA_API DeviceIndex device_count() noexcept;
C10_CUDA_API DeviceIndex current_device();
C10_CUDA_API void set_device(DeviceIndex device);
/// Waits for all work on the current device.
C10_CUDA_API void device_synchronize();
/// Waits for all work queued on one stream.
C10_CUDA_API void stream_synchronize(cudaStream_t stream);

} // namespace cuda
} // namespace c10
