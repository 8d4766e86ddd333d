// distlint test declarations: ATen/cuda/CUDAContext.h.
#pragma once
#include <ATen/ATen.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>

namespace at {
namespace cuda {
inline int64_t getNumGPUs() { return c10::cuda::device_count(); }
inline bool is_available() { return c10::cuda::device_count() > 0; }
} // namespace cuda
} // namespace at
