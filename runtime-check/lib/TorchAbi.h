//===- TorchAbi.h - What the preload library asks the LibTorch helper -*- C++
//-*-===//
//
// The c10d hooks see tensors and options as opaque pointers: the preload
// library is built without LibTorch. libdistlint-rt-torch.so, built against
// the LibTorch headers of the program's release and loaded only into
// processes that already run LibTorch, reads them with LibTorch's own inline
// accessors. Plain C types only: the two sides may use different C++ runtimes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

extern "C" {

/// What a process-group call moves, as the trace records it.
struct DlrtTorchDesc {
  uint64_t Count;   ///< Elements of the input tensors, summed.
  int32_t DataType; ///< c10::ScalarType of the first input tensor, -1 none.
  int32_t RedOp;    ///< c10d::ReduceOp::RedOpType, -1 none.
  int32_t Root;     ///< Root rank of rooted collectives, else -1.
  int32_t Tensors;  ///< Input tensors.
  uint64_t Shape;   ///< dlrtShapeCode of the first input tensor.
};

/// The arguments of a hooked call after `this`, in order (null when absent).
struct DlrtTorchArgs {
  const void *First;  ///< Tensors (vector), outputs, or the output tensor.
  const void *Second; ///< Inputs, the input tensor, or null.
  const void *Options;
};

/// Fills Out for the c10d call Op (a distlint::rt::OpCode value); 0 on success.
typedef int (*DlrtTorchDescribeFn)(int Op, const DlrtTorchArgs *Args,
                                   DlrtTorchDesc *Out);
/// Rank and size of a c10d::ProcessGroup / Backend.
typedef int (*DlrtTorchGroupFn)(const void *Group, int32_t *Rank,
                                int32_t *Size);
/// The helper's version of this interface (kDlrtTorchAbi).
typedef int (*DlrtTorchAbiFn)(void);
}

constexpr int kDlrtTorchAbi = 1;

/// A tensor shape in 64 bits: up to 4 dims below 2^15 exactly (3 bits of
/// rank, 15 bits per dim); anything else hashed with the top bit set. Equal
/// shapes give equal codes; the report shows exact ones.
inline uint64_t dlrtShapeCode(const int64_t *Dims, int64_t Rank) {
  bool Exact = Rank <= 4;
  for (int64_t I = 0; Exact && I < Rank; ++I)
    Exact = Dims[I] >= 0 && Dims[I] < (1 << 15);
  if (Exact) {
    uint64_t Code = uint64_t(Rank);
    for (int64_t I = 0; I < Rank; ++I)
      Code |= uint64_t(Dims[I]) << (3 + 15 * I);
    return Code;
  }
  uint64_t H = 0xcbf29ce484222325ull ^ uint64_t(Rank);
  for (int64_t I = 0; I < Rank; ++I)
    H = (H ^ uint64_t(Dims[I])) * 0x100000001b3ull;
  return H | (uint64_t(1) << 63);
}
