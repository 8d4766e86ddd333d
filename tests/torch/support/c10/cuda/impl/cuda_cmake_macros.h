// Stand-in for the header that LibTorch's CMake generates from
// c10/cuda/impl/cuda_cmake_macros.h.in when it builds the CUDA library.
// Debian's CPU-only libtorch-dev ships the c10/cuda headers but not this
// generated one. It only records that libc10_cuda is a shared library, which
// is how every LibTorch release is built; nothing else depends on it.
#pragma once

#define C10_CUDA_BUILD_SHARED_LIBS
