// Forced include (-include) for analyzing CUDA 13 sources with clang 19 in
// host-only mode (-x cuda --cuda-host-only -nocudalib). clang 19's CUDA wrapper
// headers predate CUDA 13: a few host/device helpers nvcc provides are
// missing. Declarations only; nothing here changes what the analyzed code
// does on the host. Used by bench/realcode only.
#pragma once
#if defined(__CUDA__)
#include <cuda_runtime.h>
// clang defines __CUDACC__ empty; nvcc gives it a value, and CUDA 13 / NCCL
// headers test it with #if.
#undef __CUDACC__
#define __CUDACC__ 1
#define DISTLINT_SHIM_MINMAX(T)                                                \
  static __host__ inline T max(T a, T b) { return a > b ? a : b; } \
  static __host__ inline T min(T a, T b) { return a < b ? a : b; }
DISTLINT_SHIM_MINMAX(int)
DISTLINT_SHIM_MINMAX(unsigned)
DISTLINT_SHIM_MINMAX(long)
DISTLINT_SHIM_MINMAX(unsigned long)
DISTLINT_SHIM_MINMAX(long long)
DISTLINT_SHIM_MINMAX(unsigned long long)
#undef DISTLINT_SHIM_MINMAX
// Cache-hint loads and stores for the types clang 19 does not overload.
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldlu(const T *);
template <class T> __device__ T __ldcv(const T *);
template <class T> __device__ void __stcs(T *, T);
template <class T> __device__ void __stcg(T *, T);
template <class T> __device__ void __stwb(T *, T);
template <class T> __device__ void __stwt(T *, T);
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, cudaMemoryAdvise a, int device) {
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeDevice;
  loc.id = device;
  return cudaMemAdvise(p, n, a, loc);
}
#endif
