//===- PythonChecks.h - What the Python startup hook recorded ---*- C++ -*-===//
//
// The defects the startup hook (runtime-check/python) saw in a Python job —
// a DistributedSampler iterated again with the same epoch, a process group
// without an explicit timeout — and its per-line counts of host-device
// syncs per training step (backward() call), for the report model.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Merge.h"

#include <string>
#include <vector>

namespace distlint {
namespace rt {

struct PythonFinding {
  int Trace = -1;
  std::string Check;   ///< "set-epoch", "no-timeout", "item", "cpu", ...
  bool Defect = false; ///< A finding (not a count).
  PackedFrame Site = 0;
  int64_t Epoch = -1;            ///< set-epoch.
  int64_t DefaultSeconds = -1;   ///< no-timeout.
  std::string Backend;           ///< no-timeout, when known.
  std::string Call;              ///< The Python call concerned.
  std::string Torch;             ///< "1.13", when known.
  uint64_t Count = 0, Steps = 0; ///< Sync counts and training steps.
};

std::vector<PythonFinding> pythonFindings(const Analysis &A);

/// A one-line explanation (without rank and place).
std::string describePythonFinding(const PythonFinding &F);

} // namespace rt
} // namespace distlint
