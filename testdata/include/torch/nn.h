// distlint test declarations: torch::nn modules. forward() (directly, through
// ModuleHolder::operator() or Sequential) is a training step.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <torch/arg.h>
#include <torch/types.h>
#include <type_traits>
#include <utility>
#include <vector>

namespace torch {
namespace nn {

template <typename Contained> class ModuleHolder;

class TORCH_API Module : public std::enable_shared_from_this<Module> {
public:
  explicit Module(std::string name);
  Module();
  virtual ~Module() = default;

  const std::string &name() const noexcept;
  virtual std::shared_ptr<Module>
  clone(const c10::optional<Device> &device = c10::nullopt) const;

  std::vector<Tensor> parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  std::vector<std::shared_ptr<Module>> children() const;

  virtual void train(bool on = true);
  void eval();
  virtual bool is_training() const noexcept;
  virtual void to(torch::Device device, torch::Dtype dtype,
                  bool non_blocking = false);
  virtual void to(torch::Dtype dtype, bool non_blocking = false);
  virtual void to(torch::Device device, bool non_blocking = false);
  virtual void zero_grad(bool set_to_none = false);

  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, std::shared_ptr<ModuleType> module) {
    (void)name;
    return module;
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, ModuleHolder<ModuleType> module_holder) {
    return register_module(std::move(name), module_holder.ptr());
  }
  Tensor &register_parameter(std::string name, Tensor tensor,
                             bool requires_grad = true);
  Tensor &register_buffer(std::string name, Tensor tensor);
};

template <typename Derived> class Cloneable : public Module {
public:
  using Module::Module;
  virtual void reset() = 0;
};

template <typename Contained> class ModuleHolder {
protected:
  std::shared_ptr<Contained> impl_;

public:
  using ContainedType = Contained;

  ModuleHolder() : impl_(std::make_shared<Contained>()) {}
  ModuleHolder(std::nullptr_t) : impl_(nullptr) {}
  template <typename Head, typename... Tail,
            typename = std::enable_if_t<
                !(std::is_base_of<ModuleHolder, std::decay_t<Head>>::value &&
                  sizeof...(Tail) == 0)>>
  explicit ModuleHolder(Head &&head, Tail &&...tail)
      : impl_(new Contained(std::forward<Head>(head),
                            std::forward<Tail>(tail)...)) {}
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module)
      : impl_(std::move(module)) {}

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  Contained *operator->() { return impl_.get(); }
  const Contained *operator->() const { return impl_.get(); }
  Contained &operator*() { return *impl_; }
  const Contained &operator*() const { return *impl_; }
  const std::shared_ptr<Contained> &ptr() const { return impl_; }
  Contained *get() { return impl_.get(); }
  const Contained *get() const { return impl_.get(); }
  bool is_empty() const noexcept { return impl_ == nullptr; }

  /// Calls forward() of the contained module.
  template <typename... Args> auto operator()(Args &&...args) {
    return impl_->forward(std::forward<Args>(args)...);
  }
};

#define TORCH_MODULE_IMPL(Name, ImplType)                                      \
  class Name : public torch::nn::ModuleHolder<ImplType> {                      \
  public:                                                                      \
    using torch::nn::ModuleHolder<ImplType>::ModuleHolder;                     \
    using torch::nn::ModuleHolder<ImplType>::get;                              \
  }
#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)

struct TORCH_API LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features)
      : in_features_(in_features), out_features_(out_features) {}
  TORCH_ARG(int64_t, in_features);
  TORCH_ARG(int64_t, out_features);
  TORCH_ARG(bool, bias) = true;
};

class TORCH_API LinearImpl : public Cloneable<LinearImpl> {
public:
  LinearImpl(int64_t in_features, int64_t out_features)
      : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions &options_) : options(options_) {}
  void reset() override;
  Tensor forward(const Tensor &input);

  LinearOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(Linear);

class TORCH_API ReLUImpl : public Cloneable<ReLUImpl> {
public:
  ReLUImpl() = default;
  void reset() override;
  Tensor forward(Tensor input);
};
TORCH_MODULE(ReLU);

class TORCH_API SequentialImpl : public Cloneable<SequentialImpl> {
public:
  SequentialImpl() = default;
  template <typename... Modules> explicit SequentialImpl(Modules &&...modules);
  void reset() override;
  template <typename ReturnType = Tensor, typename... InputTypes>
  ReturnType forward(InputTypes &&...inputs);
  size_t size() const noexcept;
};
TORCH_MODULE(Sequential);

namespace functional {
struct MSELossFuncOptions {};
struct CrossEntropyFuncOptions {};
Tensor mse_loss(const Tensor &input, const Tensor &target,
                const MSELossFuncOptions &options = {});
Tensor cross_entropy(const Tensor &input, const Tensor &target,
                     const CrossEntropyFuncOptions &options = {});
Tensor relu(Tensor input);
} // namespace functional

} // namespace nn
} // namespace torch
