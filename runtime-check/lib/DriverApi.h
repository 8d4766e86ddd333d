//===- DriverApi.h - CUDA driver entry points, found at run time -*- C++ -*-===//
//
// The preload library has no link-time CUDA dependency: it uses the driver
// only if the program already loaded it (dlopen RTLD_NOLOAD), which every
// CUDA runtime user has done before its first NCCL call.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace distlint {
namespace rt {

struct DriverApi {
  using CUresult = int;
  CUresult (*CtxGetCurrent)(void **Ctx);
  CUresult (*CtxSetCurrent)(void *Ctx);
  CUresult (*EventCreate)(void **Event, unsigned Flags);
  CUresult (*EventRecord)(void *Event, void *Stream);
  CUresult (*EventQuery)(void *Event);
  CUresult (*EventDestroy)(void *Event);
  CUresult (*StreamIsCapturing)(void *Stream, int *Status);

  static constexpr CUresult Success = 0;
  static constexpr CUresult NotReady = 600;
  static constexpr unsigned EventDisableTiming = 2;
  static constexpr int CaptureNone = 0;
};

/// The driver's entry points, or null when no libcuda.so.1 was loaded at the
/// last look (or DISTLINT_RT_EVENTS=0). Cheap after the first call.
const DriverApi *driverApi();
/// Looks for the driver again on the next driverApi() (communicator set-up
/// calls this: the program may have loaded CUDA since).
void retryDriverApi();

} // namespace rt
} // namespace distlint
