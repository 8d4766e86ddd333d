//===- DriverApi.cpp - CUDA driver entry points, found at run time ---------===//
#include "DriverApi.h"
#include "Support.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace distlint {
namespace rt {

namespace detail {
DriverApi LoadedDriverApi;
std::atomic<int> DriverApiState{0};
} // namespace detail

namespace {
DriverApi &Api = detail::LoadedDriverApi;
std::atomic<int> &State = detail::DriverApiState;

bool resolve() {
  void *Lib = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY);
  if (!Lib)
    return false;
  auto Get = [&](const char *Name) { return dlsym(Lib, Name); };
  void *Syms[] = {Get("cuCtxGetCurrent"), Get("cuCtxSetCurrent"), Get("cuEventCreate"),
                  Get("cuEventRecord"),   Get("cuEventQuery"),    Get("cuEventDestroy_v2"),
                  Get("cuStreamIsCapturing")};
  for (void *S : Syms)
    if (!S)
      return false;
  using R = DriverApi::CUresult;
  Api.CtxGetCurrent = reinterpret_cast<R (*)(void **)>(Syms[0]);
  Api.CtxSetCurrent = reinterpret_cast<R (*)(void *)>(Syms[1]);
  Api.EventCreate = reinterpret_cast<R (*)(void **, unsigned)>(Syms[2]);
  Api.EventRecord = reinterpret_cast<R (*)(void *, void *)>(Syms[3]);
  Api.EventQuery = reinterpret_cast<R (*)(void *)>(Syms[4]);
  Api.EventDestroy = reinterpret_cast<R (*)(void *)>(Syms[5]);
  Api.StreamIsCapturing = reinterpret_cast<R (*)(void *, int *)>(Syms[6]);
  return true;
}
} // namespace

const DriverApi *lookUpDriverApi() {
  int S = State.load(std::memory_order_acquire);
  if (S == 1)
    return &Api;
  if (S != 0)
    return nullptr;
  const char *Env = std::getenv("DISTLINT_RT_EVENTS");
  if (Env && std::strcmp(Env, "0") == 0) {
    State.store(2);
    return nullptr;
  }
  static std::atomic<int> Resolving{0};
  if (Resolving.exchange(1))
    return nullptr;
  bool Ok = resolve();
  State.store(Ok ? 1 : 3, std::memory_order_release);
  Resolving.store(0);
  return Ok ? &Api : nullptr;
}

void retryDriverApi() {
  int Absent = 3;
  State.compare_exchange_strong(Absent, 0);
}

} // namespace rt
} // namespace distlint
