//===- Main.cpp - distlint-rt: run ranks under the recorder, report
//--------===//
#include "Join.h"
#include "Launcher.h"
#include "Merge.h"
#include "ReportWriter.h"
#include "Sites.h"
#include "Symbolizer.h"
#include "TraceReader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace distlint::rt;

namespace {

const char *const Usage =
    "usage:\n"
    "  distlint-rt run --nproc N [--timeout S] [--out DIR] [--abort] [--grace "
    "S]\n"
    "                  [--max-time S] [--log-dir DIR] [--findings FILE]\n"
    "                  [--format text|json|sarif] -- PROGRAM [ARGS...]\n"
    "      Runs N ranks of PROGRAM on this machine (RANK, WORLD_SIZE, "
    "LOCAL_RANK,\n"
    "      MASTER_ADDR, MASTER_PORT set like torchrun) with the recorder "
    "preloaded,\n"
    "      ends them all once a hang is confirmed, then prints the report.\n"
    "      Exit status: 0 clean run, 1 divergence, hang or failed rank, 2 "
    "usage.\n"
    "  distlint-rt report DIR [--findings FILE] [--format text|json|sarif]\n"
    "                  [--output FILE]\n"
    "      Merges the rank traces in DIR (from distlint-rt run, torchrun, "
    "mpirun or\n"
    "      srun with the preload library) and explains the first divergence;\n"
    "      with distlint's JSON findings, gives each a verdict.\n"
    "      Exit status: 0 clean, 1 problems found, 2 bad input.\n";

int usageError(const std::string &Message) {
  std::fprintf(stderr, "distlint-rt: %s (see distlint-rt --help)\n",
               Message.c_str());
  return 2;
}

bool parseNumber(const std::string &Text, double &Out) {
  char *End = nullptr;
  Out = std::strtod(Text.c_str(), &End);
  return End && *End == 0 && !Text.empty();
}

struct ReportOptions {
  std::string Dir;
  std::string Findings;
  std::string Output;
  ReportFormat Format = ReportFormat::Text;
};

/// Loads, merges, joins and prints; returns the exit status.
int produceReport(const ReportOptions &O) {
  struct stat St;
  if (stat(O.Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode))
    return usageError(O.Dir + " is not a directory");
  std::vector<std::string> Errors;
  std::vector<RankTrace> Traces = readTraceDir(O.Dir, Errors);
  for (const std::string &E : Errors)
    std::fprintf(stderr, "distlint-rt: skipped %s\n", E.c_str());
  if (Traces.empty()) {
    std::fprintf(stderr, "distlint-rt: no distlint-rt traces in %s\n",
                 O.Dir.c_str());
    return 2;
  }
  RunManifest Manifest;
  std::string Error;
  bool HaveManifest = access((O.Dir + "/run.json").c_str(), R_OK) == 0 &&
                      readManifest(O.Dir + "/run.json", Manifest, Error);
  std::vector<std::string> RunNotes;
  if (!selectRun(Traces, HaveManifest ? Manifest.RunId : 0, RunNotes, Error)) {
    std::fprintf(stderr, "distlint-rt: %s\n", Error.c_str());
    return 2;
  }
  if (HaveManifest && Manifest.RunId && !Traces.empty() &&
      Traces.front().RunId != Manifest.RunId)
    HaveManifest = false; // run.json describes another launch.
  std::vector<StaticFinding> Findings;
  if (!O.Findings.empty() && !readFindings(O.Findings, Findings, Error)) {
    std::fprintf(stderr, "distlint-rt: %s\n", Error.c_str());
    return 2;
  }
  Analysis A = analyze(std::move(Traces), HaveManifest ? &Manifest : nullptr);
  A.Notes.insert(A.Notes.begin(), RunNotes.begin(), RunNotes.end());
  Symbolizer Sym;
  if (Sym.tool().empty())
    A.Notes.push_back(
        "no llvm-symbolizer or addr2line found: call-sites shown as "
        "module+offset");
  Sites S(A, Sym);
  JoinResult Join;
  if (!O.Findings.empty())
    Join = join(A, S, Findings);
  ReportModel Model = buildReportModel(
      {A, S, O.Findings.empty() ? nullptr : &Join, O.Dir, O.Findings});

  std::ostringstream Buffer;
  std::ostream *OS =
      O.Output.empty() ? static_cast<std::ostream *>(&std::cout) : &Buffer;
  switch (O.Format) {
  case ReportFormat::Text:
    writeTextReport(*OS, Model);
    break;
  case ReportFormat::Json:
    writeJsonReport(*OS, Model);
    break;
  case ReportFormat::Sarif:
    writeSarifReport(*OS, Model);
    break;
  }
  OS->flush();
  if (!O.Output.empty() && !writePrivateFile(O.Output, Buffer.str(), Error)) {
    std::fprintf(stderr, "distlint-rt: %s\n", Error.c_str());
    return 2;
  }
  return reportExitCode(A);
}

int reportCommand(const std::vector<std::string> &Args) {
  ReportOptions O;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    auto Value = [&](std::string &Out) {
      if (I + 1 >= Args.size())
        return false;
      Out = Args[++I];
      return true;
    };
    std::string V;
    if (A == "--findings") {
      if (!Value(O.Findings))
        return usageError("--findings needs a file");
    } else if (A == "--output" || A == "-o") {
      if (!Value(O.Output))
        return usageError("--output needs a file");
    } else if (A == "--format" || A.rfind("--format=", 0) == 0) {
      if (A == "--format" ? !Value(V) : (V = A.substr(9), false))
        return usageError("--format needs text, json or sarif");
      if (!parseReportFormat(V, O.Format))
        return usageError("unknown format '" + V + "' (text, json or sarif)");
    } else if (!A.empty() && A[0] == '-') {
      return usageError("unknown option " + A);
    } else if (O.Dir.empty()) {
      O.Dir = A;
    } else {
      return usageError("report takes one trace directory");
    }
  }
  if (O.Dir.empty())
    return usageError("report needs a trace directory");
  return produceReport(O);
}

int runCommand(const std::vector<std::string> &Args, const char *Argv0) {
  LaunchOptions L;
  ReportOptions R;
  size_t I = 0;
  for (; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (A == "--") {
      ++I;
      break;
    }
    auto Value = [&](std::string &Out) {
      if (I + 1 >= Args.size())
        return false;
      Out = Args[++I];
      return true;
    };
    std::string V;
    double D;
    if (A == "--nproc") {
      if (!Value(V) || !parseNumber(V, D) || D < 1 || D > 1024 || D != int(D))
        return usageError("--nproc needs a whole number from 1 to 1024");
      L.NProc = int(D);
    } else if (A == "--timeout") {
      if (!Value(V) || !parseNumber(V, D) || D <= 0)
        return usageError("--timeout needs seconds > 0");
      L.TimeoutSeconds = D;
    } else if (A == "--grace") {
      if (!Value(V) || !parseNumber(V, D) || D < 0)
        return usageError("--grace needs seconds >= 0");
      L.GraceSeconds = D;
    } else if (A == "--max-time") {
      if (!Value(V) || !parseNumber(V, D) || D <= 0)
        return usageError("--max-time needs seconds > 0");
      L.MaxSeconds = D;
    } else if (A == "--out") {
      if (!Value(L.OutDir))
        return usageError("--out needs a directory");
    } else if (A == "--log-dir") {
      if (!Value(L.LogDir))
        return usageError("--log-dir needs a directory");
    } else if (A == "--abort") {
      L.AbortOnHang = true;
    } else if (A == "--findings") {
      if (!Value(R.Findings))
        return usageError("--findings needs a file");
    } else if (A == "--format") {
      if (!Value(V) || !parseReportFormat(V, R.Format))
        return usageError("--format needs text, json or sarif");
    } else {
      return usageError("unknown option " + A + " (the program goes after --)");
    }
  }
  L.Command.assign(Args.begin() + long(I), Args.end());
  if (L.NProc == 0)
    return usageError("run needs --nproc N");
  if (L.Command.empty())
    return usageError("run needs a program after --");
  std::string Program = findProgram(L.Command.front());
  if (Program.empty())
    return usageError("cannot run " + L.Command.front() +
                      ": not found or not executable");
  L.PreloadLibrary = findPreloadLibrary(Argv0);
  if (L.PreloadLibrary.empty())
    return usageError("cannot find libdistlint-rt.so next to distlint-rt; set "
                      "DISTLINT_RT_LIB");
  // N forked copies of an MPI program are N singletons, not one job.
  L.Kind = classifyCommand(L.Command, Program);
  if (L.Kind == LaunchKind::LauncherChild && L.NProc != 1)
    return usageError(
        L.Command.front() + " starts the whole job: use --nproc 1 -- " +
        L.Command.front() + " -np " + std::to_string(L.NProc) + " ...");
  if (L.Kind == LaunchKind::MpiProgram) {
    MpiLauncher M = findMpiLauncher();
    if (!M.OpenMpi)
      return usageError(L.Command.front() + " is an MPI program and " +
                        (M.Path.empty() ? std::string("no mpirun was found")
                                        : M.Path + " is not Open MPI's") +
                        "; run it as: " +
                        mpirunHint(L.NProc, L.PreloadLibrary, L.OutDir,
                                   L.TimeoutSeconds, L.Command));
    L.Command = mpirunCommand(M.Path, L.NProc, L.Command);
    L.Kind = LaunchKind::LauncherChild;
  } else if (L.Kind == LaunchKind::LauncherChild &&
             isOpenMpiLauncher(Program)) {
    L.Command = withExports(L.Command); // -x: also ranks on other nodes.
  }
  LaunchResult Result = launchRanks(L);
  if (!Result.Error.empty()) {
    std::fprintf(stderr, "distlint-rt: %s\n", Result.Error.c_str());
    return 2;
  }
  std::cout.flush();
  R.Dir = L.OutDir;
  int Status = produceReport(R);
  if (Status == 2)
    return 1; // The ranks ran, but left nothing to report: not a clean run.
  bool Failed = false;
  for (const RankExit &E : Result.Manifest.Ranks)
    Failed |= E.KilledByLauncher || !E.Exited || E.ExitCode != 0;
  if (L.Kind == LaunchKind::LauncherChild) {
    const RankExit &E = Result.LauncherExit;
    Failed |= E.KilledByLauncher || !E.Exited || E.ExitCode != 0;
  }
  return Status != 0 || Failed ? 1 : 0;
}

/// Raw records, for debugging the recorder (not a stable format).
int dumpCommand(const std::vector<std::string> &Args) {
  if (Args.size() != 1)
    return usageError("dump takes one trace file");
  RankTrace T;
  std::string Error;
  if (!readTraceFile(Args[0], T, Error)) {
    std::fprintf(stderr, "distlint-rt: %s\n", Error.c_str());
    return 2;
  }
  std::printf("rank %d pid %d head %llu capacity %u flags %x hangs %u\n",
              T.Rank, T.Pid, (unsigned long long)T.Head, T.Capacity, T.Flags,
              T.HangCount);
  for (size_t I = 0; I < T.Modules.size(); ++I)
    std::printf("module %zu %s\n", I, T.Modules[I].c_str());
  for (const Record &R : T.Records) {
    std::printf("#%llu kind %u %s seq %llu comm %016llx rank %d/%d count %llu "
                "dt %d op %d "
                "peer %d state %x result %d aux %llx",
                (unsigned long long)R.Slot, unsigned(R.Kind), R.info().Name,
                (unsigned long long)R.Seq, (unsigned long long)R.CommId,
                R.CommRank, R.CommSize, (unsigned long long)R.Count, R.DataType,
                R.RedOp, R.Peer, R.State, R.Result, (unsigned long long)R.Aux);
    for (PackedFrame F : R.Frames)
      if (frameValid(F))
        std::printf(" [%u+0x%llx]", frameModule(F),
                    (unsigned long long)frameOffset(F));
    std::printf("\n");
  }
  for (const SyncCount &C : T.Syncs)
    std::printf("sync %s [%u+0x%llx] x%llu\n", opInfo(C.Op).Name,
                frameModule(C.Site), (unsigned long long)frameOffset(C.Site),
                (unsigned long long)C.Count);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  if (Args.empty()) {
    std::fputs(Usage, stderr);
    return 2;
  }
  const std::string Command = Args.front();
  Args.erase(Args.begin());
  if (Command == "--help" || Command == "-h" || Command == "help") {
    std::fputs(Usage, stdout);
    return 0;
  }
  if (Command == "--version") {
    std::printf("distlint-rt %s\n", DISTLINT_VERSION_STRING);
    return 0;
  }
  if (Command == "run")
    return runCommand(Args, Argv[0]);
  if (Command == "report")
    return reportCommand(Args);
  if (Command == "dump")
    return dumpCommand(Args);
  return usageError("unknown command '" + Command + "'");
}
