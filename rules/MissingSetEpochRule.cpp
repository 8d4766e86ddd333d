//===- MissingSetEpochRule.cpp --------------------------------------------===//
//
// Matchers: every sampler construction and make_data_loader call of the TU
// (the engine's role index). Engine questions (engine/objects/DataLoaders.h):
// which loader a call builds and where it is iterated, whether every epoch
// reseeds the sampler before the copy, whether shards differ in length.
// This file only words the answers.
//
//===----------------------------------------------------------------------===//
#include "MissingSetEpochRule.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/RoleSites.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/objects/DataLoaders.h"
#include "fixes/SetEpochFixes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

namespace {
const char *const OnceMsg =
    "set_epoch is called once, before the epoch loop: every epoch reuses "
    "this seed, so the sampler shuffles into the same order each epoch; call "
    "sampler.set_epoch(epoch) inside the epoch loop, before building the "
    "loader";
const char *const CallMessages[] = {
    OnceMsg,
    "set_epoch has no effect: the loader built at line %0 holds its own copy "
    "of the sampler and never sees this epoch; call set_epoch before "
    "building the loader, inside the epoch loop",
    "set_epoch's argument does not change from one epoch to the next: the "
    "sampler shuffles into the same order every epoch; pass the epoch number",
    "set_epoch is called after make_data_loader (line %0) copied the "
    "sampler: this epoch's loader still uses the previous epoch's seed (the "
    "first two epochs share an order); call it before building the loader",
    "set_epoch runs only on the ranks that take a rank-dependent branch: "
    "the other ranks' samplers keep their first epoch and shuffle into the "
    "same order every epoch; call set_epoch(epoch) on every rank",
};
} // namespace

void MissingSetEpochRule::registerMatchers(MatchFinder &Finder) {
  // The analysis runs once per TU over the engine's role index; this
  // matcher only records that the TU has user code.
  Finder.addMatcher(translationUnitDecl().bind("tu"), this);
}

void MissingSetEpochRule::check(const MatchFinder::MatchResult &) {}

void MissingSetEpochRule::onEndOfTranslationUnit() {
  Engine &E = engine();
  SM = &E.context().getSourceManager();
  for (const Expr *X : callsWithRole(E, api::Role::SamplerType))
    checkSamplerConstruction(X);
  for (const Expr *X : callsWithRole(E, api::Role::DataLoaderFactory))
    if (const auto *Call = dyn_cast<CallExpr>(X))
      if (auto F = loaderFacts(E, Call))
        checkLoader(*F);
}

void MissingSetEpochRule::checkSamplerConstruction(const Expr *Site) {
  Engine &E = engine();
  std::optional<Construction> C =
      isAnalyzedStmt(E, Site) ? constructionAt(E, Site) : std::nullopt;
  const api::ApiEntry *Row =
      C && C->Ctor ? E.api().find(C->Ctor, api::Role::SamplerType) : nullptr;
  if (!Row || Row->Args.WorldSize < 0 || Row->Args.Rank < 0)
    return;
  const Expr *World = C->arg(Row->Args.WorldSize), *Rank = C->arg(Row->Args.Rank);
  std::string Class = C->Ctor->getParent()->getNameAsString();
  if (!World && !Rank) {
    diag(Site->getBeginLoc(),
         "'%0' built with the default num_replicas = 1 and rank = 0: every "
         "rank iterates the whole dataset in the same order; pass the job's "
         "world size and this process's rank",
         *SM)
        << Class;
    return;
  }
  auto Describe = [&](const Expr *Arg) -> std::optional<std::string> {
    if (!Arg)
      return std::string("left at its default");
    if (auto V = evaluateInt(E, Arg))
      return "the constant " + llvm::toString(*V, 10);
    return std::nullopt;
  };
  std::optional<std::string> W = Describe(World), R = Describe(Rank);
  if (!W && !R)
    return;
  std::string Which = W && R ? "num_replicas " + *W + " and rank " + *R
                      : W    ? "num_replicas " + *W
                             : "rank " + *R;
  const Expr *At = R && Rank ? Rank : (W && World ? World : Site);
  diag(At->getBeginLoc(),
       "'%0' built with %1 rather than the job's world size and rank: ranks "
       "sample the wrong shards (every rank the same one when the rank is "
       "fixed); take both from the process group or the launcher",
       *SM)
      << Class << Which;
}

void MissingSetEpochRule::checkLoader(const LoaderFacts &F) {
  Engine &E = engine();
  if (F.SamplerBuiltByFactory) {
    diag(F.Factory->getBeginLoc(),
         "make_data_loader<%0>(dataset, options) builds the sampler as "
         "%0(dataset.size()): one replica, rank 0, so every rank trains on "
         "the whole dataset (and set_epoch cannot reach it); build the "
         "sampler with the world size and rank and pass it to "
         "make_data_loader",
         *SM)
        << F.SamplerClass->getNameAsString();
    return;
  }
  if (auto U = unevenShards(E, F)) {
    auto D = diag(U->SamplerSite->getBeginLoc(),
                  "the dataset size given to this sampler differs between "
                  "ranks, so their shards differ in length%0: the rank with "
                  "fewer batches leaves the loop while the others wait in the "
                  "collective of the next batch; pass the same (global) size "
                  "on every rank",
                  *SM);
    D << (U->NoDuplicates
              ? " (allow_duplicates = false keeps size / world samples each)"
              : "");
    D.note(U->Collective->getBeginLoc(), "collective issued in every batch here");
    if (U->Size.Origin && U->Size.Origin->Loc.isValid())
      D.note(U->Size.Origin->Loc, "the size depends on %0",
             {U->Size.Origin->What.str()});
  }
  EpochVerdict V = epochVerdict(E, F);
  std::string FactoryLine =
      std::to_string(SM->getExpansionLineNumber(F.Factory->getBeginLoc()));
  // The fixes edit one function: the epoch loop must be the factory's own.
  const VarDecl *FixSampler =
      V.EpochLoop && E.enclosingFunction(V.EpochLoop) ==
                         E.enclosingFunction(F.Factory)
          ? F.Sampler.var()
          : nullptr;
  switch (V.TheKind) {
  case EpochVerdict::Fine:
    return;
  case EpochVerdict::BuiltOnce:
    diag(F.Factory->getBeginLoc(),
         "the data loader is built once but iterated in every epoch: "
         "make_data_loader copied the DistributedRandomSampler, the loader "
         "reshuffles its copy with the same epoch each pass, so every epoch "
         "sees the same order; call sampler.set_epoch(epoch) and build the "
         "loader inside the epoch loop",
         *SM)
        .note(V.EpochLoop->getBeginLoc(),
              "epoch loop: the same loader is iterated here every epoch")
        .fix(fixes::moveLoaderIntoEpochLoop(E, F.Factory, FixSampler,
                                            V.EpochLoop));
    break;
  case EpochVerdict::RebuiltFromTemporary:
  case EpochVerdict::RebuiltWithoutSetEpoch:
    if (!V.ReportFactory)
      break;
    auto D = diag(
        F.Factory->getBeginLoc(),
        V.TheKind == EpochVerdict::RebuiltFromTemporary
            ? "the loader is rebuilt every epoch from a new "
              "DistributedRandomSampler that never gets set_epoch: its epoch "
              "is always 0, so every epoch sees the same order; create the "
              "sampler, call set_epoch(epoch), then build the loader"
            : "the loader is rebuilt every epoch, but set_epoch(epoch) is "
              "not called on its DistributedRandomSampler before it is "
              "copied here: every epoch shuffles with the same seed and sees "
              "the same order; call sampler.set_epoch(epoch) first",
        *SM);
    D.note(V.EpochLoop->getBeginLoc(),
           "epoch loop: the loader is rebuilt here every epoch");
    for (const CallExpr *Copy : V.SeedsACopy)
      D.note(Copy->getExprLoc(),
             "this set_epoch reseeds a copy of the sampler that the lambda "
             "captured by value, not the sampler the loader copies");
    D.fix(V.TheKind == EpochVerdict::RebuiltWithoutSetEpoch
              ? fixes::insertSetEpoch(E, F.Factory, FixSampler, V.EpochLoop)
              : std::vector<clang::FixItHint>{});
    break;
  }
  for (size_t I = 0; I < V.Calls.size(); ++I) {
    const auto &[Call, Issue] = V.Calls[I];
    if (!ReportedSetEpoch.insert(Call.Call).second)
      continue;
    auto D = diag(Call.Call->getExprLoc(), CallMessages[Issue], *SM);
    D << FactoryLine;
    if (Issue == EpochVerdict::OnSomeRanks && I < V.RankBranches.size())
      D.note(V.RankBranches[I]->getBeginLoc(),
             "the branch that depends on the rank");
  }
}

} // namespace distlint
