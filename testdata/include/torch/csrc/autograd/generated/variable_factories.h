// distlint test declarations: torch:: tensor factories (autograd-aware
// versions of the at:: ones). rand*/randn*/randint/randperm draw per-rank
// random values.
#pragma once
#include <ATen/ATen.h>
#include <initializer_list>
#include <vector>

namespace torch {
namespace detail {
// Holds the nested braced data of torch::tensor({...}); like LibTorch's, it
// owns its elements (not trivially copyable).
class TensorDataContainer {
public:
  TensorDataContainer(const TensorDataContainer &other);
  ~TensorDataContainer();
  TensorDataContainer(bool value);
  TensorDataContainer(int value);
  TensorDataContainer(long value);
  TensorDataContainer(long long value);
  TensorDataContainer(float value);
  TensorDataContainer(double value);
  TensorDataContainer(std::initializer_list<TensorDataContainer> init_list);
  template <typename T> TensorDataContainer(c10::ArrayRef<T> values);
  template <typename T> TensorDataContainer(const std::vector<T> &values);
};
} // namespace detail

at::Tensor tensor(detail::TensorDataContainer tensor_data_container,
                  const at::TensorOptions &options = {});

at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value,
                at::TensorOptions options = {});
at::Tensor arange(const at::Scalar &end, at::TensorOptions options = {});
at::Tensor arange(const at::Scalar &start, const at::Scalar &end,
                  const at::Scalar &step = 1,
                  at::TensorOptions options = {});
at::Tensor linspace(const at::Scalar &start, const at::Scalar &end,
                    int64_t steps, at::TensorOptions options = {});
at::Tensor zeros_like(const at::Tensor &self, at::TensorOptions options = {});
at::Tensor ones_like(const at::Tensor &self, at::TensorOptions options = {});
at::Tensor empty_like(const at::Tensor &self, at::TensorOptions options = {});
at::Tensor full_like(const at::Tensor &self, const at::Scalar &fill_value,
                     at::TensorOptions options = {});
at::Tensor from_blob(void *data, at::IntArrayRef sizes,
                     const at::TensorOptions &options = at::TensorOptions());

at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor randint(int64_t high, at::IntArrayRef size,
                   at::TensorOptions options = {});
at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size,
                   at::TensorOptions options = {});
at::Tensor randperm(int64_t n, at::TensorOptions options = {});
at::Tensor rand_like(const at::Tensor &self, at::TensorOptions options = {});
at::Tensor randn_like(const at::Tensor &self, at::TensorOptions options = {});
at::Tensor randint_like(const at::Tensor &self, int64_t high,
                        at::TensorOptions options = {});

} // namespace torch
