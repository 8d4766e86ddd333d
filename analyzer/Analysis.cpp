//===- Analysis.cpp -------------------------------------------------------===//
#include "Analysis.h"
#include "engine/Engine.h"
#include "engine/cfg/ErrorPaths.h"
#include "input/Paths.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace distlint {

namespace {
/// Top-level declarations of the main file and the project's own headers:
/// the only places rules look.
std::vector<Decl *> userTopLevelDecls(ASTContext &Ctx,
                                      llvm::StringRef ProjectRoot) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseMap<FileID, bool> UserFile;
  auto IsUser = [&](FileID FID) {
    auto [It, Inserted] = UserFile.try_emplace(FID, true);
    if (!Inserted)
      return It->second;
    if (FID == SM.getMainFileID() || FID == SM.getPreambleFileID())
      return It->second = true;
    OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
    if (!File)
      return It->second = true; // <built-in>, <command line>
    llvm::SmallString<256> Path(File->getName());
    SM.getFileManager().makeAbsolutePath(Path);
    return It->second = isUserPath(normalizePath(Path), ProjectRoot);
  };
  std::vector<Decl *> Result;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        !IsUser(SM.getFileID(Loc)))
      continue;
    Result.push_back(D);
  }
  return Result;
}

class AnalysisConsumer : public ASTConsumer {
public:
  AnalysisConsumer(AnalysisOptions Opts, DiagnosticSink &Sink)
      : Opts(std::move(Opts)), Sink(Sink) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // A TU with hard errors still gets analyzed: the driver reports the
    // errors, and rules only see what Clang could build.
    analyzeAST(Ctx, Opts, Sink);
  }

private:
  AnalysisOptions Opts;
  DiagnosticSink &Sink;
};
} // namespace

void analyzeAST(ASTContext &Ctx, const AnalysisOptions &Opts,
                DiagnosticSink &Sink) {
  api::ApiIndex Api(Opts.User, Opts.Project.get());
  Engine TheEngine(Ctx, Api);
  setReportErrorPaths(TheEngine, Opts.ReportErrorPaths);

  std::vector<std::unique_ptr<Rule>> Rules;
  ast_matchers::MatchFinder Finder;
  for (const RuleInfo &Info : allRules()) {
    if (Opts.RuleEnabled && !Opts.RuleEnabled(Info.Id))
      continue;
    Rules.push_back(Info.Create());
    Rules.back()->setContext(RuleContext{&TheEngine, &Sink, &Opts.Fixes});
    Rules.back()->registerMatchers(Finder);
  }
  if (Rules.empty()) {
    if (Opts.AfterRules)
      Opts.AfterRules(TheEngine);
    return;
  }

  std::vector<Decl *> Scope = userTopLevelDecls(Ctx, Opts.ProjectRoot);
  std::vector<Decl *> OldScope = Ctx.getTraversalScope();
  Ctx.setTraversalScope(Scope);
  Finder.matchAST(Ctx);
  // matchAST already called onEndOfTranslationUnit() on every callback.
  Ctx.setTraversalScope(OldScope);
  if (Opts.AfterRules)
    Opts.AfterRules(TheEngine);
  if (!TheEngine.limits().Hits.empty())
    Sink.limitsHit(TheEngine.limits().Hits);
}

std::unique_ptr<ASTConsumer> makeAnalysisConsumer(AnalysisOptions Opts,
                                                  DiagnosticSink &Sink) {
  return std::make_unique<AnalysisConsumer>(std::move(Opts), Sink);
}

} // namespace distlint
