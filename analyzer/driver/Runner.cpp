//===- Runner.cpp - analyzeFiles(): the driver's pipeline -----------------===//
#include "Runner.h"
#include "Analysis.h"
#include "CompileCommands.h"
#include "Preamble.h"
#include "ResultCache.h"
#include "Shard.h"
#include "RuleDocs.h"
#include "report/Baseline.h"
#include "report/Config.h"
#include "report/Filters.h"
#include "report/FindingCollector.h"
#include "report/Fingerprint.h"
#include "report/Paths.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"

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
/// the file, else the first build*/ directory of the cwd that knows it.
const tooling::CompilationDatabase *
databaseForFile(const std::string &File, DatabaseCache &Cache,
                std::string &Error, bool &Found) {
  const tooling::CompilationDatabase *DB = Cache.findUpward(
      llvm::sys::path::parent_path(File).str(), Error, Found);
  if (Found)
    return DB;
  const tooling::CompilationDatabase *Fallback = nullptr;
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
        return Candidate;
      }
    if (!Fallback)
      Fallback = Candidate;
  }
  if (Fallback) {
    Found = true;
    return Fallback;
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
  if (!llvm::sys::fs::exists(File) && !Opts.Overlays.count(File)) {
    FileError = "no such file";
    return false;
  }
  std::vector<std::string> Argv;
  if (Opts.UseFixedFlags) {
    Argv = {"clang-tool"};
    Argv.insert(Argv.end(), Opts.FixedFlags.begin(), Opts.FixedFlags.end());
    Argv.push_back(File);
    Job.Directory = currentDir();
  } else {
    std::string Error;
    bool Found = false;
    const tooling::CompilationDatabase *DB =
        Opts.BuildPath.empty()
            ? databaseForFile(File, Cache, Error, Found)
            : Cache.findUpward(buildDirOf(Opts.BuildPath), Error, Found);
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
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Where = std::string(P.getFilename()) + ":" +
                std::to_string(P.getLine()) + ":" +
                std::to_string(P.getColumn()) + ": ";
    }
    First = Where + std::string(Msg);
  }
  std::string First;
  unsigned Count = 0;
};

/// What the speed-ups share between the TUs of one run.
struct RunContext {
  PreambleStore *Preambles = nullptr; ///< Null: --no-preamble-sharing.
  ResultCache *Cache = nullptr;       ///< Null: --no-cache.
};

/// One TU's view of the shared machinery, filled while it runs.
struct TuSpeed {
  PreambleShape Shape;
  bool WantPreamble = false;
  SharedPreamble *Used = nullptr;
  std::vector<std::string> Closure; ///< Files the parse read.
};

class TuConsumer : public ASTConsumer {
public:
  TuConsumer(AnalysisOptions Opts, FindingCollector &Collector, TuSpeed &Speed)
      : Opts(std::move(Opts)), Collector(Collector), Speed(Speed) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // A TU with a fatal error (missing header...) has an AST too broken to
    // analyze; other errors leave a usable AST (the error is still reported).
    if (!Ctx.getDiagnostics().hasFatalErrorOccurred()) {
      Collector.setASTContext(&Ctx);
      analyzeAST(Ctx, Opts, Collector);
      Collector.setASTContext(nullptr);
    }
    Collector.finishTranslationUnit(Ctx.getSourceManager());
    recordClosure(Ctx.getSourceManager());
  }

private:
  void recordClosure(const SourceManager &SM) {
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      llvm::SmallString<256> Path(It->first.getName());
      SM.getFileManager().makeAbsolutePath(Path);
      Speed.Closure.push_back(normalizePath(Path));
    }
    if (Speed.Used)
      Speed.Closure.insert(Speed.Closure.end(),
                           Speed.Used->Dependencies.begin(),
                           Speed.Used->Dependencies.end());
  }

  AnalysisOptions Opts;
  FindingCollector &Collector;
  TuSpeed &Speed;
};

class TuAction : public ASTFrontendAction {
public:
  TuAction(const AnalysisOptions &Opts, FindingCollector &Collector,
           TuSpeed &Speed)
      : Opts(Opts), Collector(Collector), Speed(Speed) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<TuConsumer>(Opts, Collector, Speed);
  }

private:
  const AnalysisOptions &Opts;
  FindingCollector &Collector;
  TuSpeed &Speed;
};

/// FrontendActionFactory::runInvocation, plus: the TU's invocation is
/// pointed at its shared preamble (built by the first TU that needs it).
class TuToolAction : public tooling::ToolAction {
public:
  TuToolAction(const AnalysisOptions &Opts, FindingCollector &Collector,
               TuSpeed &Speed, const RunContext &Run,
               llvm::vfs::InMemoryFileSystem &PchFiles,
               const std::string &MainFile)
      : Opts(Opts), Collector(Collector), Speed(Speed), Run(Run),
        PchFiles(PchFiles), MainFile(MainFile) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> Ops,
                     DiagnosticConsumer *Diags) override {
    std::optional<PreambleUse> Use;
    if (Speed.WantPreamble && Run.Preambles) {
      Speed.Used = Run.Preambles->ensure(Speed.Shape, *Invocation, *Files, Ops,
                                         MainFile);
      if (Speed.Used) {
        Use.emplace(*Speed.Used, Speed.Shape);
        Use->addTo(PchFiles);
        Use->apply(*Invocation);
        Collector.setPreambleOffsetMap(
            [&U = *Use](unsigned Offset) { return U.mapOffset(Offset); });
      }
    }
    CompilerInstance Compiler(std::move(Ops));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    TuAction Action(Opts, Collector, Speed);
    Compiler.createDiagnostics(Diags, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.createSourceManager(*Files);
    bool Ok = Compiler.ExecuteAction(Action);
    Files->clearStatCache();
    Collector.setPreambleOffsetMap(nullptr);
    return Ok;
  }

private:
  const AnalysisOptions &Opts;
  FindingCollector &Collector;
  TuSpeed &Speed;
  const RunContext &Run;
  llvm::vfs::InMemoryFileSystem &PchFiles;
  const std::string &MainFile;
};

struct TuResult {
  std::vector<Finding> Findings;
  std::optional<FileError> Error;
  std::string Fatal;
  unsigned Suppressed = 0;
  bool FromCache = false;
  bool UsedPreamble = false;
  double Seconds = 0;
};

/// Every rule's effective state and the user API lists: what the config
/// decides about a TU's result.
std::string configDigest(const DistlintConfig &Config, llvm::StringRef Globs) {
  KeyBuilder K;
  for (const RuleInfo &R : allRules()) {
    bool On = Config.ruleEnabled(R.Id, Globs);
    K.add(R.Id);
    K.add(On ? severityName(Config.severityOf(R.Id)) : "off");
  }
  K.add(severityName(Config.severityOf(NoLintErrorRule)));
  for (const auto *List : {&Config.User.RankSources, &Config.User.CollectiveWrappers,
                           &Config.User.WorldSizeSources}) {
    K.add(std::to_string(List->size()));
    for (const std::string &Name : *List)
      K.add(Name);
  }
  return K.hex();
}

TuResult analyzeTu(const CompileJob &Job, const DriverOptions &Opts,
                   const std::string &ProjectRoot, ConfigResolver &Configs,
                   const RunContext &Run, TuSpeed &Speed) {
  TuResult R;
  auto Start = std::chrono::steady_clock::now();
  DistlintConfig Config;
  std::string ConfigError;
  if (!Configs.configFor(Job.File, Config, ConfigError)) {
    R.Fatal = ConfigError;
    return R;
  }
  std::string ManifestKey;
  if (Run.Cache) {
    ManifestKey = Run.Cache->manifestKey(Job.File, Job.Directory,
                                         effectiveFlags(Job),
                                         configDigest(Config, Opts.RuleGlobs));
    CachedTu Hit;
    if (Run.Cache->lookup(ManifestKey, Hit)) {
      R.Findings = std::move(Hit.Findings);
      R.Suppressed = Hit.Suppressed;
      R.FromCache = true;
      return R;
    }
  }
  AnalysisOptions AOpts;
  std::string Globs = Opts.RuleGlobs;
  AOpts.RuleEnabled = [Config, Globs](llvm::StringRef Rule) {
    return Config.ruleEnabled(Rule, Globs);
  };
  AOpts.User = Config.User;
  AOpts.ProjectRoot = ProjectRoot;

  CollectorOptions COpts;
  COpts.ProjectRoot = ProjectRoot;
  COpts.SeverityOf = [Config](llvm::StringRef Rule) {
    return Config.severityOf(Rule);
  };
  FindingCollector Collector(std::move(COpts));
  ErrorCollector Errors;

  tooling::CompileCommand Cmd(Job.Directory, Job.File, Job.Args, "");
  SingleCommandDatabase DB(std::move(Cmd));
  // A physical file system with its own working directory: ClangTool
  // "changes directory" per command, which must not touch the process cwd
  // shared by all worker threads. The in-memory layer serves a shared
  // preamble's PCH.
  auto PchFiles = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  FS->pushOverlay(PchFiles);
  tooling::ClangTool Tool(DB, {Job.File},
                          std::make_shared<PCHContainerOperations>(), FS);
  Tool.setPrintErrorMessage(false);
  Tool.setDiagnosticConsumer(&Errors);
  for (const auto &[Path, Text] : Opts.Overlays)
    Tool.mapVirtualFile(Path, Text);
  TuToolAction Action(AOpts, Collector, Speed, Run, *PchFiles, Job.File);
  int Rc = 1;
  llvm::CrashRecoveryContext CRC;
  bool Survived = CRC.RunSafely([&] { Rc = Tool.run(&Action); });
  if (!Survived) {
    R.Error = FileError{Job.File, "distlint crashed while analyzing this "
                                  "file; please report it"};
    return R;
  }
  R.Findings = Collector.takeFindings();
  R.Suppressed = Collector.suppressedCount();
  R.UsedPreamble = Speed.Used != nullptr;
  if (Errors.Count > 0) {
    std::string Msg = Errors.First;
    if (Errors.Count > 1)
      Msg += " (and " + std::to_string(Errors.Count - 1) + " more error" +
             (Errors.Count > 2 ? "s" : "") + ")";
    R.Error = FileError{Job.File, Msg};
  } else if (Rc != 0) {
    R.Error = FileError{Job.File, "clang could not process this file"};
  }
  R.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            Start)
                  .count();
  // Only clean parses are cached: an error may go away without any file of
  // the closure changing (a header added to the search path).
  if (Run.Cache && !R.Error)
    Run.Cache->store(ManifestKey, Job.File, Speed.Closure,
                     CachedTu{R.Findings, R.Suppressed, R.Seconds});
  return R;
}
/// Each TU takes the prefix of its preamble that the most TUs of this run
/// have in common (ties: the longest), or the longest one the cache
/// directory holds; a prefix nobody else takes is not worth building
/// (unless Always).
void choosePreambles(std::vector<TuSpeed> &Speed, PreambleStore &Store,
                     bool Always) {
  std::map<std::string, unsigned> Count;
  for (TuSpeed &T : Speed)
    if (T.Shape.Shareable)
      for (const PreambleShape::Prefix &P : T.Shape.Prefixes)
        ++Count[P.Key];
  std::map<std::string, unsigned> Users;
  for (TuSpeed &T : Speed) {
    if (!T.Shape.Shareable)
      continue;
    size_t Best = T.Shape.Prefixes.size() - 1;
    for (size_t I = 0; I < T.Shape.Prefixes.size(); ++I)
      if (Count[T.Shape.Prefixes[I].Key] >= Count[T.Shape.Prefixes[Best].Key])
        Best = I;
    if (Count[T.Shape.Prefixes[Best].Key] < 2)
      for (size_t I = T.Shape.Prefixes.size(); I-- > 0;)
        if (Store.onDisk(T.Shape.Prefixes[I].Key)) {
          Best = I;
          break;
        }
    T.Shape.choose(Best);
    ++Users[T.Shape.Key];
  }
  for (TuSpeed &T : Speed)
    T.WantPreamble = T.Shape.Shareable &&
                     (Users[T.Shape.Key] >= 2 || Always ||
                      Store.onDisk(T.Shape.Key));
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
  if (!Opts.ResourceDir.empty() && !isResourceDir(Opts.ResourceDir))
    Fatal.push_back("--resource-dir " + Opts.ResourceDir +
                    " is not a Clang resource directory (no include/stddef.h)");
  if (!Fatal.empty())
    return Result;

  std::vector<CompileJob> Jobs =
      resolveCompileCommands(Files, Opts, Result.Errors, Fatal);

  ContentHasher Hasher(&Opts.Overlays);
  std::unique_ptr<ResultCache> Cache;
  std::string CacheDir = Opts.CacheDir.empty() ? defaultCacheDir()
                                               : normalizePath(Opts.CacheDir);
  if (Opts.UseCache && !CacheDir.empty()) {
    std::unique_ptr<RemoteStorage> Remote;
    if (!Opts.RemoteStorage.empty()) {
      Remote = openRemoteStorage(Opts.RemoteStorage, Error);
      if (!Remote) {
        Fatal.push_back(Error);
        return Result;
      }
    }
    Cache = std::make_unique<ResultCache>(CacheDir, Opts.CacheMaxBytes,
                                          ProjectRoot, std::move(Remote),
                                          Hasher);
  }
  if (Opts.ShardCount > 0) {
    std::vector<std::string> Names;
    for (const CompileJob &J : Jobs)
      Names.push_back(J.File);
    std::vector<CompileJob> Mine;
    for (size_t I : selectShard(Names, Opts.ShardIndex, Opts.ShardCount,
                                [&](const std::string &File) {
                                  return Cache ? Cache->lastCost(File)
                                               : std::nullopt;
                                }))
      Mine.push_back(std::move(Jobs[I]));
    Jobs = std::move(Mine);
  }
  S.TranslationUnits = Jobs.size();

  static std::once_flag CrashRecoveryOnce;
  std::call_once(CrashRecoveryOnce, [] { llvm::CrashRecoveryContext::Enable(); });

  std::mutex LogMutex;
  auto Log = [&](const std::string &Line) {
    if (!Opts.Verbose)
      return;
    std::lock_guard<std::mutex> Lock(LogMutex);
    Opts.Verbose(Line);
  };

  // Which TUs share a preamble: the same key for two or more of them, or a
  // preamble the cache directory already holds.
  RunContext Run;
  Run.Cache = Cache.get();
  std::unique_ptr<PreambleStore> Preambles;
  std::vector<TuSpeed> Speed(Jobs.size());
  if (Opts.Preambles != DriverOptions::PreambleSharing::Off) {
    Preambles = std::make_unique<PreambleStore>(Cache ? CacheDir : "", Hasher);
    Run.Preambles = Preambles.get();
    for (size_t I = 0; I < Jobs.size(); ++I) {
      std::string Text;
      if (Opts.Overlays.count(Jobs[I].File))
        Text = Opts.Overlays.at(Jobs[I].File);
      else if (auto Buffer = llvm::MemoryBuffer::getFile(Jobs[I].File))
        Text = (*Buffer)->getBuffer().str();
      Speed[I].Shape = computePreambleShape(Text, Jobs[I]);
    }
    choosePreambles(Speed, *Preambles,
                    Opts.Preambles == DriverOptions::PreambleSharing::Always);
  }

  // The first TU of each preamble starts first (it builds the preamble), then
  // TUs that need no preamble, then the preamble's other users: fewer
  // threads wait for a preamble being built.
  std::vector<size_t> Order;
  std::set<std::string> Keys;
  std::vector<bool> Leader(Jobs.size());
  for (size_t I = 0; I < Jobs.size(); ++I)
    Leader[I] = Speed[I].WantPreamble && Keys.insert(Speed[I].Shape.Key).second;
  for (size_t I = 0; I < Jobs.size(); ++I)
    if (Leader[I])
      Order.push_back(I);
  for (size_t I = 0; I < Jobs.size(); ++I)
    if (!Speed[I].WantPreamble)
      Order.push_back(I);
  for (size_t I = 0; I < Jobs.size(); ++I)
    if (Speed[I].WantPreamble && !Leader[I])
      Order.push_back(I);

  ConfigResolver Configs(Opts.ConfigFile);
  std::vector<TuResult> Results(Jobs.size());
  std::mutex ProgressMutex;
  unsigned Done = 0;
  auto RunJob = [&](size_t I) {
    Results[I] =
        analyzeTu(Jobs[I], Opts, ProjectRoot, Configs, Run, Speed[I]);
    if (Results[I].FromCache)
      Log("cache hit: " + Jobs[I].File);
    if (Opts.Progress) {
      std::lock_guard<std::mutex> Lock(ProgressMutex);
      Opts.Progress(++Done, Jobs.size(), Jobs[I].File);
    }
  };
  unsigned Threads = Opts.Jobs ? Opts.Jobs : llvm::hardware_concurrency().compute_thread_count();
  Threads = std::max(1u, std::min<unsigned>(Threads, Jobs.size()));
  if (Threads <= 1) {
    for (size_t I : Order)
      RunJob(I);
  } else {
    llvm::StdThreadPool Pool(llvm::hardware_concurrency(Threads));
    for (size_t I : Order)
      Pool.async([&, I] { RunJob(I); });
    Pool.wait();
  }

  if (Preambles)
    for (const std::shared_ptr<SharedPreamble> &P : Preambles->all()) {
      if (!P->Pch) {
        Log("preamble " + P->Key.substr(0, 12) +
            ": could not be built; its TUs parsed without it");
        continue;
      }
      std::string Line = "preamble " + P->Key.substr(0, 12) + " (" +
                         std::to_string(P->Dependencies.size()) + " files, " +
                         std::to_string(P->Pch->getBufferSize() >> 20) +
                         " MiB) " +
                         (P->LoadedFromDisk
                              ? std::string("loaded from the cache directory")
                              : "built from " + P->BuiltFrom + " in " +
                                    llvm::formatv("{0:f1}", P->BuildSeconds)
                                        .str() +
                                    " s") +
                         ", used by " + std::to_string(P->Users.size()) +
                         " TU(s)";
      if (!P->LoadedFromDisk && P->Users.size() > 1)
        Line += "; saved about " +
                llvm::formatv("{0:f1}", P->BuildSeconds * (P->Users.size() - 1))
                    .str() +
                " s of parsing";
      Log(Line);
      std::vector<std::string> Users = P->Users;
      std::sort(Users.begin(), Users.end());
      for (const std::string &U : Users)
        Log("  shares preamble " + P->Key.substr(0, 12) + ": " + U);
    }
  if (Cache) {
    Log("result cache " + CacheDir + ": " +
        std::to_string(Cache->Stats.LocalHits) + " local hit(s), " +
        std::to_string(Cache->Stats.RemoteHits) + " remote hit(s), " +
        std::to_string(Cache->Stats.Misses) + " miss(es), " +
        std::to_string(Cache->Stats.Stores) + " stored" +
        (Opts.RemoteStorage.empty()
             ? std::string()
             : ", " + std::to_string(Cache->Stats.RemoteStores) +
                   " uploaded"));
    Cache->evict();
  }

  std::set<std::string> FatalSeen(Fatal.begin(), Fatal.end());
  for (TuResult &R : Results) {
    if (!R.Fatal.empty() && FatalSeen.insert(R.Fatal).second)
      Fatal.push_back(R.Fatal);
    if (R.Error)
      Result.Errors.push_back(std::move(*R.Error));
    S.SuppressedByNoLint += R.Suppressed;
    S.CacheHits += R.FromCache;
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
