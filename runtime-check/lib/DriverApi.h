//===- DriverApi.h - CUDA driver entry points, found at run time -*- C++ -*-===//
//
// The preload library has no link-time CUDA dependency: it uses the driver
// only if the program already loaded it (dlopen RTLD_NOLOAD), which every
// CUDA runtime user has done before its first NCCL call.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>

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
inline const DriverApi *driverApi();
/// driverApi() before the driver was resolved or found absent.
const DriverApi *lookUpDriverApi();
/// Looks for the driver again on the next driverApi() (communicator set-up
/// calls this: the program may have loaded CUDA since).
void retryDriverApi();

namespace detail {
extern DriverApi LoadedDriverApi;
/// 0 untried, 1 loaded, 2 disabled, 3 absent (tried again on retryDriverApi).
extern std::atomic<int> DriverApiState;
} // namespace detail

inline const DriverApi *driverApi() {
  int S = detail::DriverApiState.load(std::memory_order_acquire);
  if (__builtin_expect(S == 1, 1))
    return &detail::LoadedDriverApi;
  if (S != 0)
    return nullptr;
  return lookUpDriverApi();
}

} // namespace rt
} // namespace distlint
