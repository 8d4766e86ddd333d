//===- TorchHelper.h - Loading libdistlint-rt-torch.so ----------*- C++ -*-===//
//
// The c10d hooks ask the LibTorch helper for tensor counts, types and shapes.
// It is loaded at the first process-group call, when LibTorch is certainly in
// the process (a C++ program links it; Python's `import torch` dlopens it
// later, privately).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "TorchAbi.h"

namespace distlint {
namespace rt {

struct TorchHelper {
  DlrtTorchDescribeFn Describe = nullptr;
  DlrtTorchGroupFn Group = nullptr;
};

/// The helper's entry points, loaded on first use (null when unusable; one
/// warning line then).
const TorchHelper &torchHelper();

} // namespace rt
} // namespace distlint
