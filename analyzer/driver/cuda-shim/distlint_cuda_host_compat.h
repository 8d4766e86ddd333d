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
#endif
