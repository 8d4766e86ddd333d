// distlint test declarations: c10::intrusive_ptr, the reference-counted
// handle c10d passes process groups, stores, options and work around in.
#pragma once
#include <atomic>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace c10 {

class intrusive_ptr_target {
public:
  mutable std::atomic<size_t> refcount_{0};

protected:
  virtual ~intrusive_ptr_target() = default;
  template <class T, class N> friend class intrusive_ptr;
};

namespace detail {
template <class TTarget> struct intrusive_target_default_null_type final {
  static constexpr TTarget *singleton() noexcept { return nullptr; }
};
} // namespace detail

template <class TTarget,
          class NullType = detail::intrusive_target_default_null_type<TTarget>>
class intrusive_ptr final {
public:
  using element_type = TTarget;

  intrusive_ptr() noexcept : target_(NullType::singleton()) {}
  intrusive_ptr(std::nullptr_t) noexcept : target_(NullType::singleton()) {}
  explicit intrusive_ptr(TTarget *target) : target_(target) { retain(); }
  intrusive_ptr(const intrusive_ptr &rhs) : target_(rhs.target_) { retain(); }
  intrusive_ptr(intrusive_ptr &&rhs) noexcept : target_(rhs.target_) {
    rhs.target_ = NullType::singleton();
  }
  template <class From, class FromNullType,
            class = std::enable_if_t<std::is_convertible<From *, TTarget *>::value>>
  intrusive_ptr(const intrusive_ptr<From, FromNullType> &rhs)
      : target_(rhs.get()) {
    retain();
  }
  ~intrusive_ptr() { reset(); }

  intrusive_ptr &operator=(intrusive_ptr rhs) noexcept {
    std::swap(target_, rhs.target_);
    return *this;
  }

  TTarget *get() const noexcept { return target_; }
  TTarget &operator*() const noexcept { return *target_; }
  TTarget *operator->() const noexcept { return target_; }
  explicit operator bool() const noexcept { return target_ != nullptr; }
  bool defined() const noexcept { return target_ != nullptr; }
  void reset() noexcept {
    if (target_ && --target_->refcount_ == 0)
      delete target_;
    target_ = NullType::singleton();
  }
  size_t use_count() const noexcept {
    return target_ ? target_->refcount_.load() : 0;
  }

  template <class... Args> static intrusive_ptr make(Args &&...args) {
    return intrusive_ptr(new TTarget(std::forward<Args>(args)...));
  }
  static intrusive_ptr reclaim(TTarget *owning_ptr) {
    intrusive_ptr Result(owning_ptr);
    --owning_ptr->refcount_;
    return Result;
  }

private:
  void retain() {
    if (target_)
      ++target_->refcount_;
  }
  TTarget *target_;
};

template <class TTarget,
          class NullType = detail::intrusive_target_default_null_type<TTarget>,
          class... Args>
inline intrusive_ptr<TTarget, NullType> make_intrusive(Args &&...args) {
  return intrusive_ptr<TTarget, NullType>::make(std::forward<Args>(args)...);
}

template <class TTarget, class NullType, class FromTarget, class FromNullType>
intrusive_ptr<TTarget, NullType>
static_intrusive_pointer_cast(intrusive_ptr<FromTarget, FromNullType> r) {
  return intrusive_ptr<TTarget, NullType>(static_cast<TTarget *>(r.get()));
}

template <class TTarget,
          class NullType = detail::intrusive_target_default_null_type<TTarget>,
          class FromTarget, class FromNullType>
intrusive_ptr<TTarget, NullType>
dynamic_intrusive_pointer_cast(intrusive_ptr<FromTarget, FromNullType> r) {
  return intrusive_ptr<TTarget, NullType>(dynamic_cast<TTarget *>(r.get()));
}

template <class T1, class N1, class T2, class N2>
bool operator==(const intrusive_ptr<T1, N1> &a, const intrusive_ptr<T2, N2> &b) {
  return a.get() == b.get();
}
template <class T1, class N1>
bool operator==(const intrusive_ptr<T1, N1> &a, std::nullptr_t) {
  return a.get() == nullptr;
}
template <class T1, class N1>
bool operator!=(const intrusive_ptr<T1, N1> &a, std::nullptr_t) {
  return a.get() != nullptr;
}

} // namespace c10
