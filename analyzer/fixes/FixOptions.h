//===- FixOptions.h - What the fix-it builders insert ----------*- C++ -*-===//
//
// Plain values from .distlint.yaml (MissingTimeoutDefault, StepSyncInterval)
// or the clang-tidy plugin's CheckOptions (distlint.MissingTimeoutDefault,
// distlint.StepSyncInterval), read by the builders in analyzer/fixes/.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace distlint {

struct FixOptions {
  /// The timeout a missing-timeout fix sets (a C++ duration expression).
  std::string MissingTimeoutDefault = "std::chrono::minutes(5)";
  /// N in the `if (step % N == 0)` a stray-device-sync fix wraps around.
  unsigned StepSyncInterval = 100;
};

} // namespace distlint
