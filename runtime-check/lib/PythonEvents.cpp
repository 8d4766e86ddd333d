//===- PythonEvents.cpp - What the Python startup hook reports ------------===//
//
// runtime-check/python/distlint-rt-python/sitecustomize.py (put on
// PYTHONPATH by distlint-rt run) calls these through ctypes. They write into
// the rank's trace like the hooks do: per-line counters for host-device
// syncs and training steps, PythonCheck records for the defects it sees.
// Plain C types only; a call with bad arguments records nothing.
//
//===----------------------------------------------------------------------===//
#include "PythonFrames.h"
#include "Runtime.h"
#include "Support.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

using namespace distlint::rt;

namespace {

/// The hook's codes (stable: the hook hard-codes them) and what they mean.
struct PythonEventInfo {
  int Code;
  OpCode Op;
};
const PythonEventInfo PythonEvents[] = {
    {1, OpCode::PyTensorItem},      {2, OpCode::PyTensorCpu},
    {3, OpCode::PyCudaSynchronize}, {4, OpCode::PyBackward},
    {5, OpCode::PySamplerIter},     {6, OpCode::PyInitProcessGroup},
    {7, OpCode::PyNewGroup},
};

OpCode eventOp(int Code) {
  for (const PythonEventInfo &E : PythonEvents)
    if (E.Code == Code)
      return E.Op;
  return OpCode::None;
}

} // namespace

#define DLRT_PYTHON_EXPORT extern "C" __attribute__((visibility("default")))

/// The frame of a Python line, to pass to the calls below (the hook caches
/// it per line); 0 when no trace is recorded. ForThreads: the form that
/// names the line for LibTorch threads working on its behalf (backward()).
DLRT_PYTHON_EXPORT uint64_t dlrt_python_site(const char *File,
                                             const char *Function, int Line,
                                             int ForThreads) {
  if (!File || !Function || !trace())
    return 0;
  return pythonFrame(ForThreads ? PythonSiteKind::OtherThread
                                : PythonSiteKind::Call,
                     File, Function, Line);
}

/// torch is installed in Dir (maybe outside site-packages): its frames are
/// never call-sites.
DLRT_PYTHON_EXPORT void dlrt_python_library_dir(const char *Dir) {
  addPythonLibraryDir(Dir);
}

/// One call of Event (a sync or a backward()) at Site.
DLRT_PYTHON_EXPORT void dlrt_python_count(int Event, uint64_t Site) {
  OpCode Op = eventOp(Event);
  TraceWriter *T = traceIfOpen();
  if (T && Op != OpCode::None && frameValid(Site))
    T->countSync(Op, Site, 0);
}

/// backward() at Site starts (counted there) and LibTorch threads without
/// Python frames work for ThreadSite; with Site 0, it returned.
DLRT_PYTHON_EXPORT void dlrt_python_backward(uint64_t Site,
                                             uint64_t ThreadSite) {
  setBackwardSite(Site ? ThreadSite : 0);
  if (Site)
    dlrt_python_count(4, Site);
}

/// A defect (PythonCheckKind Check) seen in the call Event at Site, in
/// torch Major.Minor (TorchVersion = Major * 100 + Minor).
DLRT_PYTHON_EXPORT void dlrt_python_check(int Check, int Event, uint64_t Site,
                                          long long Value, int Backend,
                                          int TorchVersion) {
  TraceWriter *T = trace();
  if (!T || !frameValid(Site) ||
      (Check != int(PythonCheckKind::SamplerEpochRepeated) &&
       Check != int(PythonCheckKind::NoTimeout)))
    return;
  uint64_t Slot;
  TraceRecord *R = T->claim(Slot);
  std::memset(static_cast<void *>(R), 0, sizeof(*R));
  R->Kind = uint32_t(RecordKind::PythonCheck);
  R->ApiId = uint16_t(Api::C10d);
  R->Op = uint16_t(eventOp(Event));
  R->Tag = Check;
  R->Count = uint64_t(Value);
  R->DataType = Backend;
  R->RedOp = -1;
  R->Peer = TorchVersion;
  R->StartNs = monotonicNs();
  R->Tid = uint32_t(syscall(SYS_gettid));
  R->Frames[0] = Site;
  T->commit(R, Slot);
}
