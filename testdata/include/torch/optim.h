// distlint test declarations: torch::optim. Optimizer::step() is a training
// step.
#pragma once
#include <functional>
#include <memory>
#include <torch/arg.h>
#include <torch/types.h>
#include <tuple>
#include <vector>

namespace torch {
namespace optim {

class TORCH_API OptimizerOptions {
public:
  virtual ~OptimizerOptions() = default;
  virtual double get_lr() const;
  virtual void set_lr(const double lr);
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {};

class TORCH_API Optimizer {
public:
  using LossClosure = std::function<Tensor()>;

  Optimizer(const Optimizer &optimizer) = delete;
  Optimizer(Optimizer &&optimizer) = default;
  explicit Optimizer(std::vector<Tensor> parameters,
                     std::unique_ptr<OptimizerOptions> defaults);
  virtual ~Optimizer() = default;

  virtual Tensor step(LossClosure closure = nullptr) = 0;
#if defined(DISTLINT_TORCH_2X)
  void zero_grad(bool set_to_none = true);
#else
  void zero_grad();
#endif
  const std::vector<Tensor> &parameters() const noexcept;
  size_t size() const noexcept;
};

struct TORCH_API SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr) : lr_(lr) {}
  TORCH_ARG(double, lr);
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(double, dampening) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, nesterov) = false;
};

class TORCH_API SGD : public Optimizer {
public:
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults);
  torch::Tensor step(LossClosure closure = nullptr) override;
};

struct TORCH_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3) : lr_(lr) {}
  TORCH_ARG(double, lr);
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, amsgrad) = false;
};

class TORCH_API Adam : public Optimizer {
public:
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {});
  torch::Tensor step(LossClosure closure = nullptr) override;
};

} // namespace optim
} // namespace torch
