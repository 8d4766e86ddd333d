//===- RunManifest.cpp - What a launch hands to its report ----------------===//
#include "RunManifest.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace distlint {
namespace rt {

using nlohmann::json;

const RankExit *RunManifest::forRank(int Rank) const {
  for (const RankExit &E : Ranks)
    if (E.Rank == Rank)
      return &E;
  return nullptr;
}

bool readManifest(const std::string &Path, RunManifest &Out,
                  std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": cannot open";
    return false;
  }
  json J = json::parse(In, nullptr, /*allow_exceptions=*/false);
  if (!J.is_object()) {
    Error = Path + ": not a distlint-rt run manifest";
    return false;
  }
  Out = RunManifest();
  Out.NProc = J.value("nproc", 0);
  Out.Program = J.value("program", "");
  Out.TimeoutSeconds = J.value("timeout_seconds", 0.0);
  Out.HangConfirmed = J.value("hang_confirmed", false);
  Out.LiveDivergence = J.value("live_divergence", false);
  Out.Launcher = J.value("launcher", "");
  try {
    Out.RunId = std::stoull(J.value("run_id", std::string("0")), nullptr, 16);
  } catch (...) {
    Out.RunId = 0;
  }
  if (J.contains("ranks") && J["ranks"].is_array())
    for (const json &R : J["ranks"]) {
      RankExit E;
      E.Rank = R.value("rank", -1);
      E.Pid = R.value("pid", 0);
      E.Exited = R.value("exited", false);
      E.ExitCode = R.value("exit_code", 0);
      E.Signal = R.value("signal", 0);
      E.KilledByLauncher = R.value("killed_by_launcher", false);
      Out.Ranks.push_back(E);
    }
  return true;
}

bool writeManifest(const std::string &Path, const RunManifest &M,
                   std::string &Error) {
  json J;
  J["nproc"] = M.NProc;
  J["program"] = M.Program;
  J["timeout_seconds"] = M.TimeoutSeconds;
  J["hang_confirmed"] = M.HangConfirmed;
  J["live_divergence"] = M.LiveDivergence;
  J["launcher"] = M.Launcher;
  char Id[32];
  std::snprintf(Id, sizeof(Id), "%016llx", (unsigned long long)M.RunId);
  J["run_id"] = Id;
  J["ranks"] = json::array();
  for (const RankExit &E : M.Ranks)
    J["ranks"].push_back({{"rank", E.Rank},
                          {"pid", E.Pid},
                          {"exited", E.Exited},
                          {"exit_code", E.ExitCode},
                          {"signal", E.Signal},
                          {"killed_by_launcher", E.KilledByLauncher}});
  return writePrivateFile(Path, J.dump(2) + "\n", Error);
}

bool writePrivateFile(const std::string &Path, const std::string &Text,
                      std::string &Error) {
  std::string Tmp = Path + ".tmp" + std::to_string(getpid());
  int Fd = open(Tmp.c_str(),
                O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  bool Ok = Fd >= 0;
  size_t Done = 0;
  while (Ok && Done < Text.size()) {
    ssize_t N = write(Fd, Text.data() + Done, Text.size() - Done);
    Ok = N > 0;
    Done += N > 0 ? size_t(N) : 0;
  }
  if (Fd >= 0)
    Ok = (fchmod(Fd, 0600) == 0) & (close(Fd) == 0) & Ok;
  if (Ok && rename(Tmp.c_str(), Path.c_str()) == 0)
    return true;
  Error = Path + ": cannot write: " + std::strerror(errno);
  unlink(Tmp.c_str());
  return false;
}

} // namespace rt
} // namespace distlint
