//===- Runner.cpp - analyzeFiles(): the driver's pipeline -----------------===//
#include "Runner.h"
#include "Analysis.h"
#include "CompileCommands.h"
#include "Isolation.h"
#include "RuleDocs.h"
#include "report/Baseline.h"
#include "report/Config.h"
#include "report/Filters.h"
#include "report/FindingCollector.h"
#include "report/Fingerprint.h"
#include "report/Paths.h"
#include "report/ResultSerialization.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
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
                const std::string &ResourceDir, DatabaseCache &Cache,
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
  Job.Args = cleanCommandLine(std::move(Argv), ResourceDir,
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
  std::string ResourceDir = findResourceDir(Opts);
  std::vector<CompileJob> Jobs;
  std::set<std::string> FatalSeen;
  for (const std::string &F : Files) {
    CompileJob Job;
    std::string FileError, FatalError;
    if (resolveOne(normalizePath(F), Opts, ResourceDir, Cache, Job, FileError,
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

//===--- One translation unit ----------------------------------------------===//

namespace {
/// Hands ClangTool exactly the command we resolved.
class SingleCommandDatabase : public tooling::CompilationDatabase {
public:
  explicit SingleCommandDatabase(tooling::CompileCommand Cmd)
      : Cmd(std::move(Cmd)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef) const override {
    return {Cmd};
  }

private:
  tooling::CompileCommand Cmd;
};

/// Keeps the first compiler error of the TU; warnings are not distlint's
/// business.
class ErrorCollector : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    ++Count;
    if (!First.empty())
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    std::string Where;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      PresumedLoc P = SM.getPresumedLoc(Info.getLocation());
      if (P.isValid()) {
        llvm::SmallString<256> Path(P.getFilename());
        SM.getFileManager().makeAbsolutePath(Path);
        At = Location{normalizePath(Path), P.getLine(), P.getColumn()};
        Where = At.File + ":" + std::to_string(At.Line) + ":" +
                std::to_string(At.Column) + ": ";
      }
    }
    First = Where + std::string(Msg);
  }
  Location At;
  std::string First;
  unsigned Count = 0;
};

class TuConsumer : public ASTConsumer {
public:
  TuConsumer(AnalysisOptions Opts, FindingCollector &Collector)
      : Opts(std::move(Opts)), Collector(Collector) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // A TU with a fatal error (missing header...) has an AST too broken to
    // analyze; other errors leave a usable AST (the error is still reported).
    if (!Ctx.getDiagnostics().hasFatalErrorOccurred()) {
      Collector.setASTContext(&Ctx);
      analyzeAST(Ctx, Opts, Collector);
      Collector.setASTContext(nullptr);
    }
    Collector.finishTranslationUnit(Ctx.getSourceManager());
  }

private:
  AnalysisOptions Opts;
  FindingCollector &Collector;
};

class TuAction : public ASTFrontendAction {
public:
  TuAction(const AnalysisOptions &Opts, FindingCollector &Collector)
      : Opts(Opts), Collector(Collector) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<TuConsumer>(Opts, Collector);
  }

private:
  const AnalysisOptions &Opts;
  FindingCollector &Collector;
};

class TuActionFactory : public tooling::FrontendActionFactory {
public:
  TuActionFactory(const AnalysisOptions &Opts, FindingCollector &Collector)
      : Opts(Opts), Collector(Collector) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<TuAction>(Opts, Collector);
  }

private:
  const AnalysisOptions &Opts;
  FindingCollector &Collector;
};

/// Recover: catch a crash in-process (CrashRecoveryContext) when the TU does
/// not run in its own process (Isolation.h), where letting it die is better.
TranslationUnitResult analyzeTu(const CompileJob &Job,
                                const DriverOptions &Opts,
                                const std::string &ProjectRoot,
                                ConfigResolver &Configs, bool Recover) {
  TranslationUnitResult R;
  DistlintConfig Config;
  std::string ConfigError;
  if (!Configs.configFor(Job.File, Config, ConfigError)) {
    // A tool error (exit 2), and this file's entry under `errors` too.
    R.ToolErrors.push_back(ConfigError);
    R.Errors.push_back({Job.File, "not analyzed: " + ConfigError});
    return R;
  }
  AnalysisOptions AOpts;
  std::string Globs = Opts.RuleGlobs;
  AOpts.RuleEnabled = [Config, Globs](llvm::StringRef Rule) {
    return Config.ruleEnabled(Rule, Globs);
  };
  AOpts.User = Config.User;
  AOpts.ReportErrorPaths = Config.ReportErrorPathDivergence.value_or(false);
  AOpts.Fixes = Config.Fixes;

  CollectorOptions COpts;
  COpts.ProjectRoot = ProjectRoot;
  std::string AsErrors = Opts.WarningsAsErrors;
  COpts.SeverityOf = [Config, AsErrors](llvm::StringRef Rule) {
    return Config.severityOf(Rule, AsErrors);
  };
  // Regexes were validated by the caller (checkDriverOptions).
  auto Filter = [](const std::optional<std::string> &Cli,
                   const std::optional<std::string> &Cfg)
      -> std::shared_ptr<llvm::Regex> {
    const std::optional<std::string> &Re = Cli ? Cli : Cfg;
    if (!Re)
      return nullptr;
    return std::make_shared<llvm::Regex>(*Re);
  };
  COpts.HeaderFilter = Filter(Opts.HeaderFilter, Config.HeaderFilterRegex);
  COpts.ExcludeHeaderFilter =
      Filter(Opts.ExcludeHeaderFilter, Config.ExcludeHeaderFilterRegex);
  FindingCollector Collector(std::move(COpts));
  ErrorCollector Errors;

  tooling::CompileCommand Cmd(Job.Directory, Job.File, Job.Args, "");
  SingleCommandDatabase DB(std::move(Cmd));
  // A physical file system with its own working directory: ClangTool
  // "changes directory" per command, which must not touch the process cwd
  // shared by all worker threads.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS(
      llvm::vfs::createPhysicalFileSystem().release());
  tooling::ClangTool Tool(DB, {Job.File},
                          std::make_shared<PCHContainerOperations>(), FS);
  Tool.setPrintErrorMessage(false);
  Tool.setDiagnosticConsumer(&Errors);
  for (const auto &[Path, Text] : Opts.Overlays)
    Tool.mapVirtualFile(Path, Text);
  TuActionFactory Factory(AOpts, Collector);
  int Rc = 1;
  if (Recover) {
    llvm::CrashRecoveryContext CRC;
    if (!CRC.RunSafely([&] { Rc = Tool.run(&Factory); })) {
      R.Errors.push_back(
          {Job.File, "analysis crashed: " +
                         (CRC.RetCode > 128 ? signalName(CRC.RetCode - 128)
                                            : "fatal error") +
                         "; rerun without --no-isolation for a reliable "
                         "report, or with --crash-report=<dir>"});
      return R;
    }
  } else {
    Rc = Tool.run(&Factory);
  }
  R.Findings = Collector.takeFindings();
  R.SuppressedByNoLint = Collector.suppressedCount();
  R.HeaderFiltered = Collector.headerFilteredCount();
  if (Errors.Count > 0) {
    std::string Msg = Errors.First;
    if (Errors.Count > 1)
      Msg += " (and " + std::to_string(Errors.Count - 1) + " more error" +
             (Errors.Count > 2 ? "s" : "") + ")";
    // Which command produced the error: a borrowed or foreign command is
    // the usual cause of a missing header.
    if (!Opts.UseFixedFlags && !Job.Origin.empty())
      Msg += " [using " + Job.Origin + "]";
    R.Errors.push_back({Job.File, Msg, Errors.At});
  } else if (Rc != 0) {
    R.Errors.push_back({Job.File, "clang could not process this file"});
  }
  return R;
}
} // namespace

//===--- The pipeline -------------------------------------------------------===//

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

  std::vector<CompileJob> Jobs =
      resolveCompileCommands(Files, Opts, Result.Errors, Fatal);
  S.TranslationUnits = Jobs.size();
  if (Opts.Verbose)
    for (const CompileJob &Job : Jobs)
      for (const std::string &Line : Job.Adjustments)
        Opts.Verbose(Job.File, Line);

  ConfigResolver Configs(Opts.ConfigFile, Opts.InlineConfig);
  std::vector<TranslationUnitResult> Results(Jobs.size());
  unsigned Parallel = Opts.Jobs ? Opts.Jobs
                                : defaultParallelism(BytesPerTranslationUnit);
  Parallel = std::max(1u, std::min<unsigned>(Parallel, Jobs.size()));
  std::mutex ProgressMutex;
  unsigned Done = 0;
  auto Progress = [&](size_t I) {
    if (Opts.Progress) {
      std::lock_guard<std::mutex> Lock(ProgressMutex);
      Opts.Progress(++Done, Jobs.size(), Jobs[I].File);
    }
  };
  if (Opts.Isolate) {
    IsolationOptions IOpts;
    IOpts.Parallel = Parallel;
    IOpts.CrashReportDir = Opts.CrashReportDir;
    IOpts.OnDone = Progress;
    Results = runIsolated(
        Jobs.size(),
        [&](size_t I) {
          return analyzeTu(Jobs[I], Opts, ProjectRoot, Configs,
                           /*Recover=*/false);
        },
        [&](size_t I) {
          std::string Command = "cd " + Jobs[I].Directory + " &&";
          for (const std::string &A : Jobs[I].Args)
            Command += " " + A;
          return IsolatedTask{Jobs[I].File, Command};
        },
        IOpts);
  } else {
    static std::once_flag CrashRecoveryOnce;
    std::call_once(CrashRecoveryOnce,
                   [] { llvm::CrashRecoveryContext::Enable(); });
    auto RunJob = [&](size_t I) {
      Results[I] = analyzeTu(Jobs[I], Opts, ProjectRoot, Configs,
                             /*Recover=*/true);
      Progress(I);
    };
    if (Parallel <= 1) {
      for (size_t I = 0; I < Jobs.size(); ++I)
        RunJob(I);
    } else {
      llvm::StdThreadPool Pool(llvm::hardware_concurrency(Parallel));
      for (size_t I = 0; I < Jobs.size(); ++I)
        Pool.async([&, I] { RunJob(I); });
      Pool.wait();
    }
  }

  std::set<std::string> FatalSeen(Fatal.begin(), Fatal.end());
  for (TranslationUnitResult &R : Results) {
    for (std::string &E : R.ToolErrors)
      if (FatalSeen.insert(E).second)
        Fatal.push_back(std::move(E));
    for (FileError &E : R.Errors)
      Result.Errors.push_back(std::move(E));
    S.SuppressedByNoLint += R.SuppressedByNoLint;
    S.RemovedByHeaderFilter += R.HeaderFiltered;
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
