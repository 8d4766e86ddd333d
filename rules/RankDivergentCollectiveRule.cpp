//===- RankDivergentCollectiveRule.cpp ------------------------------------===//
#include "RankDivergentCollectiveRule.h"
#include "engine/Engine.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

void RankDivergentCollectiveRule::registerMatchers(MatchFinder &Finder) {
  // Functions and lambdas of user code; the engine walks their bodies.
  Finder.addMatcher(functionDecl(isDefinition()).bind("function"), this);
  Finder.addMatcher(lambdaExpr().bind("lambda"), this);
}

void RankDivergentCollectiveRule::check(
    const MatchFinder::MatchResult &Result) {
  SM = Result.SourceManager;
  const FunctionDecl *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (const auto *L = Result.Nodes.getNodeAs<LambdaExpr>("lambda"))
    FD = L->getCallOperator();
  if (FD && !FD->isDependentContext() && !llvm::is_contained(Functions, FD))
    Functions.push_back(FD);
}

static std::string calleeName(const CollectiveSite &Site) {
  if (Site.Entry) {
    llvm::StringRef N(Site.Entry->Name);
    size_t Pos = N.rfind("::");
    return (Pos == llvm::StringRef::npos ? N : N.substr(Pos + 2)).str();
  }
  if (Site.Callee)
    return Site.Callee->getNameAsString();
  return "collective";
}

static std::string originNote(const VaryOrigin &O) {
  if (O.Kind == VaryKind::Rank)
    return O.What.empty() || O.What == "rank" ? "rank comes from here"
                                              : O.What + " comes from here";
  return "value differs between ranks: " + O.What;
}

void RankDivergentCollectiveRule::checkFunction(const FunctionDecl *FD) {
  Engine &E = engine();
  if (!E.isUserCode(FD))
    return;
  for (const CollectiveSite &Site : E.collectiveSites(FD)) {
    const CallExpr *Call = Site.Call;
    if (!E.isUserCode(Call->getBeginLoc()))
      continue;
    std::string Name = calleeName(Site);
    if (auto D = E.divergenceAt(Call)) {
      const char *Why =
          D->Origin.Kind == VaryKind::Rank ? "the rank" : "rank-local data";
      std::string Msg;
      if (D->IsLoop)
        Msg = "collective '" + Name +
              "' runs a number of times that depends "
              "on " +
              Why +
              "; ranks that leave the loop earlier leave the "
              "others waiting forever";
      else
        Msg = "collective '" + Name +
              "' is not reached by every rank: it "
              "depends on a branch on " +
              Why +
              ", so the ranks that skip it "
              "leave the others waiting forever";
      if (!Site.Entry)
        Msg = "call to '" + Name +
              "' issues a collective that not every "
              "rank reaches: it depends on a branch on " +
              std::string(Why) + " and ranks that skip it hang the others";
      auto Diag = diag(Call->getBeginLoc(), Msg, *SM);
      if (!Site.Entry && Site.InnerCollective)
        Diag.note(Site.InnerCollective->getBeginLoc(),
                  "collective issued here");
      SourceLocation BranchLoc =
          D->Condition
              ? D->Condition->getBeginLoc()
              : (D->Branch ? D->Branch->getBeginLoc() : SourceLocation());
      if (D->Branch && isa<CallExpr>(D->Branch))
        Diag.note(BranchLoc, "this call throws on some ranks only; the "
                             "catch handler skips the collective there");
      else if (BranchLoc.isValid())
        Diag.note(BranchLoc, D->IsLoop ? (D->Origin.Kind == VaryKind::Rank
                                              ? "loop condition depends on rank"
                                              : "loop condition depends on "
                                                "rank-local data")
                                       : (D->Origin.Kind == VaryKind::Rank
                                              ? "branch depends on rank"
                                              : "branch depends on rank-local "
                                                "data"));
      if (D->PassedAt)
        Diag.note(D->PassedAt->getBeginLoc(),
                  "rank-dependent value passed here");
      if (D->Origin.Loc.isValid())
        Diag.note(D->Origin.Loc, originNote(D->Origin));
      continue;
    }
    if (!Site.Entry)
      continue;
    for (const Engine::ArgumentMismatch &M : E.mismatchedArguments(Call)) {
      std::string What =
          std::string(M.Role) == "tensor shape"
              ? "the shape of the tensors passed to collective '" + Name +
                    "' differs between ranks; every "
                    "rank must pass tensors of the same shape"
              : "argument '" + std::string(M.Role) + "' of collective '" +
                    Name +
                    "' differs between ranks; every rank must "
                    "pass the same value";
      auto Diag = diag(Call->getBeginLoc(),
                       What + " or the collective hangs or corrupts data", *SM);
      Diag.note(M.Arg->getBeginLoc(),
                "this argument depends on " +
                    std::string(M.Origin.Kind == VaryKind::Rank
                                    ? "the rank"
                                    : "rank-local data"));
      if (M.Origin.Loc.isValid())
        Diag.note(M.Origin.Loc, originNote(M.Origin));
      break;
    }
  }
}

void RankDivergentCollectiveRule::onEndOfTranslationUnit() {
  for (const FunctionDecl *FD : Functions)
    checkFunction(FD);
  Functions.clear();
}

} // namespace distlint
