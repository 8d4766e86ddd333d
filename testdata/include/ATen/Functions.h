// distlint test declarations: at:: free functions (factories, math, losses).
#pragma once
#include <ATen/core/Tensor.h>

namespace at {

// Factories.
TORCH_API Tensor empty(IntArrayRef size, TensorOptions options = {});
TORCH_API Tensor zeros(IntArrayRef size, TensorOptions options = {});
TORCH_API Tensor ones(IntArrayRef size, TensorOptions options = {});
TORCH_API Tensor full(IntArrayRef size, const Scalar &fill_value,
                      TensorOptions options = {});
TORCH_API Tensor arange(const Scalar &end, TensorOptions options = {});
TORCH_API Tensor arange(const Scalar &start, const Scalar &end,
                        const Scalar &step = 1, TensorOptions options = {});
TORCH_API Tensor zeros_like(const Tensor &self, TensorOptions options = {});
TORCH_API Tensor ones_like(const Tensor &self, TensorOptions options = {});
TORCH_API Tensor empty_like(const Tensor &self, TensorOptions options = {});
TORCH_API Tensor full_like(const Tensor &self, const Scalar &fill_value,
                           TensorOptions options = {});

// Random factories: every rank draws its own values.
TORCH_API Tensor rand(IntArrayRef size, TensorOptions options = {});
TORCH_API Tensor randn(IntArrayRef size, TensorOptions options = {});
TORCH_API Tensor randint(int64_t high, IntArrayRef size,
                         TensorOptions options = {});
TORCH_API Tensor randint(int64_t low, int64_t high, IntArrayRef size,
                         TensorOptions options = {});
TORCH_API Tensor randperm(int64_t n, TensorOptions options = {});
TORCH_API Tensor rand_like(const Tensor &self, TensorOptions options = {});
TORCH_API Tensor randn_like(const Tensor &self, TensorOptions options = {});
TORCH_API Tensor randint_like(const Tensor &self, int64_t high,
                              TensorOptions options = {});
TORCH_API Tensor normal(double mean, double std, IntArrayRef size);
TORCH_API Tensor bernoulli(const Tensor &self);

// Math and reductions.
TORCH_API Tensor stack(TensorList tensors, int64_t dim = 0);
TORCH_API Tensor cat(TensorList tensors, int64_t dim = 0);
TORCH_API Tensor slice(const Tensor &self, int64_t dim = 0,
                       c10::optional<int64_t> start = c10::nullopt,
                       c10::optional<int64_t> end = c10::nullopt,
                       int64_t step = 1);
TORCH_API Tensor bincount(const Tensor &self,
                          const c10::optional<Tensor> &weights = {},
                          int64_t minlength = 0);
TORCH_API Tensor isnan(const Tensor &self);
TORCH_API Tensor isinf(const Tensor &self);
TORCH_API Tensor isfinite(const Tensor &self);
TORCH_API Tensor relu(const Tensor &self);
TORCH_API Tensor sigmoid(const Tensor &self);
TORCH_API Tensor log_softmax(const Tensor &self, int64_t dim,
                             c10::optional<ScalarType> dtype = c10::nullopt);
TORCH_API Tensor softmax(const Tensor &self, int64_t dim,
                         c10::optional<ScalarType> dtype = c10::nullopt);
TORCH_API Tensor matmul(const Tensor &self, const Tensor &other);
TORCH_API Tensor sum(const Tensor &self,
                     c10::optional<ScalarType> dtype = c10::nullopt);
TORCH_API Tensor mean(const Tensor &self,
                      c10::optional<ScalarType> dtype = c10::nullopt);
TORCH_API Tensor norm(const Tensor &self, const Scalar &p = 2);
TORCH_API Tensor nonzero(const Tensor &self);
TORCH_API Tensor masked_select(const Tensor &self, const Tensor &mask);
TORCH_API bool equal(const Tensor &self, const Tensor &other);
TORCH_API bool allclose(const Tensor &self, const Tensor &other,
                        double rtol = 1e-05, double atol = 1e-08,
                        bool equal_nan = false);

// Losses (reduction: 0 none, 1 mean, 2 sum).
TORCH_API Tensor mse_loss(const Tensor &self, const Tensor &target,
                          int64_t reduction = 1);
TORCH_API Tensor nll_loss(const Tensor &self, const Tensor &target,
                          const c10::optional<Tensor> &weight = {},
                          int64_t reduction = 1, int64_t ignore_index = -100);
TORCH_API Tensor cross_entropy_loss(const Tensor &self, const Tensor &target,
                                    const c10::optional<Tensor> &weight = {},
                                    int64_t reduction = 1,
                                    int64_t ignore_index = -100,
                                    double label_smoothing = 0.0);

TORCH_API void manual_seed(uint64_t seed);

} // namespace at
