// distlint test declarations: c10::Scalar, what Tensor::item() returns.
#pragma once
#include <c10/macros/Macros.h>
#include <cstdint>

namespace c10 {

class C10_API Scalar {
public:
  Scalar() : Scalar(int64_t(0)) {}
  Scalar(double vv) : tag(Tag::HAS_d) { v.d = vv; }
  Scalar(float vv) : Scalar(double(vv)) {}
  Scalar(int vv) : Scalar(int64_t(vv)) {}
  Scalar(long vv) : tag(Tag::HAS_i) { v.i = vv; }
  Scalar(long long vv) : tag(Tag::HAS_i) { v.i = (int64_t)vv; }
  Scalar(unsigned vv) : Scalar(int64_t(vv)) {}
  Scalar(unsigned long vv) : Scalar(int64_t(vv)) {}
  Scalar(bool vv) : tag(Tag::HAS_b) { v.i = vv; }

  template <typename T> T to() const;
  double toDouble() const { return tag == Tag::HAS_d ? v.d : double(v.i); }
  float toFloat() const { return float(toDouble()); }
  int toInt() const { return tag == Tag::HAS_d ? int(v.d) : int(v.i); }
  int64_t toLong() const { return tag == Tag::HAS_d ? int64_t(v.d) : v.i; }
  bool toBool() const { return tag == Tag::HAS_d ? v.d != 0 : v.i != 0; }
  bool isFloatingPoint() const { return tag == Tag::HAS_d; }
  bool isIntegral(bool includeBool) const {
    return tag == Tag::HAS_i || (includeBool && tag == Tag::HAS_b);
  }

private:
  enum class Tag { HAS_d, HAS_i, HAS_b };
  Tag tag;
  union {
    double d;
    int64_t i;
  } v;
};

template <> inline double Scalar::to<double>() const { return toDouble(); }
template <> inline float Scalar::to<float>() const { return toFloat(); }
template <> inline int Scalar::to<int>() const { return toInt(); }
template <> inline int64_t Scalar::to<int64_t>() const { return toLong(); }
template <> inline bool Scalar::to<bool>() const { return toBool(); }

} // namespace c10
