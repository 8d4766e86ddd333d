// distlint test declarations: c10::TensorOptions (dtype, device, grad).
#pragma once
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Optional.h>

namespace c10 {

enum class Layout : int8_t { Strided, Sparse };
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast };

struct C10_API TensorOptions {
  TensorOptions() = default;
  /* implicit */ TensorOptions(Device device) : device_(device) {}
  /* implicit */ TensorOptions(DeviceType type) : device_(Device(type)) {}
  /* implicit */ TensorOptions(ScalarType dtype) : dtype_(dtype) {}
  /* implicit */ TensorOptions(Layout layout) : layout_(layout) {}

  TensorOptions device(c10::optional<Device> device) const noexcept {
    TensorOptions r = *this;
    r.device_ = device;
    return r;
  }
  TensorOptions device_index(int16_t device_index) const noexcept {
    return device(Device(DeviceType::CUDA, DeviceIndex(device_index)));
  }
  TensorOptions dtype(c10::optional<ScalarType> dtype) const noexcept {
    TensorOptions r = *this;
    r.dtype_ = dtype;
    return r;
  }
  TensorOptions layout(c10::optional<Layout> layout) const noexcept {
    TensorOptions r = *this;
    r.layout_ = layout;
    return r;
  }
  TensorOptions requires_grad(c10::optional<bool> requires_grad) const noexcept {
    TensorOptions r = *this;
    r.requires_grad_ = requires_grad;
    return r;
  }
  TensorOptions pinned_memory(c10::optional<bool> pinned) const noexcept {
    TensorOptions r = *this;
    r.pinned_memory_ = pinned;
    return r;
  }
  Device device() const noexcept { return device_.value_or(Device(kCPU)); }
  bool has_device() const noexcept { return device_.has_value(); }
  ScalarType dtype() const noexcept { return dtype_.value_or(kFloat); }
  bool requires_grad() const noexcept { return requires_grad_.value_or(false); }

private:
  c10::optional<Device> device_;
  c10::optional<ScalarType> dtype_;
  c10::optional<Layout> layout_;
  c10::optional<bool> requires_grad_;
  c10::optional<bool> pinned_memory_;
};

inline TensorOptions dtype(ScalarType dtype) {
  return TensorOptions().dtype(dtype);
}
inline TensorOptions device(Device device) {
  return TensorOptions().device(device);
}
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}

} // namespace c10
