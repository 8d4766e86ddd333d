//===- RuntimeConfig.cpp - The preload library's settings and rank --------===//
//
// DISTLINT_RT_* settings and the launchers' rank variables, read once;
// logLine; the process's global rank (from the environment until a
// communicator tells it).
//
//===----------------------------------------------------------------------===//
#include "Runtime.h"
#include "Support.h"

#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace distlint {
namespace rt {
namespace {

int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  long N = std::strtol(V, &End, 10);
  return (End && *End == 0) ? int(N) : Default;
}

/// The first of Names that is set, as an int.
int firstEnvInt(std::initializer_list<const char *> Names, int Default) {
  for (const char *N : Names) {
    int V = envInt(N, INT32_MIN);
    if (V != INT32_MIN)
      return V;
  }
  return Default;
}

/// A setting that is set but not usable gets one line and its default.
void warnSetting(const char *Name, const char *Value, const char *Want,
                 const char *Default) {
  logLine("%s=%s is not %s; using the default (%s)", Name, Value, Want,
          Default);
}

/// A 0/1 switch.
bool envSwitch(const char *Name, bool Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  if (std::strcmp(V, "0") == 0 || std::strcmp(V, "1") == 0)
    return V[0] == '1';
  warnSetting(Name, V, "0 or 1", Default ? "1" : "0");
  return Default;
}

/// The launch's id: distlint-rt run's, else one every rank of the job can
/// derive from its launcher's job id, else 0 (unknown).
uint64_t readRunId() {
  if (const char *V = std::getenv("DISTLINT_RT_RUN_ID"); V && *V) {
    char *End = nullptr;
    uint64_t Id = std::strtoull(V, &End, 16);
    if (End && *End == 0 && Id)
      return Id;
    warnSetting("DISTLINT_RT_RUN_ID", V, "a non-zero hexadecimal id",
                "the job's id");
  }
  for (const char *Name :
       {"TORCHELASTIC_RUN_ID", "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid",
        "SLURM_JOB_ID", "PMI_ID_FILE"})
    if (const char *V = std::getenv(Name); V && *V) {
      uint64_t H =
          hashBytes(V, std::strlen(V), hashBytes(Name, std::strlen(Name)));
      if (const char *Step = std::getenv("SLURM_STEP_ID");
          Step && Name[0] == 'S')
        H = hashBytes(Step, std::strlen(Step), H);
      return H ? H : 1;
    }
  return 0;
}

Config readConfig() {
  Config C;
  if (const char *D = std::getenv("DISTLINT_RT_DIR"); D && *D)
    C.Dir = D;
  if (const char *T = std::getenv("DISTLINT_RT_TIMEOUT"); T && *T) {
    char *End = nullptr;
    double Seconds = std::strtod(T, &End);
    if (End && *End == 0 && Seconds > 0 && Seconds < 1e9)
      C.TimeoutNs = uint64_t(Seconds * 1e9);
    else
      warnSetting("DISTLINT_RT_TIMEOUT", T, "a number of seconds > 0", "300");
  }
  C.AbortOnHang = envSwitch("DISTLINT_RT_ABORT", false);
  C.Disabled = envSwitch("DISTLINT_RT_DISABLE", false);
  C.Live = envSwitch("DISTLINT_RT_LIVE", true);
  if (const char *R = std::getenv("DISTLINT_RT_RECORDS"); R && *R) {
    char *End = nullptr;
    long N = std::strtol(R, &End, 10);
    if (End && *End == 0 && N >= 64 && N <= (1l << 30))
      C.Records = uint32_t(N);
    else
      warnSetting("DISTLINT_RT_RECORDS", R, "a record count from 64 to 2^30",
                  "65536");
  }
  C.RunId = readRunId();
  // Launchers' conventions: torchrun / distlint-rt, Open MPI, PMIx, MPICH
  // (PMI), Slurm.
  C.EnvRank = firstEnvInt(
      {"RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"},
      -1);
  C.EnvWorldSize = firstEnvInt(
      {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}, 0);
  C.EnvLocalRank = firstEnvInt({"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                "MPI_LOCALRANKID", "SLURM_LOCALID"},
                               -1);
  return C;
}

std::atomic<int> KnownRank{-2}; // -2: not yet read from the environment.

} // namespace

const Config &config() {
  // Never destroyed: the watchdog thread and late hooks (other libraries'
  // exit handlers) read it while exit() runs the static destructors.
  static const Config &C = *new Config(readConfig());
  return C;
}

void logLine(const char *Format, ...) {
  char Buf[1024];
  int N = std::snprintf(Buf, sizeof(Buf), "distlint-rt: ");
  va_list Args;
  va_start(Args, Format);
  int M = std::vsnprintf(Buf + N, sizeof(Buf) - N - 1, Format, Args);
  va_end(Args);
  size_t Len =
      size_t(N) + (M < 0 ? 0 : std::min<size_t>(M, sizeof(Buf) - N - 2));
  Buf[Len++] = '\n';
  ssize_t Ignored = write(2, Buf, Len);
  (void)Ignored;
}

int globalRank() {
  int R = KnownRank.load(std::memory_order_relaxed);
  if (R == -2) {
    R = config().EnvRank;
    int Unset = -2;
    KnownRank.compare_exchange_strong(Unset, R);
  }
  return R;
}

void setGlobalRank(int Rank, int WorldSize) {
  KnownRank.store(Rank);
  if (TraceWriter *T = trace())
    T->setRank(Rank, WorldSize);
}

} // namespace rt
} // namespace distlint
