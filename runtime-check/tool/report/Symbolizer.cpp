//===- Symbolizer.cpp - Code addresses to file:line, offline
//---------------===//
#include "Symbolizer.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

extern char **environ;

namespace distlint {
namespace rt {

std::string findProgram(const std::string &Name) {
  if (Name.empty())
    return "";
  if (Name.find('/') != std::string::npos)
    return access(Name.c_str(), X_OK) == 0 ? Name : "";
  const char *Path = std::getenv("PATH");
  std::stringstream Dirs(Path ? Path : "/usr/bin:/bin");
  std::string Dir;
  while (std::getline(Dirs, Dir, ':')) {
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/" + Name;
    if (access(Candidate.c_str(), X_OK) == 0)
      return Candidate;
  }
  return "";
}

bool runCapture(const std::vector<std::string> &Argv, std::string &Output,
                int *ExitCode) {
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0)
    return false;
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], 1);
  posix_spawn_file_actions_addopen(&Actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  // The symbolizer must not record itself.
  std::vector<std::string> EnvStore;
  for (char **E = environ; *E; ++E)
    if (std::string(*E).rfind("LD_PRELOAD=", 0) != 0)
      EnvStore.push_back(*E);
  std::vector<char *> Env;
  for (std::string &E : EnvStore)
    Env.push_back(const_cast<char *>(E.c_str()));
  Env.push_back(nullptr);
  pid_t Pid;
  int Err =
      posix_spawnp(&Pid, Args[0], &Actions, nullptr, Args.data(), Env.data());
  posix_spawn_file_actions_destroy(&Actions);
  close(Pipe[1]);
  if (Err != 0) {
    close(Pipe[0]);
    return false;
  }
  char Buf[65536];
  ssize_t N;
  Output.clear();
  while ((N = read(Pipe[0], Buf, sizeof(Buf))) > 0)
    Output.append(Buf, size_t(N));
  close(Pipe[0]);
  int Status = 0;
  waitpid(Pid, &Status, 0);
  if (ExitCode)
    *ExitCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128;
  return true;
}

Symbolizer::Symbolizer(std::string Tool) {
  if (Tool.empty())
    if (const char *Env = std::getenv("DISTLINT_RT_SYMBOLIZER"))
      Tool = Env;
  std::vector<std::string> Candidates;
  if (!Tool.empty())
    Candidates.push_back(Tool);
  else
    Candidates = {"llvm-symbolizer-19", "llvm-symbolizer", "addr2line"};
  for (const std::string &C : Candidates) {
    ToolPath = findProgram(C);
    if (!ToolPath.empty())
      break;
  }
  IsLlvm = ToolPath.find("addr2line") == std::string::npos;
}

void Symbolizer::add(const std::string &Module, uint64_t Offset) {
  if (Module.empty() || Resolved.count({Module, Offset}))
    return;
  Queue[Module].insert(Offset);
}

void Symbolizer::run() {
  for (auto &[Module, OffsetSet] : Queue) {
    std::vector<uint64_t> Offsets(OffsetSet.begin(), OffsetSet.end());
    struct stat St;
    bool Ok = !ToolPath.empty() && stat(Module.c_str(), &St) == 0;
    for (size_t Begin = 0; Ok && Begin < Offsets.size(); Begin += 400) {
      std::vector<uint64_t> Chunk(Offsets.begin() + Begin,
                                  Offsets.begin() +
                                      std::min(Offsets.size(), Begin + 400));
      Ok = IsLlvm ? runLlvm(Module, Chunk) : runAddr2line(Module, Chunk);
    }
    for (uint64_t O : Offsets)
      Resolved.emplace(std::make_pair(Module, O), std::vector<SourceLoc>());
  }
  Queue.clear();
}

static std::string hex(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", (unsigned long long)V);
  return Buf;
}

bool Symbolizer::runLlvm(const std::string &Module,
                         const std::vector<uint64_t> &Offsets) {
  std::vector<std::string> Argv = {ToolPath, "--output-style=JSON",
                                   "--inlining", "--demangle",
                                   "--obj=" + Module};
  for (uint64_t O : Offsets)
    Argv.push_back(hex(O));
  std::string Out;
  if (!runCapture(Argv, Out))
    return false;
  // One JSON array for all addresses (LLVM 19); older releases print one
  // object per line.
  std::vector<nlohmann::json> Entries;
  auto All = nlohmann::json::parse(Out, nullptr, /*allow_exceptions=*/false);
  if (All.is_array()) {
    for (auto &E : All)
      Entries.push_back(E);
  } else {
    std::stringstream Lines(Out);
    std::string Line;
    while (std::getline(Lines, Line))
      if (!Line.empty())
        Entries.push_back(nlohmann::json::parse(Line, nullptr, false));
  }
  for (size_t Index = 0; Index < Entries.size() && Index < Offsets.size();
       ++Index) {
    const nlohmann::json &J = Entries[Index];
    std::vector<SourceLoc> Chain;
    if (J.is_object() && J.contains("Symbol") && J["Symbol"].is_array())
      for (const auto &S : J["Symbol"]) {
        SourceLoc L;
        L.File = S.value("FileName", "");
        L.Line = S.value("Line", 0u);
        L.Column = S.value("Column", 0u);
        L.Function = S.value("FunctionName", "");
        if (L.known())
          Chain.push_back(L);
      }
    Resolved[{Module, Offsets[Index]}] = std::move(Chain);
  }
  return true;
}

bool Symbolizer::runAddr2line(const std::string &Module,
                              const std::vector<uint64_t> &Offsets) {
  // -a prints each address first, so inlined frames can be grouped.
  std::vector<std::string> Argv = {ToolPath, "-e", Module, "-a",
                                   "-f",     "-i", "-C"};
  for (uint64_t O : Offsets)
    Argv.push_back(hex(O));
  std::string Out;
  if (!runCapture(Argv, Out))
    return false;
  std::stringstream Lines(Out);
  std::string Line, Function;
  int Current = -1;
  bool ExpectFunction = true;
  while (std::getline(Lines, Line)) {
    if (Line.rfind("0x", 0) == 0) {
      ++Current;
      ExpectFunction = true;
      continue;
    }
    if (Current < 0 || size_t(Current) >= Offsets.size())
      continue;
    if (ExpectFunction) {
      Function = Line;
      ExpectFunction = false;
      continue;
    }
    ExpectFunction = true;
    size_t Colon = Line.rfind(':');
    if (Colon == std::string::npos)
      continue;
    SourceLoc L;
    L.File = Line.substr(0, Colon);
    L.Line = unsigned(std::strtoul(Line.c_str() + Colon + 1, nullptr, 10));
    L.Function = Function;
    if (L.known() && L.File != "??")
      Resolved[{Module, Offsets[size_t(Current)]}].push_back(L);
  }
  return true;
}

const std::vector<SourceLoc> &Symbolizer::lookup(const std::string &Module,
                                                 uint64_t Offset) const {
  static const std::vector<SourceLoc> None;
  auto It = Resolved.find({Module, Offset});
  return It == Resolved.end() ? None : It->second;
}

} // namespace rt
} // namespace distlint
