//===- StackWalker.h - Find the user's call-site cheaply --------*- C++ -*-===//
//
// A collective's call-site is the first frame outside the communication
// libraries (NCCL, MPI, LibTorch, c10, the C/C++ runtimes, this library).
// Unwinding with DWARF costs microseconds, so the walker learns, per return
// address, how to step to the caller from full unwinds (the frame's size when
// the function has a fixed frame, or its frame pointer), and afterwards steps
// through known return addresses only; anything unknown or inconsistent falls
// back to the full unwind. See the comment in StackWalker.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "TraceFormat.h"

#include <cstdint>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

struct CallSite {
  PackedFrame Frames[kRecordFrames] = {0, 0, 0};
};

/// Captures the call-site of the calling hook (in a Python process, the
/// Python line first, then the native frames: see PythonFrames.h). HookFrame is
/// the hook's
/// __builtin_frame_address(0) (hooks are built with frame pointers).
void captureCallSite(void *HookFrame, CallSite &Out);

/// Forces the DWARF unwinder (tests compare both paths).
void captureCallSiteSlow(void *HookFrame, CallSite &Out);

struct WalkerStats {
  uint64_t FastWalks; ///< On the calling thread.
  uint64_t SlowWalks;
};
WalkerStats walkerStats();

/// Module registry shared with the trace writer: index -> path.
std::vector<std::string> knownModulePaths();
/// A registry entry for code that is no loaded object (a Python function):
/// its index, the same for the same Name.
uint32_t internPseudoModule(const std::string &Name);
/// Called when the registry grows (trace writer mirrors it into the file).
void setModuleListener(void (*Listener)(uint32_t Index, const char *Path));

/// Is this module (by path) one of the libraries the walker skips?
bool isSkippedModulePath(const char *Path);

/// Forget everything learned (after fork, and for tests).
void resetStackWalker();

} // namespace rt
} // namespace distlint
