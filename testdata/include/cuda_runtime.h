// distlint test declarations: <cuda_runtime.h> adds C++ conveniences to the
// C runtime API, like the real header's typed cudaMalloc overload.
#ifndef DISTLINT_TESTDATA_CUDA_RUNTIME_H
#define DISTLINT_TESTDATA_CUDA_RUNTIME_H

#include "cuda_runtime_api.h"

#ifdef __cplusplus
template <class T>
static inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
static inline cudaError_t cudaMallocHost(T **ptr, size_t size) {
  return ::cudaMallocHost((void **)(void *)ptr, size);
}
#endif

#endif // DISTLINT_TESTDATA_CUDA_RUNTIME_H
