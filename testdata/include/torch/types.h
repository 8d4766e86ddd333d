// distlint test declarations: the torch:: view of ATen (torch::Tensor,
// torch::Device, torch::kCUDA, torch::kFloat32...).
#pragma once
#include <ATen/ATen.h>
#include <c10/util/Optional.h>
#include <torch/csrc/autograd/generated/variable_factories.h>

namespace torch {
using namespace at; // NOLINT: torch:: exposes all of at::, as LibTorch does.
using c10::nullopt;
using c10::optional;
using Dtype = at::ScalarType;

constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;

namespace autograd {
void backward(const std::vector<at::Tensor> &tensors,
              const std::vector<at::Tensor> &grad_tensors = {},
              c10::optional<bool> retain_graph = c10::nullopt,
              bool create_graph = false,
              const std::vector<at::Tensor> &inputs = {});
} // namespace autograd

struct NoGradGuard {
  NoGradGuard();
  ~NoGradGuard();
};
} // namespace torch
