//===- FakeReduce.cpp - The NCCL stand-in's element types and reductions --===//
#include "FakeReduce.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

size_t typeSize(ncclDataType_t Type) {
  switch (Type) {
  case ncclInt8:
  case ncclUint8:
  case ncclFloat8e4m3:
  case ncclFloat8e5m2:
    return 1;
  case ncclFloat16:
  case ncclBfloat16:
    return 2;
  case ncclInt32:
  case ncclUint32:
  case ncclFloat32:
    return 4;
  case ncclInt64:
  case ncclUint64:
  case ncclFloat64:
    return 8;
  default:
    return 0;
  }
}

namespace {

float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16;
  int Exp = (H >> 10) & 0x1f;
  uint32_t Mant = H & 0x3ff;
  float F;
  if (Exp == 0)
    F = std::ldexp(float(Mant), -24);
  else if (Exp == 31)
    F = Mant ? NAN : INFINITY;
  else
    F = std::ldexp(float(Mant | 0x400), Exp - 25);
  uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  Bits |= Sign;
  std::memcpy(&F, &Bits, 4);
  return F;
}

uint16_t floatToHalf(float F) {
  uint16_t Sign = std::signbit(F) ? 0x8000 : 0;
  F = std::fabs(F);
  if (std::isnan(F))
    return Sign | 0x7e00;
  if (F >= 65520.f)
    return Sign | 0x7c00;
  if (F < std::ldexp(1.f, -24) / 2)
    return Sign;
  int Exp;
  std::frexp(F, &Exp); // F = m * 2^Exp, m in [0.5,1)
  int HalfExp = Exp - 1 + 15;
  if (HalfExp <= 0) // subnormal: units of 2^-24
    return Sign | uint16_t(std::nearbyint(std::ldexp(F, 24)));
  uint32_t Mant = uint32_t(std::nearbyint(std::ldexp(F, 11 - Exp))); // 11 bits
  if (Mant == 0x800) {
    Mant = 0x400;
    ++HalfExp;
  }
  if (HalfExp >= 31)
    return Sign | 0x7c00;
  return Sign | uint16_t(HalfExp << 10) | uint16_t(Mant & 0x3ff);
}

float bf16ToFloat(uint16_t B) {
  uint32_t Bits = uint32_t(B) << 16;
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

uint16_t floatToBf16(float F) {
  uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  if (std::isnan(F))
    return uint16_t((Bits >> 16) | 0x40);
  Bits += 0x7fff + ((Bits >> 16) & 1);
  return uint16_t(Bits >> 16);
}

template <class T> T combine(T A, T B, ncclRedOp_t Op) {
  switch (Op) {
  case ncclSum:
  case ncclAvg:
    return T(A + B);
  case ncclProd:
    return T(A * B);
  case ncclMax:
    return std::max(A, B);
  case ncclMin:
    return std::min(A, B);
  default:
    return A;
  }
}

/// Reduces Inputs[0..N) elementwise into Out, in rank order so every rank
/// computes bit-identical results.
template <class T>
void reduceNative(void *Out, const std::vector<const char *> &Inputs,
                  size_t Count, ncclRedOp_t Op) {
  T *Dst = static_cast<T *>(Out);
  for (size_t I = 0; I < Count; ++I) {
    T Acc = reinterpret_cast<const T *>(Inputs[0])[I];
    for (size_t R = 1; R < Inputs.size(); ++R)
      Acc = combine(Acc, reinterpret_cast<const T *>(Inputs[R])[I], Op);
    if (Op == ncclAvg)
      Acc = T(Acc / T(Inputs.size()));
    Dst[I] = Acc;
  }
}

template <float (*Load)(uint16_t), uint16_t (*Store)(float)>
void reduceHalfLike(void *Out, const std::vector<const char *> &Inputs,
                    size_t Count, ncclRedOp_t Op) {
  uint16_t *Dst = static_cast<uint16_t *>(Out);
  for (size_t I = 0; I < Count; ++I) {
    float Acc = Load(reinterpret_cast<const uint16_t *>(Inputs[0])[I]);
    for (size_t R = 1; R < Inputs.size(); ++R)
      Acc = combine(Acc, Load(reinterpret_cast<const uint16_t *>(Inputs[R])[I]),
                    Op);
    if (Op == ncclAvg)
      Acc /= float(Inputs.size());
    Dst[I] = Store(Acc);
  }
}

} // namespace

void reduce(void *Out, const std::vector<const char *> &Inputs, size_t Count,
            ncclDataType_t Type, ncclRedOp_t Op) {
  switch (Type) {
  case ncclInt8:
    return reduceNative<int8_t>(Out, Inputs, Count, Op);
  case ncclUint8:
    return reduceNative<uint8_t>(Out, Inputs, Count, Op);
  case ncclInt32:
    return reduceNative<int32_t>(Out, Inputs, Count, Op);
  case ncclUint32:
    return reduceNative<uint32_t>(Out, Inputs, Count, Op);
  case ncclInt64:
    return reduceNative<int64_t>(Out, Inputs, Count, Op);
  case ncclUint64:
    return reduceNative<uint64_t>(Out, Inputs, Count, Op);
  case ncclFloat32:
    return reduceNative<float>(Out, Inputs, Count, Op);
  case ncclFloat64:
    return reduceNative<double>(Out, Inputs, Count, Op);
  case ncclFloat16:
    return reduceHalfLike<halfToFloat, floatToHalf>(Out, Inputs, Count, Op);
  case ncclBfloat16:
    return reduceHalfLike<bf16ToFloat, floatToBf16>(Out, Inputs, Count, Op);
  default:
    return; // fp8 reductions are refused at the call.
  }
}
