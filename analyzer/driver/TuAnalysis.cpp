//===- TuAnalysis.cpp - One translation unit, parsed and analyzed ---------===//
#include "TuAnalysis.h"
#include "Analysis.h"
#include "Isolation.h"
#include "ProjectIndex.h"
#include "engine/summaries/Exports.h"
#include "input/Paths.h"
#include "report/FindingCollector.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <chrono>
#include <optional>

using namespace clang;

namespace distlint {

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

/// One TU's view of the shared preamble, filled while it runs.
struct TuSpeed {
  TuPreamble Preamble;
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
    // The preamble's headers were read when it was built, not by this parse.
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
/// pointed at its shared preamble (loaded from the store's directory).
class TuToolAction : public tooling::ToolAction {
public:
  TuToolAction(const AnalysisOptions &Opts, FindingCollector &Collector,
               TuSpeed &Speed, llvm::vfs::InMemoryFileSystem &PchFiles,
               const std::string &MainFile)
      : Opts(Opts), Collector(Collector), Speed(Speed), PchFiles(PchFiles),
        MainFile(MainFile) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> Ops,
                     DiagnosticConsumer *Diags) override {
    std::optional<PreambleUse> Use;
    const TuPreamble &P = Speed.Preamble;
    if (P.Store && P.Shape) {
      Speed.Used = P.Store->ensure(*P.Shape, *Invocation, *Files, Ops, MainFile,
                                   /*MayBuild=*/false);
      if (Speed.Used) {
        Use.emplace(*Speed.Used, *P.Shape);
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
  llvm::vfs::InMemoryFileSystem &PchFiles;
  const std::string &MainFile;
};

/// Only builds Shape's preamble from the TU's invocation; parses nothing
/// else.
class PreambleBuildAction : public tooling::ToolAction {
public:
  PreambleBuildAction(TuPreamble Preamble, const std::string &MainFile)
      : Preamble(Preamble), MainFile(MainFile) {}
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> Ops,
                     DiagnosticConsumer *) override {
    return Preamble.Store->ensure(*Preamble.Shape, *Invocation, *Files,
                                  std::move(Ops), MainFile,
                                  /*MayBuild=*/true) != nullptr;
  }

private:
  TuPreamble Preamble;
  const std::string &MainFile;
};

/// A ClangTool for Job alone, on a physical file system with its own
/// working directory (ClangTool "changes directory" per command, which must
/// not touch a process cwd shared by worker threads) under an in-memory
/// layer that serves a shared preamble's PCH.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
physicalUnder(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Top) {
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  FS->pushOverlay(std::move(Top));
  return FS;
}

struct JobTool {
  JobTool(const CompileJob &Job, const DriverOptions &Opts)
      : DB(tooling::CompileCommand(Job.Directory, Job.File, Job.Args, "")),
        PchFiles(llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>()),
        Tool(DB, {Job.File}, std::make_shared<PCHContainerOperations>(),
             physicalUnder(PchFiles)) {
    Tool.setPrintErrorMessage(false);
    for (const auto &[Path, Text] : Opts.Overlays)
      Tool.mapVirtualFile(Path, Text);
  }
  SingleCommandDatabase DB;
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> PchFiles;
  tooling::ClangTool Tool;
};

/// The collector's options for Config: project root, severities and header
/// filters (regexes were validated by the caller, checkDriverOptions).
CollectorOptions collectorOptions(const DistlintConfig &Config,
                                  const DriverOptions &Opts,
                                  const std::string &ProjectRoot) {
  CollectorOptions COpts;
  COpts.ProjectRoot = ProjectRoot;
  std::string AsErrors = Opts.WarningsAsErrors;
  COpts.SeverityOf = [Config, AsErrors](llvm::StringRef Rule,
                                        Severity Default) {
    return Config.severityOf(Rule, Default, AsErrors);
  };
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
  return COpts;
}
} // namespace

TranslationUnitResult analyzeTu(const CompileJob &Job,
                                const DriverOptions &Opts,
                                const std::string &ProjectRoot,
                                ConfigResolver &Configs, bool Recover,
                                TuPreamble Preamble) {
  auto Start = std::chrono::steady_clock::now();
  TranslationUnitResult R;
  DistlintConfig Config;
  std::string ConfigError;
  if (!Configs.configFor(Job.File, Config, ConfigError)) {
    // A tool error (exit 2), and this file's entry under `errors` too.
    R.ToolErrors.push_back(ConfigError);
    R.Errors.push_back({Job.File,
                        "not analyzed: " + ConfigError,
                        {},
                        FileErrorKind::NotAnalyzed});
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
  AOpts.ProjectRoot = ProjectRoot;
  AOpts.Project = Job.Facts;
  if (Job.ExportSummaries)
    AOpts.AfterRules = [&R, &Job](Engine &E) {
      TuExports X = exportSummaries(E);
      std::string Given = ProjectIndex::digest(Job.Facts.get(), X.References);
      R.Summaries = ProjectIndex::encode(X, Given);
    };

  FindingCollector Collector(collectorOptions(Config, Opts, ProjectRoot));
  ErrorCollector Errors;
  JobTool T(Job, Opts);
  T.Tool.setDiagnosticConsumer(&Errors);
  TuSpeed Speed;
  Speed.Preamble = Preamble;
  TuToolAction Action(AOpts, Collector, Speed, *T.PchFiles, Job.File);
  int Rc = 1;
  if (Recover) {
    llvm::CrashRecoveryContext CRC;
    if (!CRC.RunSafely([&] { Rc = T.Tool.run(&Action); })) {
      R.Errors.push_back(
          {Job.File, "analysis crashed: " +
                         (CRC.RetCode > 128 ? signalName(CRC.RetCode - 128)
                                            : "fatal error") +
                         "; rerun without --no-isolation for a reliable "
                         "report, or with --crash-report=<dir>"});
      return R;
    }
  } else {
    Rc = T.Tool.run(&Action);
  }
  R.Findings = Collector.takeFindings();
  R.SuppressedByNoLint = Collector.suppressedCount();
  R.HeaderFiltered = Collector.headerFilteredCount();
  R.LimitsHit = Collector.takeLimitsHit();
  R.UsedPreamble = Speed.Used != nullptr;
  R.IncludeClosure = std::move(Speed.Closure);
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
  R.Milliseconds = static_cast<unsigned>(
      std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::steady_clock::now() - Start)
          .count());
  return R;
}

void buildSharedPreamble(const CompileJob &Job, const DriverOptions &Opts,
                         TuPreamble Preamble, bool Recover) {
  JobTool T(Job, Opts);
  IgnoringDiagConsumer Ignore;
  T.Tool.setDiagnosticConsumer(&Ignore);
  PreambleBuildAction Action(Preamble, Job.File);
  if (!Recover) {
    T.Tool.run(&Action);
    return;
  }
  llvm::CrashRecoveryContext CRC;
  CRC.RunSafely([&] { T.Tool.run(&Action); });
}

} // namespace distlint
