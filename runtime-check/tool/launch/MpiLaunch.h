//===- MpiLaunch.h - How distlint-rt run starts an MPI job ------*- C++ -*-===//
//
// An MPI program started N times by fork/exec is N singletons ("rank 0 of
// 1" each), never one job: `run` must go through the MPI launcher. This
// decides how a command is launched and builds the launcher's command line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace distlint {
namespace rt {

enum class LaunchKind {
  Ranks,        ///< Fork N ranks, torchrun-style (NCCL, Gloo, ...).
  MpiProgram,   ///< The program links libmpi: start it with mpirun -np N.
  LauncherChild ///< The command is mpirun/mpiexec/srun itself: start it once.
};

/// Launcher names (basename of the command) that start a whole job.
bool isJobLauncher(const std::string &Command);

/// True when the ELF file at Path names a libmpi* library in DT_NEEDED.
bool linksMpi(const std::string &Path);

LaunchKind classifyCommand(const std::vector<std::string> &Command,
                           const std::string &ResolvedProgram);

/// What a job launcher needs so its ranks get the recorder's environment.
struct MpiLauncher {
  std::string Path;     ///< mpirun found on PATH, empty if none.
  bool OpenMpi = false; ///< Understands -x NAME, --oversubscribe.
};
MpiLauncher findMpiLauncher();
/// Whether the launcher at Path is Open MPI's (`--version` says so).
bool isOpenMpiLauncher(const std::string &Path);

/// Environment variables the ranks need (exported with -x by Open MPI).
extern const char *const kRankEnvironment[];

/// mpirun -np N [--allow-run-as-root] --oversubscribe -x VAR... PROGRAM...
std::vector<std::string> mpirunCommand(const std::string &Mpirun, int NProc,
                                       const std::vector<std::string> &Program);
/// Adds -x VAR for each rank variable after an Open MPI launcher's argv[0].
std::vector<std::string> withExports(const std::vector<std::string> &Launcher);

/// The one line shown when distlint-rt cannot start the job itself.
std::string mpirunHint(int NProc, const std::string &Preload,
                       const std::string &OutDir, double TimeoutSeconds,
                       const std::vector<std::string> &Program);

} // namespace rt
} // namespace distlint
