// distlint test declarations: c10/cuda/CUDAException.h (LibTorch 1.13):
// C10_CUDA_CHECK wraps a CUDA runtime call in do { ... } while (0).
#pragma once
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace c10 {
namespace cuda {
C10_CUDA_API void c10_cuda_check_implementation(const std::string &filename,
                                                const std::string &function_name,
                                                const int line_number,
                                                const bool include_device_assertions);
} // namespace cuda
} // namespace c10

#define C10_CUDA_CHECK(EXPR)                                                   \
  do {                                                                         \
    const cudaError_t __err = EXPR;                                            \
    if (__err != cudaSuccess) {                                                \
      c10::cuda::c10_cuda_check_implementation(                                \
          __FILE__, __func__, static_cast<uint32_t>(__LINE__), true);          \
    }                                                                          \
  } while (0)
