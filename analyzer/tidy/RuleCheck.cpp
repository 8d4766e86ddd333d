//===- RuleCheck.cpp ------------------------------------------------------===//
#include "RuleCheck.h"

#include "api/ApiTable.h"
#include "engine/Engine.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <mutex>

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint::tidy {

/// What the distlint checks of one translation unit share: the API index and
/// the Engine with its caches (summaries, CFG facts, uniformity).
struct TUState {
  TUState(ASTContext &Ctx, const api::UserApi &User)
      : TU(Ctx.getTranslationUnitDecl()), Api(User), TheEngine(Ctx, Api) {}
  const TranslationUnitDecl *TU;
  api::ApiIndex Api;
  Engine TheEngine;
};

namespace {

/// One TUState per live ASTContext. Entries are weak: the state dies with the
/// last check of its TU (clang-tidy recreates checks for every TU), so a later
/// ASTContext that happens to reuse the address never sees stale state; the
/// TranslationUnitDecl comparison guards the same thing once more.
std::shared_ptr<TUState> stateFor(ASTContext &Ctx, const api::UserApi &User) {
  static std::mutex Mutex;
  static std::map<const ASTContext *, std::weak_ptr<TUState>> States;
  std::lock_guard<std::mutex> Lock(Mutex);
  for (auto It = States.begin(); It != States.end();)
    It = It->second.expired() ? States.erase(It) : std::next(It);
  std::weak_ptr<TUState> &Slot = States[&Ctx];
  std::shared_ptr<TUState> State = Slot.lock();
  if (!State || State->TU != Ctx.getTranslationUnitDecl()) {
    State = std::make_shared<TUState>(Ctx, User);
    Slot = State;
  }
  return State;
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

} // namespace

RuleCheck::RuleCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
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
  State = stateFor(*R.Context, userApiFromOptions(TidyContext->getOptions()));
  TheRule->setContext(RuleContext{&State->TheEngine, this});
}

void RuleCheck::report(RawFinding F, const SourceManager &SM) {
  // Each builder must be emitted before the next diagnostic starts.
  if (F.Loc.isValid())
    diag(F.Loc, escapeForDiag(F.Message));
  else
    diag(escapeForDiag(F.Message));
  for (const RawNote &N : F.Notes) {
    if (N.Loc.isValid())
      diag(N.Loc, escapeForDiag(N.Message), DiagnosticIDs::Note);
    else
      diag(escapeForDiag(N.Message), DiagnosticIDs::Note);
  }
}

} // namespace distlint::tidy
