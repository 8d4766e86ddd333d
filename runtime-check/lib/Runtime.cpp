//===- Runtime.cpp - The trace's life cycle -----------------------------===//
//
// The trace is opened on the first recorded call (and the watchdog started),
// its last records written at exit, and a forked child starts its own.
// Operations in flight: Pending.cpp (the table: PendingTable.h); the
// watchdog: Watchdog.cpp; settings: RuntimeConfig.cpp; communicators:
// Communicators.cpp.
//
//===----------------------------------------------------------------------===//
#include "Runtime.h"
#include "DriverApi.h"
#include "PendingTable.h"
#include "Support.h"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

DLRT_TLS int HookDepth;
std::atomic<TraceWriter *> CurrentTrace{nullptr};
std::atomic<ClockGettimeFn> VdsoClockGettime{nullptr};

namespace {
__attribute__((constructor)) void findVdsoClock() {
  void *Vdso = dlopen("linux-vdso.so.1", RTLD_NOLOAD | RTLD_LAZY);
  if (!Vdso)
    return;
  void *Fn = dlsym(Vdso, "__vdso_clock_gettime"); // x86-64
  if (!Fn)
    Fn = dlsym(Vdso, "__kernel_clock_gettime"); // AArch64
  VdsoClockGettime.store(reinterpret_cast<ClockGettimeFn>(Fn),
                         std::memory_order_relaxed);
}
} // namespace

namespace {

std::mutex TraceMu;
std::atomic<int> TraceFailed{0};
int ForkParentPid = 0; ///< Set in a child forked from a rank.

void mirrorModule(uint32_t Index, const char *Path) {
  if (TraceWriter *T = traceIfOpen())
    T->writeModule(Index, Path);
}

void recordExit() {
  TraceWriter *T = traceIfOpen();
  if (!T)
    return;
  {
    // Operations that finished since the watchdog last looked.
    HookScope Guard;
    pollOnce(*T, monotonicNs(), driverApi());
  }
  appendSimpleRecord(*T, RecordKind::ProcessExit, nullptr, nullptr,
                     monotonicNs());
  T->header().Flags.fetch_or(HeaderExited);
}

void afterForkInChild() {
  // The child gets its own trace (its pid) on first use; the parent's
  // pending operations and the watchdog thread did not come along.
  ForkParentPid = int(getppid());
  CurrentTrace.store(nullptr);
  TraceFailed.store(0);
  resetWatchdogAfterFork();
  resetPendingAfterFork();
  new (&TraceMu) std::mutex();
}

} // namespace

TraceWriter *openTrace() {
  TraceWriter *T = traceIfOpen();
  if (T)
    return T;
  if (config().Disabled || TraceFailed.load())
    return nullptr;
  std::lock_guard<std::mutex> Lock(TraceMu);
  if ((T = traceIfOpen()))
    return T;
  TraceOptions Options;
  Options.Dir = config().Dir;
  Options.Records = config().Records;
  Options.TimeoutNs = config().TimeoutNs;
  Options.Rank = globalRank();
  Options.WorldSize = config().EnvWorldSize;
  Options.LocalRank = config().EnvLocalRank;
  Options.RunId = config().RunId;
  Options.ForkParentPid = ForkParentPid;
  std::string Error;
  T = TraceWriter::create(Options, Error);
  if (!T) {
    TraceFailed.store(1);
    logLine("%s; recording disabled, calls pass through", Error.c_str());
    return nullptr;
  }
  static std::atomic<int> HandlersInstalled{0};
  if (!HandlersInstalled.exchange(1)) {
    std::atexit(recordExit);
    pthread_atfork(nullptr, nullptr, afterForkInChild);
  }
  setModuleListener(mirrorModule);
  std::vector<std::string> Modules = knownModulePaths();
  for (size_t I = 0; I < Modules.size(); ++I)
    T->writeModule(uint32_t(I), Modules[I].c_str());
  CurrentTrace.store(T, std::memory_order_release);
  startWatchdog();
  return T;
}

} // namespace rt
} // namespace distlint
