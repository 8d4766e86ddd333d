//===- PythonFrames.h - Python call-sites for the records -------*- C++ -*-===//
//
// In a CPython process (3.9 to 3.13) a record's call-site is the innermost
// Python frame outside torch/ and the standard library, followed by the
// native frames. The C API is resolved with dlsym at run time (no link
// dependency); frames are read only when a hook records an operation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "StackWalker.h"
#include "TraceFormat.h"

#include <atomic>
#include <cstddef>

namespace distlint {
namespace rt {

enum PythonPresence : int { PythonUnknown = 0, PythonPresent, PythonAbsent };
extern std::atomic<int> PythonState;

/// Cheap: false once the process is known to run no CPython.
inline bool pythonMayRun() {
  return PythonState.load(std::memory_order_relaxed) != PythonAbsent;
}

/// Puts the Python line in front of Out's native frames (the innermost
/// native frame is kept beside it); leaves Out alone outside Python.
void addPythonCallSite(CallSite &Out);

/// A pseudo-module frame for a Python location.
PackedFrame pythonFrame(PythonSiteKind Kind, const char *File,
                        const char *Function, int Line);

/// torch's package directory (its frames are library frames wherever it is
/// installed); called with the GIL held, by the startup hook.
void addPythonLibraryDir(const char *Dir);

/// Where LibTorch threads without Python frames were set to work from (the
/// line calling backward()), published by the startup hook; 0 clears it.
void setBackwardSite(PackedFrame Site);

/// "train.py:27 in main" for a Python frame, "module+0x…" otherwise, for
/// one-line messages (files below the working directory shown relative).
void describeFrame(const TraceHeader &H, PackedFrame F, char *Buf, size_t Size);

} // namespace rt
} // namespace distlint
