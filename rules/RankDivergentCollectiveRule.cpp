//===- RankDivergentCollectiveRule.cpp ------------------------------------===//
#include "RankDivergentCollectiveRule.h"
#include "api/ProjectFacts.h"
#include "engine/Engine.h"
#include "engine/ast/AstHelpers.h"
#include "engine/collectives/Divergence.h"
#include "engine/collectives/SequenceBuilder.h"
#include "engine/collectives/Threads.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

void RankDivergentCollectiveRule::registerMatchers(MatchFinder &Finder) {
  // Functions and lambdas of user code; the engine walks their bodies.
  // Members the compiler generates (implicit constructors of every template
  // instantiation) hold no code the user wrote.
  Finder.addMatcher(
      functionDecl(isDefinition(), unless(isImplicit())).bind("function"),
      this);
  Finder.addMatcher(lambdaExpr().bind("lambda"), this);
}

void RankDivergentCollectiveRule::check(
    const MatchFinder::MatchResult &Result) {
  SM = Result.SourceManager;
  const FunctionDecl *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (const auto *L = Result.Nodes.getNodeAs<LambdaExpr>("lambda"))
    FD = L->getCallOperator();
  if (FD && !FD->isDependentContext())
    Functions.insert(FD);
}

// formatMessage (Rule.h) fills the %0-style arguments of notes.

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

/// A collective issued by a function another TU defines: where it is.
static void noteOtherFile(Engine &E, FindingBuilder &Diag,
                          const CollectiveSite &Site) {
  if (const api::ProjectFact *PF = E.api().projectFact(Site.Entry))
    Diag.noteIn(PF->File, PF->Line,
                "'%0' issues '%1' here (defined in another file of the "
                "project)",
                {calleeName(Site), PF->What});
}

static std::string originNote(const VaryOrigin &O) {
  if (O.Kind == VaryKind::Rank)
    return O.What.empty() || O.What == "rank"
               ? "rank comes from here"
               : O.What.str() + " comes from here";
  return "value differs between ranks: " + O.What.str();
}

static const char *why(const VaryOrigin &O) {
  return O.Kind == VaryKind::Rank ? "the rank" : "rank-local data";
}

/// The message when two rank classes issue different things at the same
/// position; empty when the other class simply issues nothing more.
static std::string orderMessage(const collectives::OrderDifference &D,
                                const std::string &Name, unsigned OtherLine) {
  using collectives::Mismatch;
  if (!D.Here.Tok || !D.Other.Tok)
    return "";
  std::vector<std::string> Args = {Name, D.Other.Tok->name(),
                                   std::to_string(OtherLine),
                                   collectives::mismatchName(D.Why)};
  switch (D.Why) {
  case Mismatch::Operation:
    return formatMessage(
        "rank class A issues '%0' here while rank class B issues '%1' (line "
        "%2) at the same position; each class waits for the other forever",
        Args);
  case Mismatch::PointToPointWait:
    return formatMessage(
        "rank class A blocks in collective '%0' here while rank class B "
        "blocks in point-to-point '%1' (line %2); neither call can complete",
        Args);
  case Mismatch::Communicator:
  case Mismatch::Root:
  case Mismatch::ReduceOp:
  case Mismatch::DType:
  case Mismatch::Count:
    return formatMessage(
        "rank class A issues '%0' here with a different %3 than rank class B "
        "at line %2; every rank must pass the same %3 or the collective "
        "hangs or corrupts data",
        Args);
  default:
    return "";
  }
}

void RankDivergentCollectiveRule::reportDispatch(const CollectiveSite &Site,
                                                 const Engine::Divergence &D) {
  // `role->sync()`: the method; `step()`: the holder.
  std::string Called = "the call";
  if (const FunctionDecl *Direct = Site.Call->getDirectCallee();
      Direct && !isa<CXXMethodDecl>(Direct))
    Called = "'" + Direct->getQualifiedNameAsString() + "'"; // std::visit
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Site.Call))
    Called = "'" + MC->getMethodDecl()->getNameAsString() + "'";
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Site.Call);
           OC && OC->getNumArgs()) {
    const Expr *Holder = OC->getArg(0)->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Holder))
      Called = "'" + Ref->getDecl()->getNameAsString() + "'";
    else if (const auto *M = dyn_cast<MemberExpr>(Holder)) // `s.sync(g)`
      Called = "'" + M->getMemberDecl()->getNameAsString() + "'";
  }
  auto Target = [&](const FunctionDecl *FD) {
    // An instantiation of a generic visitor: which argument type it runs
    // for (`[](auto &r) { r.run(); }` with a Leader or a Worker).
    std::string For;
    if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
        Args && Args->size() &&
        Args->get(0).getKind() == TemplateArgument::Type)
      For = " for '" +
            Args->get(0).getAsType().getNonReferenceType().getAsString(
                PrintingPolicy(FD->getASTContext().getLangOpts())) +
            "'";
    if (const auto *M = dyn_cast<CXXMethodDecl>(FD);
        M && M->getParent()->isLambda())
      return "the lambda at line " +
             std::to_string(SM->getExpansionLineNumber(FD->getLocation())) +
             For;
    return "'" + FD->getQualifiedNameAsString() + "'" + For;
  };
  auto Diag = diag(
      Site.Call->getBeginLoc(),
      formatMessage(
          "call to %0 runs a different function on different ranks: which "
          "one depends on %1, and %2 and %3 issue different collectives, so "
          "the ranks wait in different ones",
          {Called, why(D.Origin), Target(D.Overrider),
           Target(D.OtherOverrider)}),
      *SM);
  for (const FunctionDecl *FD : {D.Overrider, D.OtherOverrider})
    Diag.note(FD->getLocation(),
              formatMessage("%0 issues its collectives here", {Target(FD)}));
  if (D.Origin.Loc.isValid())
    Diag.note(D.Origin.Loc, originNote(D.Origin));
}

void RankDivergentCollectiveRule::reportDivergence(
    const CollectiveSite &Site, const Engine::Divergence &D) {
  if (D.Overrider && D.OtherOverrider)
    return reportDispatch(Site, D);
  std::string Name = calleeName(Site);
  const CallExpr *Call = Site.Call;
  // Where the arms first differ, and what the other rank class issues there.
  collectives::OrderDifference Order;
  if (D.Branch)
    if (auto Found = collectives::orderDifference(engine(), D.Branch))
      if (Found->Here.Site == Call)
        Order = *Found;
  unsigned OtherLine =
      Order.Other.Site
          ? SM->getExpansionLineNumber(Order.Other.Site->getBeginLoc())
          : 0;
  std::string Msg = orderMessage(Order, Name, OtherLine);
  if (D.AmongMembers)
    Msg = formatMessage(
        D.IsLoop ? "collective '%0' on a sub-communicator runs a number of "
                   "times that depends on each member's rank in it; members "
                   "that leave the loop earlier leave the others waiting "
                   "forever"
                 : "collective '%0' on a sub-communicator is not reached by "
                   "every member of it: it depends on a branch on each "
                   "member's rank in that communicator, so the members that "
                   "skip it leave the others waiting forever",
        {Name});
  if (Msg.empty())
    Msg = formatMessage(
        !Site.Entry ? "call to '%0' issues a collective that not every rank "
                      "reaches: it depends on a branch on %1 and ranks that "
                      "skip it hang the others"
        : D.IsLoop  ? "collective '%0' runs a number of times that depends on "
                      "%1; ranks that leave the loop earlier leave the others "
                      "waiting forever"
                    : "collective '%0' is not reached by every rank: it "
                      "depends on a branch on %1, so the ranks that skip it "
                      "leave the others waiting forever",
        {Name, why(D.Origin)});
  auto Diag = diag(Call->getBeginLoc(), Msg, *SM);
  noteOtherFile(engine(), Diag, Site);
  // Two concrete ranks that disagree through the whole function.
  if (D.Ranks) {
    std::string Instead = "nothing more";
    if (const CallExpr *O = D.Ranks->OtherSite) {
      const FunctionDecl *Callee = O->getDirectCallee();
      Instead = formatMessage(
          "'%0' (line %1)",
          {Callee ? Callee->getNameAsString() : std::string("a call"),
           std::to_string(SM->getExpansionLineNumber(O->getBeginLoc()))});
    }
    Diag.note(Call->getBeginLoc(),
              formatMessage("with %0 ranks, rank %1 issues this here while "
                            "rank %2 issues %3 at the same position of its "
                            "sequence through the function",
                            {std::to_string(D.Ranks->World),
                             std::to_string(D.Ranks->Here),
                             std::to_string(D.Ranks->Other), Instead}));
  }
  // Inside a helper: the collective that differs (or the first one).
  const CallExpr *Inner = Order.Here.Tok && Order.Here.Tok->Call != Call
                              ? Order.Here.Tok->Call
                              : Site.InnerCollective;
  if (!Site.Entry && Inner)
    Diag.note(Inner->getBeginLoc(), "collective issued here");
  if (Order.Other.Tok && Order.Other.Tok->Call)
    Diag.note(Order.Other.Tok->Call->getBeginLoc(),
              formatMessage("rank class B issues '%0' here instead",
                            {Order.Other.Tok->name()}));
  SourceLocation BranchLoc =
      D.Condition ? D.Condition->getBeginLoc()
                  : (D.Branch ? D.Branch->getBeginLoc() : SourceLocation());
  if (D.Branch && isa<CallExpr>(D.Branch))
    Diag.note(BranchLoc, "this call throws on some ranks only; the catch "
                         "handler skips the collective there");
  else if (BranchLoc.isValid())
    Diag.note(
        BranchLoc,
        formatMessage("%0 depends on %1",
                      {D.IsLoop ? "loop condition" : "branch",
                       D.AmongMembers ? "the rank in the communicator"
                       : D.Origin.Kind == VaryKind::Rank ? "rank"
                                                         : "rank-local data"}));
  if (D.PassedAt)
    Diag.note(D.PassedAt->getBeginLoc(), "rank-dependent value passed here");
  if (D.Origin.Loc.isValid())
    Diag.note(D.Origin.Loc, originNote(D.Origin));
}

void RankDivergentCollectiveRule::reportPerThread(const CollectiveSite &Site,
                                                  const Stmt *Region) {
  auto Diag = diag(
      Site.Call->getBeginLoc(),
      formatMessage(
          Site.Entry
              ? "collective '%0' runs on every thread of an OpenMP parallel "
                "region: each rank issues it once per thread, in an order "
                "the ranks do not agree on, and the team size may differ "
                "between ranks; issue it outside the region or on one thread "
                "(omp single / omp master)"
              : "call to '%0' issues a collective on every thread of an "
                "OpenMP parallel region: each rank issues it once per "
                "thread, in an order the ranks do not agree on; issue it "
                "outside the region or on one thread (omp single / omp "
                "master)",
          {calleeName(Site)}),
      *SM);
  if (!Site.Entry && Site.InnerCollective)
    Diag.note(Site.InnerCollective->getBeginLoc(), "collective issued here");
  noteOtherFile(engine(), Diag, Site);
  Diag.note(Region->getBeginLoc(),
            "the parallel region: every thread of the team runs its body");
}

void RankDivergentCollectiveRule::reportUnmatchedPeer(
    const Engine::UnmatchedPeer &U) {
  auto Name = [](const CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    return FD ? FD->getNameAsString() : std::string("the call");
  };
  const api::ApiEntry *Row =
      engine().apiRole(U.Skipped, api::Role::PointToPoint);
  const bool Sends = Row && Row->Args.Send >= 0;
  auto Diag = diag(
      U.Skipped->getBeginLoc(),
      formatMessage(
          Sends ? "point-to-point '%0' is skipped on some ranks by a branch "
                  "that differs between ranks, but the peer's matching '%1' "
                  "is posted on every rank: where this rank skips the send, "
                  "that receive waits forever"
                : "point-to-point '%0' is skipped on some ranks by a branch "
                  "that differs between ranks, but the peer's matching '%1' "
                  "is posted on every rank: where this rank skips the "
                  "receive, that send is never matched",
          {Name(U.Skipped), Name(U.Partner)}),
      *SM);
  if (U.Condition)
    Diag.note(U.Condition->getBeginLoc(),
              formatMessage("branch depends on %0", {why(U.Origin)}));
  Diag.note(U.Partner->getBeginLoc(),
            formatMessage("'%0' is posted here whatever the data",
                          {Name(U.Partner)}));
  if (U.Origin.Loc.isValid())
    Diag.note(U.Origin.Loc, originNote(U.Origin));
}

void RankDivergentCollectiveRule::reportArguments(const CollectiveSite &Site) {
  std::string Name = calleeName(Site);
  for (const Engine::ArgumentMismatch &M :
       engine().mismatchedArguments(Site.Call)) {
    bool Shape = M.What == AgreedArgument::TensorShape;
    auto Diag = diag(
        Site.Call->getBeginLoc(),
        formatMessage(
            Shape ? "the shape of the tensors passed to collective '%0' "
                    "differs between ranks; every rank must pass tensors of "
                    "the same shape or the collective hangs or corrupts data"
                  : "argument '%1' of collective '%0' differs between ranks; "
                    "every rank must pass the same value or the collective "
                    "hangs or corrupts data",
            {Name, agreedArgumentName(M.What)}),
        *SM);
    Diag.note(M.Arg->getBeginLoc(),
              formatMessage("this argument depends on %0", {why(M.Origin)}));
    if (M.PassedAt)
      Diag.note(M.PassedAt->getBeginLoc(), "rank-dependent value passed here");
    if (M.Origin.Loc.isValid())
      Diag.note(M.Origin.Loc, originNote(M.Origin));
    break;
  }
}

void RankDivergentCollectiveRule::reportNullCommunicator(
    const CollectiveSite &Site, const Engine::NullCommunicatorUse &N) {
  auto Diag = diag(
      Site.Call->getBeginLoc(),
      formatMessage("collective '%0' is reached by every rank, but the "
                    "ranks whose split colour is %1 are not members of its "
                    "communicator: they call it with %2, an invalid "
                    "communicator, and the job fails",
                    {calleeName(Site), api::undefinedColorName().str(),
                     api::nullCommunicatorName().str()}),
      *SM);
  Diag.note(N.Color->getBeginLoc(),
            formatMessage("the communicator is split here; this colour is "
                          "%0 on some ranks",
                          {api::undefinedColorName().str()}));
}

void RankDivergentCollectiveRule::reportCrossOrder(
    const Engine::CrossOrder &C) {
  Engine &E = engine();
  auto Describe = [&](const CallExpr *Collective) {
    const api::ApiEntry *Entry = E.apiRole(Collective, api::Role::Collective);
    std::string Name = calleeName({Collective, Entry, nullptr, nullptr});
    const Expr *Comm = collectives::communicatorOf(Collective, Entry);
    return formatMessage("'%0' on '%1'",
                         {Name, Comm ? sourceText(Comm, E.context()) : "?"});
  };
  auto Line = [&](const CallExpr *Call) {
    return std::to_string(SM->getSpellingLineNumber(Call->getBeginLoc()));
  };
  auto Diag = diag(
      C.Here->getBeginLoc(),
      formatMessage("rank class A issues %0 here while rank class B issues "
                    "%1 (line %2) at the same position; some group of the "
                    "split holds ranks of both classes, so each waits for "
                    "the other forever",
                    {Describe(C.HereCollective), Describe(C.OtherCollective),
                     Line(C.Other)}),
      *SM);
  Diag.note(C.Other->getBeginLoc(),
            formatMessage("rank class B issues %0 here instead",
                          {Describe(C.OtherCollective)}));
  if (C.Here != C.HereCollective)
    Diag.note(C.HereCollective->getBeginLoc(), "collective issued here");
  if (C.Condition)
    Diag.note(C.Condition->getBeginLoc(),
              formatMessage("branch depends on %0", {why(C.Origin)}));
  if (const api::ApiEntry *Row = E.apiRole(C.Split, api::Role::CommSplit);
      Row && Row->Args.Color >= 0 &&
      unsigned(Row->Args.Color) < C.Split->getNumArgs())
    Diag.note(C.Split->getArg(Row->Args.Color)->getBeginLoc(),
              "the sub-communicator groups the ranks by this colour, which "
              "the branch does not follow");
}

void RankDivergentCollectiveRule::checkFunction(const FunctionDecl *FD) {
  Engine &E = engine();
  if (!E.isUserCode(FD))
    return;
  for (const CollectiveSite &Site : E.collectiveSites(FD)) {
    if (!E.isUserCode(Site.Call->getBeginLoc()))
      continue;
    if (const auto *Region = collectives::perThreadRegion(E, Site.Call)) {
      reportPerThread(Site, Region);
      continue;
    }
    if (auto D = E.divergenceAt(Site.Call))
      reportDivergence(Site, *D);
    else if (Site.Entry)
      reportArguments(Site);
  }
  for (const Engine::UnmatchedPeer &U : E.unmatchedPointToPoint(FD))
    if (E.isUserCode(U.Skipped->getBeginLoc()))
      reportUnmatchedPeer(U);
  for (const Engine::CrossOrder &C : E.crossCommunicatorOrders(FD))
    if (E.isUserCode(C.Here->getBeginLoc()))
      reportCrossOrder(C);
  for (const CallExpr *Call : E.subCommunicatorCollectives(FD)) {
    if (!E.isUserCode(Call->getBeginLoc()))
      continue;
    auto Site = E.collectiveAt(Call);
    if (!Site)
      continue;
    if (auto N = E.nullCommunicatorAt(Call))
      reportNullCommunicator(*Site, *N);
    else if (auto D = E.memberDivergenceAt(Call))
      reportDivergence(*Site, *D);
  }
}

void RankDivergentCollectiveRule::onEndOfTranslationUnit() {
  for (const FunctionDecl *FD : Functions)
    checkFunction(FD);
  Functions.clear();
}

} // namespace distlint
