// Included first in every CUDA translation unit distlint parses (host side,
// -x cuda --cuda-host-only): what nvcc accepts in host code but Clang 19's
// CUDA headers do not declare for the host. Declarations only; nothing here
// changes what the analyzed code does.
#pragma once
#if defined(__CUDA__) && defined(__cplusplus)
#include <cuda_runtime.h>
// nvcc declares the integer min/max of crt/math_functions.hpp for host and
// device; under Clang they are device-only, so host code calling max(a, b)
// would not compile.
#define DISTLINT_HOST_MINMAX(T)                                                \
  static __host__ inline T max(T a, T b) { return a > b ? a : b; }             \
  static __host__ inline T min(T a, T b) { return a < b ? a : b; }
DISTLINT_HOST_MINMAX(int)
DISTLINT_HOST_MINMAX(unsigned)
DISTLINT_HOST_MINMAX(long)
DISTLINT_HOST_MINMAX(unsigned long)
DISTLINT_HOST_MINMAX(long long)
DISTLINT_HOST_MINMAX(unsigned long long)
#undef DISTLINT_HOST_MINMAX
// nvcc defines __CUDACC__ with a value; Clang defines it empty, and CUDA 13
// and NCCL headers test it with #if.
#undef __CUDACC__
#define __CUDACC__ 1
// Cache-hint loads and stores nvcc has for every type; Clang 19 overloads
// them for a few builtin types only.
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldlu(const T *);
template <class T> __device__ T __ldcv(const T *);
template <class T> __device__ void __stcs(T *, T);
template <class T> __device__ void __stcg(T *, T);
template <class T> __device__ void __stwb(T *, T);
template <class T> __device__ void __stwt(T *, T);
// CUDA 13 replaced cudaMemAdvise's device number with a location; code
// written for CUDA 12 still passes the number.
static inline cudaError_t cudaMemAdvise(const void *p, size_t n,
                                        cudaMemoryAdvise a, int device) {
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeDevice;
  loc.id = device;
  return cudaMemAdvise(p, n, a, loc);
}
#endif
