//===- RuleCheck.cpp ------------------------------------------------------===//
#include "RuleCheck.h"

#include "api/ApiTable.h"
#include "engine/Engine.h"
#include "engine/cfg/ErrorPaths.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <mutex>

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint::tidy {

/// What the distlint checks of one translation unit share: the API index and
/// the Engine with its caches (summaries, CFG facts, uniformity).
struct TUState {
  TUState(ASTContext &Ctx, const api::UserApi &User)
      : Api(User), TheEngine(Ctx, Api) {}
  api::ApiIndex Api;
  Engine TheEngine;
};

namespace {

/// One TUState per live ASTContext, owned here and dropped by the
/// ASTContext's own destructor (AddDeallocation): the Engine never outlives
/// the AST it points into (clang-tidy destroys checks only after the
/// ASTContext), and a later ASTContext that reuses the address never sees
/// stale state.
struct StateRegistry {
  std::mutex Lock;
  std::map<const ASTContext *, std::unique_ptr<TUState>> States;
};
StateRegistry &registry() {
  static StateRegistry R;
  return R;
}
void dropState(void *Ctx) {
  std::unique_ptr<TUState> Taken;
  StateRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  auto It = R.States.find(static_cast<const ASTContext *>(Ctx));
  if (It != R.States.end()) {
    Taken = std::move(It->second);
    R.States.erase(It);
  }
}
TUState &stateFor(ASTContext &Ctx, const api::UserApi &User) {
  StateRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  auto [It, Inserted] = R.States.try_emplace(&Ctx);
  if (Inserted) {
    It->second = std::make_unique<TUState>(Ctx, User);
    Ctx.AddDeallocation(&dropState, &Ctx);
  }
  return *It->second;
}

/// clang-tidy's global CheckOptions `distlint.RankSources`,
/// `distlint.CollectiveWrappers`, `distlint.WorldSizeSources` (';'- or
/// ','-separated qualified names): the same knowledge the standalone binary
/// reads from .distlint.yaml. Global, not per check, because all checks of a
/// TU share one Engine.
api::UserApi userApiFromOptions(const clang::tidy::ClangTidyOptions &Opts) {
  auto List = [&](llvm::StringRef Key) {
    std::vector<std::string> Out;
    auto It = Opts.CheckOptions.find(Key);
    if (It == Opts.CheckOptions.end())
      return Out;
    llvm::SmallVector<llvm::StringRef, 8> Parts;
    llvm::SplitString(It->second.Value, Parts, ";, \t\n");
    for (llvm::StringRef P : Parts)
      Out.push_back(P.str());
    return Out;
  };
  api::UserApi User;
  User.RankSources = List("distlint.RankSources");
  User.CollectiveWrappers = List("distlint.CollectiveWrappers");
  User.WorldSizeSources = List("distlint.WorldSizeSources");
  return User;
}

/// CheckOptions distlint.MissingTimeoutDefault / distlint.StepSyncInterval:
/// what the fix-its insert, as .distlint.yaml's keys of the same names.
FixOptions fixOptionsFrom(const clang::tidy::ClangTidyOptions &Opts) {
  FixOptions Out;
  auto It = Opts.CheckOptions.find("distlint.MissingTimeoutDefault");
  if (It != Opts.CheckOptions.end() && !It->second.Value.empty())
    Out.MissingTimeoutDefault = It->second.Value;
  It = Opts.CheckOptions.find("distlint.StepSyncInterval");
  unsigned N = 0;
  if (It != Opts.CheckOptions.end() &&
      !llvm::StringRef(It->second.Value).getAsInteger(10, N) && N >= 2)
    Out.StepSyncInterval = N;
  return Out;
}

/// clang-tidy keeps a diagnostic in a header when one of its notes is in
/// the main file, and distlint's notes often are (the rank test, the loop):
/// apply -header-filter / -exclude-header-filter to the finding's own place
/// here, as clang-tidy does for its built-in checks' single-location
/// warnings.
bool passesHeaderFilter(const clang::tidy::ClangTidyOptions &Opts,
                        SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isInvalid())
    return true;
  SourceLocation Exp = SM.getExpansionLoc(Loc);
  if (SM.isWrittenInMainFile(Exp))
    return true;
  if (SM.isInSystemHeader(Exp))
    return true; // clang-tidy's --system-headers decides
  OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(Exp));
  if (!File)
    return true;
  llvm::StringRef Name = File->getName();
  if (!Opts.HeaderFilterRegex || Opts.HeaderFilterRegex->empty() ||
      !llvm::Regex(*Opts.HeaderFilterRegex).match(Name))
    return false;
  return !(Opts.ExcludeHeaderFilterRegex &&
           !Opts.ExcludeHeaderFilterRegex->empty() &&
           llvm::Regex(*Opts.ExcludeHeaderFilterRegex).match(Name));
}

/// Clang diagnostics treat the description as a format string.
std::string escapeForDiag(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    if (C == '%')
      Out += '%';
    Out += C;
  }
  return Out;
}

/// CheckOptions distlint.ReportErrorPathDivergence: .distlint.yaml's key of
/// the same name (status-check exits reported as divergent exits).
bool reportErrorPathsFrom(const clang::tidy::ClangTidyOptions &Opts) {
  auto It = Opts.CheckOptions.find("distlint.ReportErrorPathDivergence");
  return It != Opts.CheckOptions.end() &&
         llvm::StringRef(It->second.Value).trim().equals_insensitive("true");
}

} // namespace

RuleCheck::RuleCheck(llvm::StringRef Name,
                     clang::tidy::ClangTidyContext *Context,
                     const RuleInfo &Info)
    : ClangTidyCheck(Name, Context), Info(Info), TidyContext(Context) {}

RuleCheck::~RuleCheck() = default;

void RuleCheck::registerMatchers(MatchFinder *Finder) {
  TheRule = Info.Create();
  // The TranslationUnitDecl is the first node the finder visits, so this
  // callback runs before any of the rule's: it hands the rule its Engine,
  // which can only exist once the ASTContext does.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  TheRule->registerMatchers(*Finder);
}

void RuleCheck::check(const MatchFinder::MatchResult &R) {
  if (!R.Nodes.getNodeAs<TranslationUnitDecl>("tu"))
    return;
  TUState &State =
      stateFor(*R.Context, userApiFromOptions(TidyContext->getOptions()));
  Fixes = fixOptionsFrom(TidyContext->getOptions());
  setReportErrorPaths(State.TheEngine,
                      reportErrorPathsFrom(TidyContext->getOptions()));
  TheRule->setContext(RuleContext{&State.TheEngine, this, &Fixes});
}

void RuleCheck::report(RawFinding F, const SourceManager &SM) {
  if (!passesHeaderFilter(TidyContext->getOptions(), F.Loc, SM))
    return;
  // Each builder must be emitted before the next diagnostic starts.
  if (F.Loc.isValid()) {
    auto D = diag(F.Loc, escapeForDiag(F.Message));
    for (const FixItHint &H : F.Fixes)
      D << H;
  } else {
    diag(escapeForDiag(F.Message));
  }
  for (const RawNote &N : F.Notes) {
    if (N.Loc.isValid())
      diag(N.Loc, escapeForDiag(N.Message), DiagnosticIDs::Note);
    else if (!N.OtherFile.empty())
      diag(escapeForDiag(N.OtherFile + ":" + std::to_string(N.OtherLine) +
                         ": " + N.Message),
           DiagnosticIDs::Note);
    else
      diag(escapeForDiag(N.Message), DiagnosticIDs::Note);
  }
}

} // namespace distlint::tidy
