#pragma once
#include "StackWalker.h"

#include <cstdint>

struct HookResult {
  distlint::rt::CallSite Walked;  ///< captureCallSite (fast when learned).
  distlint::rt::CallSite Unwound; ///< captureCallSiteSlow (DWARF).
  uint64_t ExpectedOffset = 0;    ///< The hook's return address, module-relative.
};

void fakeHook(HookResult &Out);
