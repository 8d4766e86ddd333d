// Stand-in for c10/cuda/impl/cuda_cmake_macros.h, which a CPU-only LibTorch
// package does not install (bench/realcode only).
#pragma once
#define C10_CUDA_BUILD_SHARED_LIBS
