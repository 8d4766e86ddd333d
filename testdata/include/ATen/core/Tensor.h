// distlint test declarations: at::Tensor (torch::Tensor). Member signatures
// follow ATen/core/TensorBody.h of LibTorch 1.13: item(), cpu(), to(),
// is_nonzero() and equal() copy device data to the host; backward() runs the
// autograd graph.
#pragma once
#include <ATen/core/TensorBase.h>
#include <c10/core/Scalar.h>
#include <c10/util/Optional.h>
#include <ostream>
#include <tuple>
#include <vector>

namespace at {

class Tensor;
using TensorList = c10::ArrayRef<Tensor>;
using c10::Device;
using c10::MemoryFormat;
using c10::Scalar;
using c10::ScalarType;
using c10::TensorOptions;

class TORCH_API Tensor : public TensorBase {
public:
  Tensor() = default;
  Tensor(const Tensor &) = default;
  Tensor(Tensor &&) noexcept = default;
  explicit Tensor(const TensorBase &base) : TensorBase(base) {}
  Tensor &operator=(const Tensor &) & = default;
  Tensor &operator=(Tensor &&) & noexcept = default;
  Tensor &operator=(const Scalar &v) &&;
  Tensor &operator=(const Tensor &rhs) &&;

  // Host reads of tensor values (device-to-host copies on CUDA tensors).
  Scalar item() const;
  template <typename T> T item() const;
  bool is_nonzero() const;
  bool equal(const Tensor &other) const;
  bool allclose(const Tensor &other, double rtol = 1e-05, double atol = 1e-08,
                bool equal_nan = false) const;

  // Device moves.
  Tensor cpu() const;
  Tensor cuda() const;
  Tensor to(TensorOptions options = {}, bool non_blocking = false,
            bool copy = false,
            c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false,
            bool copy = false,
            c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
            c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false,
            c10::optional<MemoryFormat> memory_format = c10::nullopt) const;

  // Autograd.
  void backward(const Tensor &gradient = {},
                c10::optional<bool> retain_graph = c10::nullopt,
                bool create_graph = false,
                c10::optional<TensorList> inputs = c10::nullopt) const;
  const Tensor &grad() const;
  Tensor &mutable_grad() const;
  const Tensor &requires_grad_(bool requires_grad = true) const;
  Tensor detach() const;
  Tensor data() const;
  Tensor clone(c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor contiguous() const;

  // Shape.
  Tensor view(IntArrayRef size) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor operator[](int64_t index) const;
  Tensor bincount(const c10::optional<Tensor> &weights = {},
                  int64_t minlength = 0) const;
  Tensor index_select(int64_t dim, const Tensor &index) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim = 0, c10::optional<int64_t> start = c10::nullopt,
               c10::optional<int64_t> end = c10::nullopt,
               int64_t step = 1) const;

  // Math.
  Tensor sum(c10::optional<ScalarType> dtype = c10::nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false,
             c10::optional<ScalarType> dtype = c10::nullopt) const;
  Tensor mean(c10::optional<ScalarType> dtype = c10::nullopt) const;
  Tensor mean(IntArrayRef dim, bool keepdim = false,
              c10::optional<ScalarType> dtype = c10::nullopt) const;
  Tensor remainder(const Scalar &other) const;
  Tensor remainder(const Tensor &other) const;
  Tensor max() const;
  Tensor min() const;
  Tensor argmax(c10::optional<int64_t> dim = c10::nullopt,
                bool keepdim = false) const;
  Tensor abs() const;
  Tensor clamp(const Scalar &min, const Scalar &max) const;
  Tensor clamp_min(const Scalar &min) const;
  Tensor clamp_max(const Scalar &max) const;
  Tensor relu() const;
  Tensor sigmoid() const;
  Tensor tanh() const;
  Tensor neg() const;
  Tensor reciprocal() const;
  Tensor square() const;
  Tensor sign() const;
  Tensor floor() const;
  Tensor ceil() const;
  Tensor round() const;
  Tensor nan_to_num() const;
  Tensor prod(c10::optional<ScalarType> dtype = c10::nullopt) const;
  Tensor std(bool unbiased = true) const;
  Tensor var(bool unbiased = true) const;
  Tensor nonzero() const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1,
                                  bool largest = true,
                                  bool sorted = true) const;
  Tensor argwhere() const;
  Tensor masked_select(const Tensor &mask) const;
  Tensor sqrt() const;
  Tensor exp() const;
  Tensor log() const;
  Tensor pow(const Scalar &exponent) const;
  Tensor norm(const Scalar &p = 2) const;
  Tensor any() const;
  Tensor all() const;
  Tensor isnan() const;
  Tensor eq(const Tensor &other) const;
  Tensor add(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor sub(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor mul(const Tensor &other) const;
  Tensor div(const Tensor &other) const;
  Tensor matmul(const Tensor &other) const;
  Tensor &add_(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &add_(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor &sub_(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &mul_(const Tensor &other) const;
  Tensor &mul_(const Scalar &other) const;
  Tensor &div_(const Tensor &other) const;
  Tensor &div_(const Scalar &other) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false) const;
  Tensor &zero_() const;
  Tensor &fill_(const Scalar &value) const;

  // In-place random fills: values differ per rank unless seeded alike.
  Tensor &uniform_(double from = 0, double to = 1) const;
  Tensor &normal_(double mean = 0, double std = 1) const;
  Tensor &random_() const;
  Tensor &bernoulli_(double p = 0.5) const;
};

TORCH_API Tensor operator+(const Tensor &self, const Tensor &other);
TORCH_API Tensor operator+(const Tensor &self, const Scalar &other);
TORCH_API Tensor operator-(const Tensor &self, const Tensor &other);
TORCH_API Tensor operator-(const Tensor &self, const Scalar &other);
TORCH_API Tensor operator-(const Tensor &self);
TORCH_API Tensor operator*(const Tensor &self, const Tensor &other);
TORCH_API Tensor operator*(const Tensor &self, const Scalar &other);
TORCH_API Tensor operator*(const Scalar &self, const Tensor &other);
TORCH_API Tensor operator/(const Tensor &self, const Tensor &other);
TORCH_API Tensor operator/(const Tensor &self, const Scalar &other);
TORCH_API Tensor operator>(const Tensor &self, const Scalar &other);
TORCH_API Tensor operator<(const Tensor &self, const Scalar &other);
TORCH_API Tensor operator>=(const Tensor &self, const Scalar &other);
TORCH_API Tensor operator<=(const Tensor &self, const Scalar &other);
TORCH_API Tensor operator==(const Tensor &self, const Tensor &other);
Tensor &operator+=(Tensor &self, const Tensor &other);
Tensor &operator-=(Tensor &self, const Tensor &other);
Tensor &operator*=(Tensor &self, const Scalar &other);
Tensor &operator/=(Tensor &self, const Scalar &other);

// Printing a tensor reads all of its values on the host.
TORCH_API std::ostream &print(std::ostream &stream, const Tensor &tensor,
                              int64_t linesize);
static inline std::ostream &operator<<(std::ostream &out, const Tensor &t) {
  return print(out, t, 80);
}
TORCH_API void print(const Tensor &t, int64_t linesize = 80);

} // namespace at

namespace c10 {
TORCH_API std::ostream &operator<<(std::ostream &out, Scalar s);
}
