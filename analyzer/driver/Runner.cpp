//===- Runner.cpp - analyzeFiles(): the driver's pipeline -----------------===//
#include "Runner.h"
#include "Analysis.h"
#include "CompileCommands.h"
#include "CompilerFamilies.h"
#include "Isolation.h"
#include "ProjectIndex.h"
#include "RuleDocs.h"
#include "TuAnalysis.h"
#include "input/Config.h"
#include "input/Filters.h"
#include "input/Paths.h"
#include "report/Baseline.h"
#include "report/Fingerprint.h"
#include "report/Suppressions.h"
#include "speed/Speedups.h"

#include "clang/Basic/Version.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>

#ifndef DISTLINT_VERSION
#define DISTLINT_VERSION "0.0.0"
#endif
#ifndef DISTLINT_CLANG_RESOURCE_DIR
#define DISTLINT_CLANG_RESOURCE_DIR ""
#endif

using namespace clang;

namespace distlint {

const char *toolVersion() { return DISTLINT_VERSION; }

//===--- Resource directory -----------------------------------------------===//

namespace {
bool isResourceDir(llvm::StringRef Dir) {
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "include", "stddef.h");
  return llvm::sys::fs::exists(Probe);
}
} // namespace

std::string findResourceDir(const DriverOptions &Opts) {
  if (!Opts.ResourceDir.empty())
    return normalizePath(Opts.ResourceDir);
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  std::vector<std::string> Candidates;
  if (!Exe.empty()) {
    // <prefix>/bin/distlint -> <prefix>/lib/clang/<major>
    llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Exe));
    llvm::sys::path::append(Dir, "..", "lib", "clang", CLANG_VERSION_MAJOR_STRING);
    Candidates.push_back(normalizePath(Dir));
  }
  Candidates.push_back(DISTLINT_CLANG_RESOURCE_DIR);
  Candidates.push_back("/usr/lib/llvm-" CLANG_VERSION_MAJOR_STRING
                       "/lib/clang/" CLANG_VERSION_MAJOR_STRING);
  for (const std::string &C : Candidates)
    if (!C.empty() && isResourceDir(C))
      return C;
  return "";
}

//===--- Compile commands -------------------------------------------------===//

namespace {
/// -p names a directory; accept the database file itself too.
std::string buildDirOf(const std::string &BuildPath) {
  std::string P = normalizePath(BuildPath);
  if (llvm::sys::fs::is_regular_file(P))
    return llvm::sys::path::parent_path(P).str();
  return P;
}

std::string currentDir() {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  return std::string(Cwd);
}

/// Which database serves File when no -p is given: the nearest one above
/// the file, else the first build*/ directory of the cwd that knows it, else
/// the first one with entries in the file's own project (a database of
/// another source root would lend an unrelated command).
const tooling::CompilationDatabase *
databaseForFile(const std::string &File, DatabaseCache &Cache,
                std::string &Error, bool &Found, std::string &DatabaseDir) {
  std::string Project = projectDirOf(File);
  std::vector<std::string> Foreign;
  const tooling::CompilationDatabase *DB = Cache.findUpward(
      llvm::sys::path::parent_path(File).str(), Error, Found, &DatabaseDir);
  if (Found && (!DB || hasEntryUnder(*DB, Project)))
    return DB;
  if (Found)
    Foreign.push_back(DatabaseDir);
  Found = false;
  const tooling::CompilationDatabase *Fallback = nullptr;
  std::string FallbackDir;
  for (const std::string &Dir : buildDirsOfCwd()) {
    std::string DirError;
    bool DirFound = false;
    const tooling::CompilationDatabase *Candidate =
        Cache.loadDir(Dir, DirError, DirFound);
    if (!Candidate) {
      if (DirFound) {
        Error = DirError;
        Found = true;
        return nullptr;
      }
      continue;
    }
    for (const std::string &Known : Candidate->getAllFiles())
      if (normalizePath(Known) == File) {
        Found = true;
        DatabaseDir = Dir;
        return Candidate;
      }
    if (!hasEntryUnder(*Candidate, Project)) {
      Foreign.push_back(Dir);
      continue;
    }
    if (!Fallback) {
      Fallback = Candidate;
      FallbackDir = Dir;
    }
  }
  if (Fallback) {
    Found = true;
    DatabaseDir = FallbackDir;
    return Fallback;
  }
  if (!Foreign.empty()) {
    Error = "no compilation database for this file's project " + Project +
            ": " + Foreign.front() +
            "/compile_commands.json only has files of another source root; "
            "configure this project (CMAKE_EXPORT_COMPILE_COMMANDS=ON) and "
            "pass -p <its build dir>, or give compile flags after --";
    return nullptr;
  }
  Error = "no compilation database found for " + File +
          " (searched its directory, the parents and build*/ of the current "
          "directory); pass -p <build-dir> or compile flags after --";
  return nullptr;
}

bool resolveOne(const std::string &File, const DriverOptions &Opts,
                const ToolchainPaths &Toolchain, DatabaseCache &Cache,
                CompileJob &Job, std::string &FileError,
                std::string &FatalError) {
  Job.File = File;
  if (!Opts.Overlays.count(File)) {
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(File, Status)) {
      FileError = EC == std::errc::too_many_symbolic_link_levels
                      ? "symbolic link loop (too many levels of links)"
                  : EC == std::errc::no_such_file_or_directory
                      ? "no such file"
                      : "cannot read: " + EC.message();
      return false;
    }
    if (llvm::sys::fs::is_directory(Status)) {
      FileError = "is a directory, not a source file (use --all or list "
                  "the files)";
      return false;
    }
  }
  std::vector<std::string> Argv;
  if (Opts.UseFixedFlags) {
    Argv = {"clang-tool"};
    Argv.insert(Argv.end(), Opts.FixedFlags.begin(), Opts.FixedFlags.end());
    Argv.push_back(File);
    Job.Directory = currentDir();
    Job.Origin = "flags after --";
  } else {
    std::string Error, DatabaseDir;
    bool Found = false;
    const tooling::CompilationDatabase *DB =
        Opts.BuildPath.empty()
            ? databaseForFile(File, Cache, Error, Found, DatabaseDir)
            : Cache.findUpward(buildDirOf(Opts.BuildPath), Error, Found,
                               &DatabaseDir);
    if (!DB) {
      // A database that exists but cannot be read is a tool error; a file
      // nobody knows how to compile is that file's error.
      (Found || !Opts.BuildPath.empty() ? FatalError : FileError) = Error;
      return false;
    }
    std::vector<tooling::CompileCommand> Commands = DB->getCompileCommands(File);
    if (Commands.empty()) {
      FileError = "no compile command for this file in the compilation "
                  "database";
      return false;
    }
    Argv = Commands.front().CommandLine;
    Job.Directory = Commands.front().Directory;
    Job.Origin = describeOrigin(DatabaseDir, Commands.front());
    if (Argv.empty()) {
      FileError = "empty compile command in the compilation database";
      return false;
    }
  }
  if (!llvm::sys::fs::is_directory(Job.Directory)) {
    FileError = "compile command directory " + Job.Directory +
                " does not exist";
    return false;
  }
  AdaptedCommand Adapted =
      adaptToClang(std::move(Argv), File, Job.Directory, Toolchain);
  Job.Adjustments = std::move(Adapted.Notes);
  Job.Args = cleanCommandLine(std::move(Adapted.Argv), Adapted.ResourceDir,
                              !Opts.ResourceDir.empty(), Opts.ExtraArgsBefore,
                              Opts.ExtraArgs);
  std::string Relaxed = relaxForGcc(Job.Args);
  if (!Relaxed.empty())
    Job.Adjustments.push_back(Relaxed);
  return true;
}
} // namespace

bool allDatabaseFiles(const DriverOptions &Opts, std::vector<std::string> &Out,
                      std::string &Error) {
  DatabaseCache Cache;
  bool Found = false;
  const tooling::CompilationDatabase *DB = nullptr;
  if (!Opts.BuildPath.empty()) {
    DB = Cache.findUpward(buildDirOf(Opts.BuildPath), Error, Found);
  } else {
    DB = Cache.findUpward(currentDir(), Error, Found);
    if (!Found) {
      for (const std::string &Dir : buildDirsOfCwd()) {
        DB = Cache.loadDir(Dir, Error, Found);
        if (Found)
          break;
      }
      if (!Found)
        Error = "--all needs a compilation database: none found in the "
                "current directory, its parents or build*/; pass -p "
                "<build-dir>";
    }
  }
  if (!DB)
    return false;
  std::set<std::string> Unique;
  for (const std::string &F : DB->getAllFiles())
    Unique.insert(normalizePath(F));
  if (Unique.empty()) {
    Error = "--all: the compilation database " +
            (Opts.BuildPath.empty() ? std::string("found") : "in " +
             buildDirOf(Opts.BuildPath)) +
            " lists no files";
    return false;
  }
  Out.assign(Unique.begin(), Unique.end());
  return true;
}

std::vector<CompileJob>
resolveCompileCommands(const std::vector<std::string> &Files,
                       const DriverOptions &Opts,
                       std::vector<FileError> &FileErrors,
                       std::vector<std::string> &Fatal) {
  DatabaseCache Cache;
  ToolchainPaths Toolchain;
  Toolchain.ResourceDir = findResourceDir(Opts);
  Toolchain.ResourceDirFixed = !Opts.ResourceDir.empty();
  Toolchain.CudaShimDir = installedCudaShimDir();
  std::vector<CompileJob> Jobs;
  std::set<std::string> FatalSeen;
  for (const std::string &F : Files) {
    CompileJob Job;
    std::string FileError, FatalError;
    if (resolveOne(normalizePath(F), Opts, Toolchain, Cache, Job, FileError,
                   FatalError)) {
      if (Opts.Verbose)
        Opts.Verbose(Job.File, "using " + Job.Origin);
      Jobs.push_back(std::move(Job));
      continue;
    }
    if (!FatalError.empty()) {
      if (FatalSeen.insert(FatalError).second)
        Fatal.push_back(FatalError);
    } else {
      FileErrors.push_back({normalizePath(F), FileError});
    }
  }
  return Jobs;
}

//===--- The pipeline -------------------------------------------------------===//

/// Rounds of phase 2 in one run (ProjectIndex.h).
constexpr unsigned MaxIndexRounds = 3;

AnalysisResult analyzeFiles(const std::vector<std::string> &Files,
                            const DriverOptions &Opts,
                            std::vector<std::string> *Errors,
                            RunStats *Stats) {
  std::vector<std::string> LocalErrors;
  std::vector<std::string> &Fatal = Errors ? *Errors : LocalErrors;
  RunStats LocalStats;
  RunStats &S = Stats ? *Stats : LocalStats;
  AnalysisResult Result;
  std::string ProjectRoot = resolveProjectRoot(Opts.ProjectRoot);

  // Check every option that can be wrong before spending time on parsing.
  LineFilter Lines;
  std::string Error;
  if (!Opts.LineFilter.empty() && !Lines.parse(Opts.LineFilter, Error))
    Fatal.push_back(Error);
  std::set<std::string> Baseline;
  if (!Opts.BaselineFile.empty()) {
    auto Buffer = llvm::MemoryBuffer::getFile(Opts.BaselineFile);
    if (!Buffer)
      Fatal.push_back("cannot read baseline " + Opts.BaselineFile + ": " +
                      Buffer.getError().message());
    else if (!parseBaseline((*Buffer)->getBuffer().str(), Opts.BaselineFile,
                            Baseline, Error))
      Fatal.push_back(Error);
  }
  ChangedLines Changed;
  std::string GitRoot;
  if (!Opts.DiffRevision.empty() &&
      !changedLinesSince(Opts.DiffRevision, currentDir(), Changed, GitRoot,
                         Error))
    Fatal.push_back(Error);
  for (const std::optional<std::string> *Re :
       {&Opts.HeaderFilter, &Opts.ExcludeHeaderFilter}) {
    std::string Why;
    if (*Re && !llvm::Regex(**Re).isValid(Why))
      Fatal.push_back(std::string(Re == &Opts.HeaderFilter
                                      ? "-header-filter"
                                      : "-exclude-header-filter") +
                      " is not a valid regular expression: " + Why);
  }
  if (!Opts.ResourceDir.empty() && !isResourceDir(Opts.ResourceDir))
    Fatal.push_back("--resource-dir " + Opts.ResourceDir +
                    " is not a Clang resource directory (no include/stddef.h)");
  if (!Fatal.empty())
    return Result;

  RunSpeedups Speed(Opts, ProjectRoot);
  if (!Speed.open(Error)) {
    Fatal.push_back(Error);
    return Result;
  }
  std::vector<CompileJob> Jobs =
      resolveCompileCommands(Files, Opts, Result.Errors, Fatal);
  Speed.selectShard(Jobs);
  Speed.setJobs(Jobs);
  S.TranslationUnits = Jobs.size();
  // The whole-program view (ProjectIndex.h): each TU starts with the facts
  // the last run recorded for the functions it calls in other files.
  ProjectIndex Index;
  const std::string IndexPath =
      Opts.UseProjectIndex ? Speed.indexPath() : std::string();
  if (!IndexPath.empty()) {
    std::string Why;
    bool Loaded = Index.load(IndexPath, Why);
    if (Opts.Verbose)
      Opts.Verbose("", Loaded ? Index.describe(IndexPath)
                              : Why + ": calls into other files stay "
                                      "unknown until they are analyzed "
                                      "together (--all)");
  }
  for (CompileJob &Job : Jobs) {
    Job.Facts = Index.factsFor(Job.File, Job.FactsDigest);
    Job.ExportSummaries =
        Opts.UseProjectIndex && (!IndexPath.empty() || Jobs.size() > 1);
  }
  if (Opts.Verbose)
    for (const CompileJob &Job : Jobs)
      for (const std::string &Line : Job.Adjustments)
        Opts.Verbose(Job.File, Line);

  // Cache hits never reach a worker.
  ConfigResolver Configs(Opts.ConfigFile, Opts.InlineConfig);
  std::vector<TranslationUnitResult> Results(Jobs.size());
  std::vector<bool> FromCache(Jobs.size());
  std::vector<size_t> Misses;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (std::optional<TranslationUnitResult> Hit = Speed.lookup(I, Configs)) {
      Results[I] = std::move(*Hit);
      FromCache[I] = true;
    } else {
      Misses.push_back(I);
    }
  }
  std::mutex ProgressMutex;
  unsigned Done = 0;
  bool CountProgress = true; // phase 2 analyzes TUs already counted
  auto Progress = [&](size_t I) {
    if (Opts.Progress && CountProgress) {
      std::lock_guard<std::mutex> Lock(ProgressMutex);
      Opts.Progress(++Done, Jobs.size(), Jobs[I].File);
    }
  };
  for (size_t I = 0; I < Jobs.size(); ++I)
    if (FromCache[I])
      Progress(I);

  // Shared preambles are built first, each by its own task, beside the TUs
  // that share none; then their users run, forked from a parent that has
  // them mapped.
  // TUs that define what others call go first, so their callers start
  // with the facts (ProjectIndex.h; only the cost depends on the order).
  std::stable_partition(Misses.begin(), Misses.end(), [&](size_t I) {
    return Index.definesForOthers(Jobs[I].File) ||
           ProjectIndex::hasOwnHeader(Jobs[I].File);
  });
  // What a TU is given: every summary known when it starts (the parent
  // absorbs each result before it forks the next TU).
  std::shared_ptr<const api::ProjectFacts> Live = Index.all();
  auto Absorb = [&](size_t I, const TranslationUnitResult &R) {
    if (!Opts.UseProjectIndex || !R.Errors.empty() || R.Summaries.empty())
      return;
    Index.update(Jobs[I].File, R.Summaries);
    Live = Index.all();
  };
  std::vector<size_t> Builders = Speed.planPreambles(Misses);
  std::vector<size_t> First, Second;
  for (size_t I : Misses)
    (Speed.sharesPreamble(I) ? Second : First).push_back(I);
  unsigned Parallel = Opts.Jobs ? Opts.Jobs
                                : defaultParallelism(BytesPerTranslationUnit);
  Parallel = std::max(1u, Parallel);
  // Task = (job index, builds its preamble?).
  using Task = std::pair<size_t, bool>;
  auto RunTasks = [&](const std::vector<Task> &Tasks) {
    auto Work = [&](size_t T, bool Recover) {
      auto [I, Build] = Tasks[T];
      if (Build) {
        buildSharedPreamble(Jobs[I], Opts, Speed.preambleFor(I), Recover);
        return TranslationUnitResult();
      }
      CompileJob Job = Jobs[I];
      Job.Facts = Live;
      return analyzeTu(Job, Opts, ProjectRoot, Configs, Recover,
                       Speed.preambleFor(I));
    };
    auto Finish = [&](size_t T, TranslationUnitResult R) {
      auto [I, Build] = Tasks[T];
      if (Build)
        return; // its TUs learn in afterBuilds() whether it worked
      Absorb(I, R);
      // Cached under the facts that decided it.
      Jobs[I].FactsDigest = ProjectIndex::given(R.Summaries);
      Speed.rekey(I, Configs);
      Speed.store(I, R);
      Results[I] = std::move(R);
    };
    if (Tasks.empty())
      return;
    if (Opts.Isolate) {
      IsolationOptions IOpts;
      IOpts.Parallel = Parallel;
      IOpts.CrashReportDir = Opts.CrashReportDir;
      IOpts.MemoryLimitOf = [&](size_t T) -> unsigned long long {
        if (Opts.TuMemoryLimit)
          return *Opts.TuMemoryLimit;
        DistlintConfig Config;
        std::string Ignored; // analyzeTu reports a broken config
        if (Configs.configFor(Jobs[Tasks[T].first].File, Config, Ignored) &&
            Config.TuMemoryLimit)
          return *Config.TuMemoryLimit;
        return defaultTuMemoryLimit();
      };
      IOpts.OnDone = [&](size_t T, const TranslationUnitResult &R) {
        if (Tasks[T].second)
          return;
        Progress(Tasks[T].first);
        Absorb(Tasks[T].first, R);
      };
      std::vector<TranslationUnitResult> Out = runIsolated(
          Tasks.size(), [&](size_t T) { return Work(T, /*Recover=*/false); },
          [&](size_t T) {
            const CompileJob &Job = Jobs[Tasks[T].first];
            std::string Command = "cd " + Job.Directory + " &&";
            for (const std::string &A : Job.Args)
              Command += " " + A;
            return IsolatedTask{Job.File, Command};
          },
          IOpts);
      for (size_t T = 0; T < Tasks.size(); ++T)
        Finish(T, std::move(Out[T]));
      return;
    }
    static std::once_flag CrashRecoveryOnce;
    std::call_once(CrashRecoveryOnce,
                   [] { llvm::CrashRecoveryContext::Enable(); });
    std::vector<TranslationUnitResult> Out(Tasks.size());
    auto RunOne = [&](size_t T) {
      Out[T] = Work(T, /*Recover=*/true);
      if (!Tasks[T].second)
        Progress(Tasks[T].first);
    };
    unsigned Threads = std::min<unsigned>(Parallel, Tasks.size());
    if (Threads <= 1) {
      for (size_t T = 0; T < Tasks.size(); ++T)
        RunOne(T);
    } else {
      llvm::StdThreadPool Pool(llvm::hardware_concurrency(Threads));
      for (size_t T = 0; T < Tasks.size(); ++T)
        Pool.async([&, T] { RunOne(T); });
      Pool.wait();
    }
    for (size_t T = 0; T < Tasks.size(); ++T)
      Finish(T, std::move(Out[T]));
  };
  std::vector<Task> Phase;
  for (size_t I : Builders)
    Phase.push_back({I, true});
  for (size_t I : First)
    Phase.push_back({I, false});
  RunTasks(Phase);
  Speed.afterBuilds();
  Phase.clear();
  for (size_t I : Second)
    Phase.push_back({I, false});
  RunTasks(Phase);

  // Phase 2: the TUs whose callees' summaries changed are analyzed again
  // with the new facts (a cache hit where that was done before). A chain
  // of wrappers across files settles in a few rounds; what is left for a
  // longer one is picked up by the next run.
  CountProgress = false;
  for (unsigned Round = 0; Round < MaxIndexRounds; ++Round) {
    for (size_t I = 0; I < Jobs.size(); ++I)
      Absorb(I, Results[I]);
    Phase.clear();
    for (size_t I = 0; I < Jobs.size(); ++I) {
      if (!Results[I].Errors.empty())
        continue;
      std::string Digest;
      auto Facts = Index.factsFor(Jobs[I].File, Digest);
      if (Digest == Jobs[I].FactsDigest)
        continue;
      Jobs[I].Facts = std::move(Facts);
      Jobs[I].FactsDigest = std::move(Digest);
      if (std::optional<TranslationUnitResult> Hit = Speed.lookup(I, Configs)) {
        Results[I] = std::move(*Hit);
        FromCache[I] = true;
      } else {
        FromCache[I] = false;
        Phase.push_back({I, false});
      }
    }
    if (Opts.Verbose && !Phase.empty())
      Opts.Verbose("", "project index: " + std::to_string(Phase.size()) +
                           " file(s) analyzed again with the summaries of "
                           "functions defined in other files");
    RunTasks(Phase);
    if (Phase.empty())
      break;
  }
  if (!IndexPath.empty() && Index.dirty() && !Index.save(IndexPath) &&
      Opts.Verbose)
    Opts.Verbose("", "cannot write the project index " + IndexPath);
  Speed.finish(Results);

  std::set<std::string> FatalSeen(Fatal.begin(), Fatal.end());
  for (bool Hit : FromCache)
    S.CacheHits += Hit;
  for (size_t I = 0; I < Results.size(); ++I) {
    TranslationUnitResult &R = Results[I];
    S.LimitedTUs += !R.LimitsHit.empty();
    if (Opts.Verbose)
      for (const std::string &Line : R.LimitsHit)
        Opts.Verbose(Jobs[I].File, "analysis limit hit (findings may be "
                                   "partial): " + Line);
    for (std::string &E : R.ToolErrors)
      if (FatalSeen.insert(E).second)
        Fatal.push_back(std::move(E));
    for (FileError &E : R.Errors)
      Result.Errors.push_back(std::move(E));
    S.SuppressedByNoLint += R.SuppressedByNoLint;
    S.RemovedByHeaderFilter += R.HeaderFiltered;
    S.PreambleUsers += R.UsedPreamble;
    for (Finding &F : R.Findings)
      Result.Findings.push_back(std::move(F));
  }
  sortAndDedupe(Result.Findings);
  finalizeFingerprints(Result.Findings);
  std::sort(Result.Errors.begin(), Result.Errors.end(),
            [](const FileError &A, const FileError &B) {
              return std::tie(A.File, A.Message) < std::tie(B.File, B.Message);
            });

  if (!Lines.empty())
    S.RemovedByFilters += filterFindings(Result.Findings, [&](const Finding &F) {
      return Lines.passes(F.Loc.File, F.Loc.Line);
    });
  if (!Opts.DiffRevision.empty())
    S.RemovedByFilters += filterFindings(Result.Findings, [&](const Finding &F) {
      return isUnder(F.Loc.File, GitRoot) &&
             Changed.contains(relativeToRoot(F.Loc.File, GitRoot), F.Loc.Line);
    });
  if (!Opts.BaselineFile.empty())
    S.RemovedByBaseline += applyBaseline(Result.Findings, Baseline);
  return Result;
}

OutputOptions outputOptionsFor(const DriverOptions &Opts) {
  OutputOptions O;
  O.ProjectRoot = resolveProjectRoot(Opts.ProjectRoot);
  O.ToolVersion = toolVersion();
  for (const RuleInfo &R : allRules())
    O.Rules.push_back({R.Id, R.Summary, ruleDocFirstParagraph(R.Id),
                       ruleDocOrPlaceholder(R.Id)});
  O.Rules.push_back({NoLintErrorRule,
                     "A NOLINTBEGIN or NOLINTEND comment has no partner.",
                     "Every NOLINTBEGIN(...) needs a later NOLINTEND(...) "
                     "with the same rule list, as in clang-tidy.",
                     ""});
  return O;
}

#if !DISTLINT_HAVE_LSP
int runLspServer(const DriverOptions &) {
  llvm::errs() << "distlint: error: this distlint was built without the "
                  "language server (analyzer/lsp/)\n";
  return 2;
}
#endif

} // namespace distlint
