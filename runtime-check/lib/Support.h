//===- Support.h - Small helpers of the preload library ---------*- C++ -*-===//
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <ctime>

#define DLRT_TLS __thread __attribute__((tls_model("initial-exec")))
#define DLRT_LIKELY(X) __builtin_expect(!!(X), 1)
#define DLRT_UNLIKELY(X) __builtin_expect(!!(X), 0)

#if defined(__SANITIZE_THREAD__)
#define DLRT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DLRT_TSAN 1
#endif
#endif
#ifndef DLRT_TSAN
#define DLRT_TSAN 0
#endif

namespace distlint {
namespace rt {

/// The vDSO's clock_gettime, found when the library is loaded; null until
/// then or without a vDSO (valgrind). Calling it directly skips glibc's
/// wrapper, a third of a coarse clock read.
using ClockGettimeFn = int (*)(clockid_t, timespec *);
extern std::atomic<ClockGettimeFn> VdsoClockGettime;

/// Timestamps of records and pending operations. The coarse clock (a few
/// milliseconds of resolution) is enough to time hangs and order
/// divergences, and it avoids reading the TSC, which costs 150 ns on the
/// virtual machines CI runs on.
inline uint64_t monotonicNs() {
  timespec Ts;
  ClockGettimeFn Vdso = VdsoClockGettime.load(std::memory_order_relaxed);
  if (DLRT_UNLIKELY(!Vdso || Vdso(CLOCK_MONOTONIC_COARSE, &Ts) != 0))
    clock_gettime(CLOCK_MONOTONIC_COARSE, &Ts);
  return uint64_t(Ts.tv_sec) * 1000000000ull + uint64_t(Ts.tv_nsec);
}

/// Nanoseconds from Start to Now; 0 when Start is later (a record stamped
/// by another thread, or another rank, after Now was read).
inline uint64_t elapsedNs(uint64_t Now, uint64_t Start) {
  return Now > Start ? Now - Start : 0;
}

inline uint64_t realtimeNs() {
  timespec Ts;
  clock_gettime(CLOCK_REALTIME, &Ts);
  return uint64_t(Ts.tv_sec) * 1000000000ull + uint64_t(Ts.tv_nsec);
}

/// One line on stderr, prefixed "distlint-rt: ", written with a single
/// write(2) so ranks' lines do not interleave. No allocation.
void logLine(const char *Format, ...) __attribute__((format(printf, 1, 2)));

/// 64-bit FNV-1a, for communicator ids derived from shared bytes.
inline uint64_t hashBytes(const void *Data, unsigned long Size,
                          uint64_t Seed = 0xcbf29ce484222325ull) {
  const auto *P = static_cast<const unsigned char *>(Data);
  uint64_t H = Seed;
  for (unsigned long I = 0; I < Size; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull;
  }
  return H;
}
inline uint64_t hashMix(uint64_t A, uint64_t B) {
  uint64_t Parts[2] = {A, B};
  return hashBytes(Parts, sizeof(Parts));
}

/// Reentrancy guard: libraries call their own exported entry points (libnccl
/// calls ncclGroupStart inside ncclCommInitAll, ...); only the outermost call
/// of a thread is recorded.
extern DLRT_TLS int HookDepth;
struct HookScope {
  HookScope() { ++HookDepth; }
  ~HookScope() { --HookDepth; }
  HookScope(const HookScope &) = delete;
  HookScope &operator=(const HookScope &) = delete;
};
inline bool insideHook() { return HookDepth != 0; }

/// Keeps the errno the real call left for the program, whatever the
/// recording after it does. Declare it right after the real call.
struct ErrnoKeeper {
  int Saved;
  ErrnoKeeper() : Saved(errno) {}
  ~ErrnoKeeper() { errno = Saved; }
  ErrnoKeeper(const ErrnoKeeper &) = delete;
  ErrnoKeeper &operator=(const ErrnoKeeper &) = delete;
};

} // namespace rt
} // namespace distlint
