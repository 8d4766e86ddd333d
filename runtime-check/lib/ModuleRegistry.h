//===- ModuleRegistry.h - The loaded objects call-sites point into -*- C++
//-*-===//
//
// Every loaded object (and pseudo module: Python code) gets a stable index;
// a call-site is stored as index + offset. Lookups read an immutable sorted
// snapshot, rebuilt when dl_iterate_phdr reports a load or an unload.
// Internal to the preload library (StackWalker.cpp walks with it).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace distlint {
namespace rt {

struct ModuleRange {
  uintptr_t Start, End, Bias;
  uint32_t Index;
  bool Skip;
};

/// The module holding Pc; with MayRefresh, a miss rereads the loaded
/// objects once.
const ModuleRange *findModule(uintptr_t Pc, bool MayRefresh);
/// Rereads the loaded objects if any were loaded or unloaded since.
void refreshModules();

} // namespace rt
} // namespace distlint
