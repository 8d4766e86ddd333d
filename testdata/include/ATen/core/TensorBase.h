// distlint test declarations: at::TensorBase, the metadata half of a tensor
// (sizes, device, raw data pointer). Reading metadata never syncs the device.
#pragma once
#include <c10/core/Device.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/intrusive_ptr.h>
#include <string>

namespace c10 {
struct TensorImpl : intrusive_ptr_target {};
} // namespace c10

namespace at {

using c10::IntArrayRef;

class TORCH_API TensorBase {
public:
  TensorBase() = default;
  TensorBase(const TensorBase &) = default;
  TensorBase(TensorBase &&) noexcept = default;
  TensorBase &operator=(const TensorBase &) & = default;
  TensorBase &operator=(TensorBase &&) & noexcept = default;

  int64_t dim() const;
  int64_t ndimension() const { return dim(); }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t numel() const;
  size_t nbytes() const;
  int64_t element_size() const;
  bool defined() const { return impl_.defined(); }
  void reset() { impl_.reset(); }
  bool is_contiguous() const;
  ScalarType scalar_type() const;
  c10::TensorOptions options() const;
  Device device() const;
  int64_t get_device() const;
  bool is_cpu() const;
  bool is_cuda() const;
  bool is_floating_point() const;
  bool requires_grad() const;
  bool is_leaf() const;
  std::string toString() const;

  void *data_ptr() const;
  template <typename T> T *data_ptr() const;

  TensorBase to(c10::TensorOptions options = {}, bool non_blocking = false,
                bool copy = false,
                c10::optional<c10::MemoryFormat> memory_format =
                    c10::nullopt) const;
  const TensorBase &fill_(const c10::Scalar &scalar) const;
  const TensorBase &zero_() const;

protected:
  c10::intrusive_ptr<c10::TensorImpl> impl_;
};

} // namespace at
