// distlint test declarations: torch/utils.h.
#pragma once
#include <torch/types.h>

namespace torch {
inline void manual_seed(uint64_t seed) { at::manual_seed(seed); }
} // namespace torch
