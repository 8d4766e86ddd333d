//===- CopyKinds.h - Where a memory copy reads and writes -------*- C++ -*-===//
//
// The copy-kind enumerators of the CUDA runtime (cudaMemcpyKind), as typed
// rows: whether a copy's source and destination are device memory. Rows of
// role HostWaitOnDevice name the kind argument with ArgRoles::Flag.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"

namespace distlint {
namespace api {

/// A kind that is not a known enumerator counts as device to device (the
/// conservative reading: device data is rank-local).
struct CopyKind {
  const char *Name; ///< Enumerator: "cudaMemcpyHostToDevice".
  bool FromDevice;
  bool ToDevice;
};
llvm::ArrayRef<CopyKind> cudaCopyKinds();

} // namespace api
} // namespace distlint
