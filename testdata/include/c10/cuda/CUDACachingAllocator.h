// distlint test declarations: c10/cuda/CUDACachingAllocator.h (LibTorch 1.13).
#pragma once
#include <c10/macros/Macros.h>
#include <cuda_runtime_api.h>

#include <cstddef>

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {
C10_CUDA_API void *raw_alloc(size_t nbytes);
C10_CUDA_API void raw_delete(void *ptr);
/// Frees the cached blocks: waits for the device (cudaFree).
C10_CUDA_API void emptyCache();
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10
