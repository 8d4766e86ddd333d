//===- Isolation.cpp - fork a child per translation unit ------------------===//
#include "Isolation.h"
#include "report/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>
#include <poll.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace distlint {

std::string signalName(int Signal) {
  if (const char *Abbrev = sigabbrev_np(Signal))
    return std::string("SIG") + Abbrev;
  return "signal " + std::to_string(Signal);
}

unsigned defaultParallelism(unsigned long long PerJobBytes) {
  unsigned Cores =
      std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  std::ifstream MemInfo("/proc/meminfo");
  std::string Key;
  unsigned long long KiB = 0;
  std::string Unit;
  while (MemInfo >> Key >> KiB >> Unit) {
    if (Key == "MemAvailable:") {
      unsigned long long Fit = KiB * 1024 / std::max(1ull, PerJobBytes);
      return static_cast<unsigned>(std::max<unsigned long long>(
          1, std::min<unsigned long long>(Cores, Fit)));
    }
  }
  return Cores; // No /proc/meminfo: cores only.
}

unsigned long long defaultTuMemoryLimit() {
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  unsigned long long Physical =
      Pages > 0 && PageSize > 0 ? (unsigned long long)Pages * PageSize : 0;
  return std::max(Physical / 2, 1ull << 30);
}

std::string formatBytes(unsigned long long Bytes) {
  char Buf[32];
  if (Bytes >= (1ull << 30))
    std::snprintf(Buf, sizeof(Buf), "%.1f GiB", Bytes / double(1ull << 30));
  else
    std::snprintf(Buf, sizeof(Buf), "%llu MiB", Bytes >> 20);
  return Buf;
}

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool Sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
    __has_feature(memory_sanitizer)
constexpr bool Sanitized = true;
#else
constexpr bool Sanitized = false;
#endif
#else
constexpr bool Sanitized = false;
#endif

/// Exit status of a child whose allocation failed under its limit.
constexpr int OutOfMemoryStatus = 86;

/// Allocation failed: leave at once, without allocating (the parent words
/// the error). Both operator new and LLVM's allocators end here.
[[noreturn]] void outOfMemory() { _exit(OutOfMemoryStatus); }
void onBadAlloc(void *, const char *, bool) { outOfMemory(); }

void limitAddressSpace(unsigned long long Bytes) {
  if (!Bytes || Sanitized)
    return;
  rlimit L;
  if (getrlimit(RLIMIT_AS, &L) != 0)
    return;
  if (L.rlim_max != RLIM_INFINITY && L.rlim_max < Bytes)
    Bytes = L.rlim_max;
  L.rlim_cur = Bytes;
  if (setrlimit(RLIMIT_AS, &L) != 0)
    return;
  std::set_new_handler(outOfMemory);
  llvm::install_bad_alloc_error_handler(onBadAlloc);
}

bool writeAll(int Fd, const std::string &Bytes) {
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += static_cast<size_t>(N);
  }
  return true;
}

std::string readLog(FILE *Log) {
  std::string Text;
  if (!Log)
    return Text;
  std::fflush(Log);
  std::rewind(Log);
  char Buf[4096];
  size_t N;
  while ((N = std::fread(Buf, 1, sizeof(Buf), Log)) > 0)
    Text.append(Buf, N);
  return Text;
}

struct Child {
  pid_t Pid = -1;
  int Fd = -1;
  FILE *Log = nullptr; ///< The child's stderr.
  size_t Index = 0;
  unsigned long long MemoryLimit = 0;
  std::string Bytes;
};

/// In the child: run, send, and leave without running the parent's atexit
/// handlers or flushing its stdio buffers (that would duplicate output).
[[noreturn]] void
runChild(const Child &C,
         const std::function<TranslationUnitResult(size_t)> &Work) {
  if (C.Log)
    dup2(fileno(C.Log), STDERR_FILENO);
  keepTemporaryFilesOnChildCrash();
  limitAddressSpace(C.MemoryLimit);
  TranslationUnitResult R = Work(C.Index);
  bool Sent = writeAll(C.Fd, serializeResult(R));
  llvm::errs().flush();
  _exit(Sent ? 0 : 3);
}

std::string saveCrashReport(const std::string &Dir, size_t Index,
                            const IsolatedTask &Task, const std::string &How,
                            const std::string &Log) {
  if (llvm::sys::fs::create_directories(Dir))
    return "";
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, llvm::sys::path::filename(Task.File) + "." +
                                    std::to_string(getpid()) + "-" +
                                    std::to_string(Index) + ".crash.txt");
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return "";
  OS << "distlint crash report\nfile: " << Task.File << "\nwhat: " << How
     << "\ncommand: " << Task.CommandLine << "\n\n--- stderr of the analysis "
     << "(stack dump) ---\n"
     << Log;
  OS.close();
  return OS.has_error() ? "" : std::string(Path);
}

/// The parent's view of a finished child.
TranslationUnitResult collect(Child &C, int Status, const IsolatedTask &Task,
                              const IsolationOptions &Opts) {
  std::string Log = readLog(C.Log);
  TranslationUnitResult R;
  std::string How;
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0) {
    std::string Error;
    if (deserializeResult(C.Bytes, R, Error)) {
      // Whatever a healthy analysis wrote to stderr, pass it on.
      if (!Log.empty())
        llvm::errs() << Log;
      return R;
    }
    How = "the analysis sent a malformed result (" + Error + ")";
  } else if (WIFEXITED(Status) && WEXITSTATUS(Status) == OutOfMemoryStatus &&
             C.MemoryLimit && !Sanitized) {
    // Not a crash: the limit did its job. One line, and no crash report.
    R.Errors.push_back(
        {Task.File, "analysis stopped: this translation unit needs more than "
                    "its memory limit of " +
                        formatBytes(C.MemoryLimit) +
                        " (raise it with --tu-memory-limit or TuMemoryLimit "
                        "in .distlint.yaml)"});
    return R;
  } else if (WIFSIGNALED(Status)) {
    How = signalName(WTERMSIG(Status));
    if (WTERMSIG(Status) == SIGKILL)
      How += " (killed; out of memory?)";
  } else if (WIFEXITED(Status)) {
    How = "exit status " + std::to_string(WEXITSTATUS(Status));
    // LLVM's fatal errors print one line before exiting; keep it.
    llvm::StringRef Last = llvm::StringRef(Log).trim();
    size_t Nl = Last.rfind('\n');
    if (Nl != llvm::StringRef::npos)
      Last = Last.drop_front(Nl + 1);
    if (!Last.empty() && Last.size() < 200)
      How += " (" + Last.str() + ")";
  } else {
    How = "unknown wait status " + std::to_string(Status);
  }
  std::string Message = "analysis crashed: " + How;
  if (Opts.CrashReportDir.empty()) {
    Message += "; rerun with --crash-report=<dir> to save the stack trace "
               "and the compile command";
  } else {
    std::string Saved =
        saveCrashReport(Opts.CrashReportDir, C.Index, Task, How, Log);
    Message += Saved.empty() ? "; could not write a crash report to " +
                                   Opts.CrashReportDir
                             : "; crash report: " + Saved;
  }
  R.Errors.push_back({Task.File, Message});
  return R;
}

} // namespace

std::vector<TranslationUnitResult>
runIsolated(size_t Count,
            const std::function<TranslationUnitResult(size_t)> &Work,
            const std::function<IsolatedTask(size_t)> &Describe,
            const IsolationOptions &Opts) {
  std::vector<TranslationUnitResult> Results(Count);
  std::vector<Child> Running;
  const unsigned Parallel = std::max(1u, Opts.Parallel);
  size_t Next = 0;
  auto Finish = [&](size_t Index) {
    if (Opts.OnDone)
      Opts.OnDone(Index, Results[Index]);
  };

  while (Next < Count || !Running.empty()) {
    while (Next < Count && Running.size() < Parallel) {
      Child C;
      C.Index = Next++;
      if (Opts.MemoryLimitOf)
        C.MemoryLimit = Opts.MemoryLimitOf(C.Index);
      int Pipe[2];
      if (pipe(Pipe) != 0) {
        Results[C.Index] = Work(C.Index); // No pipes left: in-process.
        Finish(C.Index);
        continue;
      }
      C.Log = std::tmpfile();
      // Nothing buffered in the parent may be written twice.
      std::fflush(nullptr);
      llvm::outs().flush();
      pid_t Pid = fork();
      if (Pid == 0) {
        close(Pipe[0]);
        C.Fd = Pipe[1];
        runChild(C, Work);
      }
      close(Pipe[1]);
      if (Pid < 0) {
        close(Pipe[0]);
        if (C.Log)
          std::fclose(C.Log);
        Results[C.Index] = Work(C.Index);
        Finish(C.Index);
        continue;
      }
      C.Pid = Pid;
      C.Fd = Pipe[0];
      Running.push_back(std::move(C));
    }
    if (Running.empty())
      continue;

    std::vector<pollfd> Fds;
    for (const Child &C : Running)
      Fds.push_back({C.Fd, POLLIN, 0});
    if (poll(Fds.data(), Fds.size(), -1) < 0 && errno != EINTR)
      break;
    for (size_t I = Running.size(); I-- > 0;) {
      if (!(Fds[I].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      Child &C = Running[I];
      char Buf[65536];
      ssize_t N = read(C.Fd, Buf, sizeof(Buf));
      if (N < 0 && errno == EINTR)
        continue;
      if (N > 0) {
        C.Bytes.append(Buf, static_cast<size_t>(N));
        continue;
      }
      // End of the child's output: it exited or died.
      close(C.Fd);
      int Status = 0;
      while (waitpid(C.Pid, &Status, 0) < 0 && errno == EINTR) {
      }
      Results[C.Index] = collect(C, Status, Describe(C.Index), Opts);
      if (C.Log)
        std::fclose(C.Log);
      size_t Index = C.Index;
      Running.erase(Running.begin() + I);
      Finish(Index);
    }
  }
  return Results;
}

} // namespace distlint
