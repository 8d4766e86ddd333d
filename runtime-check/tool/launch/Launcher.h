//===- Launcher.h - distlint-rt run: a single-node launcher -----*- C++ -*-===//
//
// Starts N ranks of a program the way torchrun does (RANK, WORLD_SIZE,
// LOCAL_RANK, MASTER_ADDR, MASTER_PORT), with the preload library, watches
// them, and ends them all once a hang is confirmed: a rank's watchdog
// reported one and every other live rank did too, or a grace period passed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "MpiLaunch.h"
#include "RunManifest.h"

#include <string>
#include <vector>

namespace distlint {
namespace rt {

struct LaunchOptions {
  int NProc = 0;
  double TimeoutSeconds = 60; ///< DISTLINT_RT_TIMEOUT for the ranks.
  double GraceSeconds = 2;    ///< After the first hang report.
  double MaxSeconds = 0;      ///< Whole-run limit; 0 = none.
  bool AbortOnHang = false;   ///< DISTLINT_RT_ABORT=1.
  std::string OutDir = "distlint-rt-traces";
  std::string LogDir; ///< Per-rank stdout/stderr files, if set.
  std::string PreloadLibrary;
  std::vector<std::string> Command;
  /// LauncherChild: Command is a job launcher (mpirun ...) started once; its
  /// ranks are known from their traces, not as children.
  LaunchKind Kind = LaunchKind::Ranks;
  uint64_t RunId = 0; ///< 0: a fresh random id.
};

struct LaunchResult {
  RunManifest Manifest;
  std::string Error;     ///< Set when the ranks could not be started.
  RankExit LauncherExit; ///< LauncherChild: how mpirun/srun ended.
};

LaunchResult launchRanks(const LaunchOptions &Options);

/// libdistlint-rt.so next to the executable (../lib or same dir), or
/// $DISTLINT_RT_LIB.
std::string findPreloadLibrary(const std::string &Argv0);

/// A fresh id for a launch (never 0).
uint64_t newRunId();

/// Removes trace files and run.json left by an earlier run in Dir.
void clearTraceDir(const std::string &Dir);

} // namespace rt
} // namespace distlint
