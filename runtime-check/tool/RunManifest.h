//===- RunManifest.h - What a launch hands to its report --------*- C++ -*-===//
//
// `distlint-rt run` writes run.json beside the traces (how each rank ended,
// the timeout, whether a hang was confirmed); `distlint-rt report` reads it.
// The one file both pipelines (launch/, report/) share.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

/// How each rank's process ended, as the launcher saw it (run.json).
struct RankExit {
  int Rank = -1;
  int Pid = 0;
  bool Exited = false; ///< Ended on its own (exit code valid).
  int ExitCode = 0;
  int Signal = 0;
  bool KilledByLauncher = false;
};

struct RunManifest {
  int NProc = 0;
  std::string Program;
  double TimeoutSeconds = 0;
  bool HangConfirmed = false;
  bool LiveDivergence = false; ///< A watchdog reported one while the job ran.
  uint64_t RunId = 0;          ///< The traces of this launch carry it.
  std::string Launcher;        ///< "ranks", "mpirun" or "launcher".
  std::vector<RankExit> Ranks;
  const RankExit *forRank(int Rank) const;
};
bool readManifest(const std::string &Path, RunManifest &Out,
                  std::string &Error);
bool writeManifest(const std::string &Path, const RunManifest &M,
                   std::string &Error);
/// Writes Text to Path, created 0600 (like the traces), replacing it whole.
bool writePrivateFile(const std::string &Path, const std::string &Text,
                      std::string &Error);

} // namespace rt
} // namespace distlint
