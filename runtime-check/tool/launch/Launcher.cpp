//===- Launcher.cpp - distlint-rt run: a single-node launcher
//--------------===//
#include "Launcher.h"
#include "TraceReader.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace distlint {
namespace rt {

namespace {

volatile sig_atomic_t Interrupted = 0;
void onSignal(int) { Interrupted = 1; }

double nowSeconds() {
  timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return double(Ts.tv_sec) + double(Ts.tv_nsec) / 1e9;
}

bool makeDirs(const std::string &Dir) {
  std::string Partial;
  size_t Pos = 0;
  while (Pos != std::string::npos) {
    Pos = Dir.find('/', Pos + 1);
    Partial = Dir.substr(0, Pos);
    if (!Partial.empty() && mkdir(Partial.c_str(), 0700) != 0 &&
        errno != EEXIST)
      return false;
  }
  return true;
}

std::string absolutePath(const std::string &Path) {
  if (!Path.empty() && Path[0] == '/')
    return Path;
  char Buf[4096];
  return std::string(getcwd(Buf, sizeof(Buf)) ? Buf : ".") + "/" + Path;
}

int freePort() {
  int Fd = socket(AF_INET, SOCK_STREAM, 0);
  if (Fd < 0)
    return 29500;
  sockaddr_in Addr{};
  Addr.sin_family = AF_INET;
  Addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  Addr.sin_port = 0;
  socklen_t Len = sizeof(Addr);
  int Port = 29500;
  if (bind(Fd, reinterpret_cast<sockaddr *>(&Addr), sizeof(Addr)) == 0 &&
      getsockname(Fd, reinterpret_cast<sockaddr *>(&Addr), &Len) == 0)
    Port = ntohs(Addr.sin_port);
  close(Fd);
  return Port;
}

struct Child {
  int Rank;
  pid_t Pid;
  bool Running = true;
  RankExit Exit;
};

/// What the launcher watches in each trace of this launch.
struct RankView {
  int Rank = -1;
  int Pid = 0;
  uint32_t HangCount = 0;
  uint32_t MismatchCount = 0;
  bool Exited = false;
};

/// The traces of run RunId in Dir (the launcher polls these headers).
std::vector<RankView> rankViews(const std::string &Dir, uint64_t RunId) {
  std::vector<RankView> Views;
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return Views;
  while (dirent *E = readdir(D)) {
    std::string Name = E->d_name;
    if (Name.rfind("distlint-rt.", 0) != 0 || Name.size() < 7 ||
        Name.compare(Name.size() - 6, 6, ".trace") != 0)
      continue;
    TraceHeaderPeek P;
    if (!peekTraceHeader(Dir + "/" + Name, P) || P.RunId != RunId)
      continue;
    Views.push_back({P.Rank, P.Pid, P.HangCount, P.MismatchCount,
                     (P.Flags & HeaderExited) != 0});
  }
  closedir(D);
  return Views;
}

/// Ranks a job launcher started on this machine: their processes are not
/// our children, so they are ended by pid once the launcher is.
void endRankProcesses(const std::vector<RankView> &Views, int Sig) {
  for (const RankView &V : Views)
    if (!V.Exited && V.Pid > 0 && V.Pid != getpid())
      kill(V.Pid, Sig);
}

/// distlint-rt-python/ beside the preload library (its last path, after a
/// sanitizer runtime), if it holds the startup hook.
std::string pythonHookDir(const std::string &Preload) {
  std::string Library = Preload.substr(Preload.rfind(':') + 1);
  size_t Slash = Library.rfind('/');
  std::string Dir = (Slash == std::string::npos ? std::string(".")
                                                : Library.substr(0, Slash)) +
                    "/distlint-rt-python";
  struct stat St;
  return stat((Dir + "/sitecustomize.py").c_str(), &St) == 0 ? absolutePath(Dir)
                                                             : "";
}

[[noreturn]] void execRank(const LaunchOptions &O, int Rank, int Port,
                           const std::string &OutDir) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL); // Do not outlive the launcher.
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  auto Set = [](const char *K, const std::string &V) {
    setenv(K, V.c_str(), 1);
  };
  if (O.Kind == LaunchKind::Ranks) {
    // A job launcher's ranks get theirs from it (RANK=0 would mislead them).
    Set("RANK", std::to_string(Rank));
    Set("LOCAL_RANK", std::to_string(Rank));
    Set("WORLD_SIZE", std::to_string(O.NProc));
    Set("LOCAL_WORLD_SIZE", std::to_string(O.NProc));
    Set("GROUP_RANK", "0");
    Set("MASTER_ADDR", "127.0.0.1");
    Set("MASTER_PORT", std::to_string(Port));
  }
  Set("DISTLINT_RT_DIR", OutDir);
  Set("DISTLINT_RT_LAUNCHED", "1"); // This launcher ends the job, not the rank.
  char RunId[32];
  std::snprintf(RunId, sizeof(RunId), "%016llx", (unsigned long long)O.RunId);
  Set("DISTLINT_RT_RUN_ID", RunId);
  char Timeout[64];
  std::snprintf(Timeout, sizeof(Timeout), "%g", O.TimeoutSeconds);
  Set("DISTLINT_RT_TIMEOUT", Timeout);
  Set("DISTLINT_RT_ABORT", O.AbortOnHang ? "1" : "0");
  const char *Old = std::getenv("LD_PRELOAD");
  Set("LD_PRELOAD",
      O.PreloadLibrary + (Old && *Old ? std::string(":") + Old : ""));
  // The Python startup hook, first on PYTHONPATH (it runs the user's own
  // sitecustomize after itself; programs that are not Python ignore it).
  std::string Hook = pythonHookDir(O.PreloadLibrary);
  if (!Hook.empty()) {
    const char *OldPath = std::getenv("PYTHONPATH");
    Set("PYTHONPATH",
        Hook + (OldPath && *OldPath ? std::string(":") + OldPath : ""));
  }
  if (!O.LogDir.empty()) {
    std::string Base = O.LogDir + "/rank" + std::to_string(Rank);
    int Out = open((Base + ".out").c_str(),
                   O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int Err = open((Base + ".err").c_str(),
                   O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (Out >= 0)
      dup2(Out, 1);
    if (Err >= 0)
      dup2(Err, 2);
  }
  std::vector<char *> Argv;
  for (const std::string &A : O.Command)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  execvp(Argv[0], Argv.data());
  std::fprintf(stderr, "distlint-rt: cannot run %s: %s\n", Argv[0],
               std::strerror(errno));
  _exit(127);
}

void reap(std::vector<Child> &Children) {
  for (;;) {
    int Status = 0;
    pid_t Pid = waitpid(-1, &Status, WNOHANG);
    if (Pid <= 0)
      return;
    for (Child &C : Children)
      if (C.Pid == Pid && C.Running) {
        C.Running = false;
        C.Exit.Exited = WIFEXITED(Status);
        C.Exit.ExitCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : 0;
        C.Exit.Signal = WIFSIGNALED(Status) ? WTERMSIG(Status) : 0;
      }
  }
}

void killAll(std::vector<Child> &Children) {
  for (Child &C : Children)
    if (C.Running) {
      C.Exit.KilledByLauncher = true;
      kill(-C.Pid, SIGTERM);
    }
  double Deadline = nowSeconds() + 1.0;
  for (;;) {
    reap(Children);
    bool Any = false;
    for (Child &C : Children)
      Any |= C.Running;
    if (!Any)
      return;
    if (nowSeconds() > Deadline)
      break;
    usleep(20000);
  }
  for (Child &C : Children)
    if (C.Running)
      kill(-C.Pid, SIGKILL);
  for (Child &C : Children)
    if (C.Running) {
      int Status;
      waitpid(C.Pid, &Status, 0);
      C.Running = false;
      C.Exit.Signal = WIFSIGNALED(Status) ? WTERMSIG(Status) : SIGKILL;
    }
}

} // namespace

void clearTraceDir(const std::string &Dir) {
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return;
  std::vector<std::string> Doomed;
  while (dirent *E = readdir(D)) {
    std::string Name = E->d_name;
    if ((Name.rfind("distlint-rt.", 0) == 0 && Name.size() > 6 &&
         Name.compare(Name.size() - 6, 6, ".trace") == 0) ||
        Name == "run.json")
      Doomed.push_back(Dir + "/" + Name);
  }
  closedir(D);
  for (const std::string &P : Doomed)
    unlink(P.c_str());
}

uint64_t newRunId() {
  uint64_t Id = 0;
  int Fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (Fd >= 0) {
    if (read(Fd, &Id, sizeof(Id)) != ssize_t(sizeof(Id)))
      Id = 0;
    close(Fd);
  }
  if (!Id) {
    timespec Ts;
    clock_gettime(CLOCK_REALTIME, &Ts);
    Id = (uint64_t(Ts.tv_sec) << 20) ^ uint64_t(Ts.tv_nsec) ^
         (uint64_t(getpid()) << 40);
  }
  return Id ? Id : 1;
}

namespace {
/// ld.so splits LD_PRELOAD at spaces and colons, with no escape: a library
/// under such a path (a package unpacked into "My Tools/") is preloaded
/// through links in a fresh directory of /tmp instead. Both libraries are
/// linked: the recorder finds libdistlint-rt-torch.so beside itself. The
/// links stay (two symlinks), so ranks that start late still find them.
std::string preloadablePath(const std::string &Library) {
  if (Library.find_first_of(" :") == std::string::npos)
    return Library;
  char Dir[] = "/tmp/distlint-rt-lib-XXXXXX";
  if (!mkdtemp(Dir))
    return Library;
  std::string LibDir = Library.substr(0, Library.rfind('/') + 1);
  for (const char *Name : {"libdistlint-rt.so", "libdistlint-rt-torch.so"}) {
    std::string Target = LibDir + Name;
    if (access(Target.c_str(), R_OK) == 0)
      symlink(Target.c_str(), (std::string(Dir) + "/" + Name).c_str());
  }
  return std::string(Dir) + "/libdistlint-rt.so";
}
} // namespace

std::string findPreloadLibrary(const std::string &Argv0) {
  if (const char *Env = std::getenv("DISTLINT_RT_LIB"))
    return Env;
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  std::string Exe = N > 0 ? std::string(Buf, size_t(N)) : Argv0;
  std::string Dir = Exe.substr(0, Exe.rfind('/'));
  for (const std::string &Candidate :
       {Dir + "/../lib/libdistlint-rt.so", Dir + "/libdistlint-rt.so"})
    if (access(Candidate.c_str(), R_OK) == 0) {
      char Real[4096];
      std::string Library =
          preloadablePath(realpath(Candidate.c_str(), Real) ? Real : Candidate);
#ifdef DLRT_SANITIZER_RUNTIME
      // A sanitized build: the runtime must come first in every process the
      // library is preloaded into, instrumented or not.
      Library = std::string(DLRT_SANITIZER_RUNTIME) + ":" + Library;
#endif
      return Library;
    }
  return "";
}

LaunchResult launchRanks(const LaunchOptions &Options) {
  LaunchOptions O = Options;
  if (!O.RunId)
    O.RunId = newRunId();
  const bool ViaLauncher = O.Kind == LaunchKind::LauncherChild;
  LaunchResult Result;
  Result.Manifest.RunId = O.RunId;
  Result.Manifest.Launcher = ViaLauncher ? "launcher" : "ranks";
  Result.Manifest.NProc = O.NProc;
  Result.Manifest.TimeoutSeconds = O.TimeoutSeconds;
  for (const std::string &A : O.Command)
    Result.Manifest.Program += (Result.Manifest.Program.empty() ? "" : " ") + A;
  std::string OutDir = absolutePath(O.OutDir);
  if (!makeDirs(OutDir)) {
    Result.Error = "cannot create " + OutDir + ": " + std::strerror(errno);
    return Result;
  }
  if (!O.LogDir.empty() && !makeDirs(O.LogDir)) {
    Result.Error = "cannot create " + O.LogDir + ": " + std::strerror(errno);
    return Result;
  }
  clearTraceDir(OutDir);
  int Port = freePort();

  struct sigaction Sa {};
  Sa.sa_handler = onSignal;
  sigaction(SIGINT, &Sa, nullptr);
  sigaction(SIGTERM, &Sa, nullptr);

  std::vector<Child> Children;
  const int Processes =
      ViaLauncher ? 1 : O.NProc; // mpirun starts the ranks itself.
  for (int Rank = 0; Rank < Processes; ++Rank) {
    pid_t Pid = fork();
    if (Pid < 0) {
      Result.Error = std::string("fork failed: ") + std::strerror(errno);
      killAll(Children);
      return Result;
    }
    if (Pid == 0)
      execRank(O, Rank, Port, OutDir);
    setpgid(Pid, Pid);
    Child C;
    C.Rank = Rank;
    C.Pid = Pid;
    C.Exit.Rank = Rank;
    C.Exit.Pid = Pid;
    Children.push_back(C);
  }

  const double Start = nowSeconds();
  double FirstHang = 0, FirstFailure = 0, FirstMismatch = 0;
  std::vector<RankView> Views;
  auto EndJob = [&] {
    killAll(Children);
    if (ViaLauncher) { // The launcher is gone; its ranks may not be.
      endRankProcesses(rankViews(OutDir, O.RunId), SIGKILL);
    }
  };
  for (;;) {
    reap(Children);
    size_t LiveChildren = 0;
    for (const Child &C : Children)
      LiveChildren += C.Running;
    if (LiveChildren == 0)
      break;
    double Now = nowSeconds();
    if (Interrupted) {
      std::fprintf(stderr, "distlint-rt: interrupted; ending the ranks\n");
      EndJob();
      break;
    }
    Views = rankViews(OutDir, O.RunId);
    // Ranks are our children, or (through a job launcher) whoever wrote a
    // trace of this launch.
    size_t Live = 0, LiveHung = 0;
    bool AnyHang = false, AnyMismatch = false;
    if (ViaLauncher) {
      for (const RankView &V : Views) {
        AnyHang |= V.HangCount > 0;
        AnyMismatch |= V.MismatchCount > 0;
        Live += !V.Exited;
        LiveHung += !V.Exited && V.HangCount > 0;
      }
    } else {
      for (const Child &C : Children) {
        bool Hung = false;
        for (const RankView &V : Views)
          if (V.Pid == C.Pid) {
            Hung = V.HangCount > 0;
            AnyMismatch |= V.MismatchCount > 0;
          }
        AnyHang |= Hung;
        Live += C.Running;
        LiveHung += Hung && C.Running;
      }
    }
    if (AnyHang && FirstHang == 0)
      FirstHang = Now;
    if (AnyMismatch && FirstMismatch == 0) {
      FirstMismatch = Now;
      Result.Manifest.LiveDivergence = true;
      std::fprintf(
          stderr,
          "distlint-rt: a rank reported a divergence while the job runs "
          "(%.1f s after start)%s\n",
          Now - Start, O.AbortOnHang ? "; ending the job" : "");
    }
    for (const Child &C : Children)
      if (!C.Running && (!C.Exit.Exited || C.Exit.ExitCode != 0) &&
          FirstFailure == 0)
        FirstFailure = Now;
    bool Confirmed = FirstHang > 0 &&
                     (LiveHung == Live || Now - FirstHang >= O.GraceSeconds);
    // A live divergence ends the job with --abort once the other ranks'
    // watchdogs had a moment to write their side.
    bool Diverged =
        O.AbortOnHang && FirstMismatch > 0 && Now - FirstMismatch >= 0.3;
    bool FailedLong = FirstFailure > 0 &&
                      Now - FirstFailure >= O.TimeoutSeconds + O.GraceSeconds;
    bool TooLong = O.MaxSeconds > 0 && Now - Start >= O.MaxSeconds;
    if (Confirmed || Diverged || FailedLong || TooLong) {
      if (Confirmed)
        Result.Manifest.HangConfirmed = true;
      std::fprintf(stderr,
                   "distlint-rt: %s; ending the remaining %zu rank(s)\n",
                   Confirmed    ? "hang confirmed"
                   : Diverged   ? "divergence confirmed"
                   : FailedLong ? "a rank failed and the others did not finish"
                                : "--max-time reached",
                   Live);
      EndJob();
      break;
    }
    usleep(50000);
  }
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (!ViaLauncher)
    for (const Child &C : Children)
      Result.Manifest.Ranks.push_back(C.Exit);
  else
    Result.LauncherExit = Children.front().Exit;
  std::string Error;
  if (!writeManifest(OutDir + "/run.json", Result.Manifest, Error))
    std::fprintf(stderr, "distlint-rt: %s\n", Error.c_str());
  return Result;
}

} // namespace rt
} // namespace distlint
