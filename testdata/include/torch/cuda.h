// distlint test declarations: torch/cuda.h (LibTorch 1.13).
#pragma once
#include <c10/macros/Macros.h>
#include <cstddef>
#include <cstdint>

namespace torch {
namespace cuda {

size_t TORCH_API device_count();
bool TORCH_API is_available();
bool TORCH_API cudnn_is_available();
void TORCH_API manual_seed(uint64_t seed);
void TORCH_API manual_seed_all(uint64_t seed);
/// Waits for all kernels on all streams of a CUDA device.
void TORCH_API synchronize(int64_t device_index = -1);

} // namespace cuda
} // namespace torch
