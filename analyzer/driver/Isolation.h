//===- Isolation.h - Each translation unit in its own process ---*- C++ -*-===//
//
// A TU that crashes Clang's parser or the engine (SIGSEGV, stack overflow,
// an LLVM fatal error or assertion, the OOM killer) must cost the run that
// TU only. In-process recovery cannot promise that: a crash in another
// thread, a corrupted heap or an overflowed stack takes the whole process
// down. So every TU runs in a forked child; its result comes back serialized
// (input/ResultSerialization.h) over a pipe, and a child that dies becomes
// an error entry for its file ("analysis crashed: SIGSEGV; ...").
//
// fork() is cheap here: the parent has parsed nothing yet, so the child
// shares only the loaded libraries and the compile database (copy-on-write).
// The children's stderr (LLVM's stack dump on a crash) is captured; with a
// crash-report directory it is saved beside the compile command.
//
// Each child also gets an address-space limit (RLIMIT_AS): a TU whose
// analysis would grow without bound fails alone, with a one-line error,
// before the machine's out-of-memory killer picks a victim.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "input/ResultSerialization.h"

#include <cstddef>
#include <functional>
#include <string>

namespace distlint {

struct IsolationOptions {
  /// Children running at once (at least 1).
  unsigned Parallel = 1;
  /// Where to save a report per crashed TU (created if needed); empty: the
  /// error message tells the user how to get one.
  std::string CrashReportDir;
  /// The address-space limit of task Index's process in bytes (0: none).
  /// Not applied in sanitized builds, whose shadow memory needs the space.
  std::function<unsigned long long(size_t Index)> MemoryLimitOf;
  /// Called in the parent after each TU finished (crashed or not), with
  /// its result, before the next child is forked.
  std::function<void(size_t Index, const TranslationUnitResult &Result)> OnDone;
};

/// What the parent knows about task Index when it has to describe a crash.
struct IsolatedTask {
  std::string File;        ///< The TU's main file (for the error entry).
  std::string CommandLine; ///< For the crash report.
};

/// Runs Work(I) for every I in [0, Count), each in a child process, at most
/// Opts.Parallel at once, and returns the results in index order. A child
/// that does not deliver a well-formed result yields one FileError for
/// Describe(I).File. Work runs in the child only; it must not rely on state
/// it changes in the parent. If fork() itself fails, Work runs in-process.
std::vector<TranslationUnitResult>
runIsolated(size_t Count,
            const std::function<TranslationUnitResult(size_t)> &Work,
            const std::function<IsolatedTask(size_t)> &Describe,
            const IsolationOptions &Opts);

/// "SIGSEGV", "SIGABRT", ... ("signal 42" for unnamed ones).
std::string signalName(int Signal);

/// The default -j: the cores, but no more TUs at once than the available
/// memory holds (MemAvailable of /proc/meminfo over PerJobBytes), at least 1.
unsigned defaultParallelism(unsigned long long PerJobBytes);

/// The default address-space limit of one TU: half the physical memory
/// (at least 1 GiB).
unsigned long long defaultTuMemoryLimit();

/// "1.5 GiB", "800 MiB".
std::string formatBytes(unsigned long long Bytes);

/// Memory budget of one TU for defaultParallelism: a LibTorch TU peaks at
/// about 0.7 GB.
constexpr unsigned long long BytesPerTranslationUnit = 700ull << 20;

} // namespace distlint
