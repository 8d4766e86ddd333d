//===- MissingSetEpochRule.cpp --------------------------------------------===//
//
// LibTorch facts (TorchApi.cpp rows, LibTorch 1.13 and 2.x alike):
// DistributedRandomSampler::reset() shuffles with std::mt19937(epoch_), the
// data loader calls reset() at the start of every pass, and
// make_data_loader(dataset, sampler, options) keeps a private copy of the
// sampler. So the order changes between epochs only if set_epoch(epoch) is
// called on the sampler *before* the loader copies it, in every epoch.
//
// The rule finds each make_data_loader call, the loader variable it fills,
// where that loader is iterated (range-for, begin(), helpers that iterate a
// parameter), and relates those to the loops around them (Loops.h). Whether
// set_epoch runs on every path of an epoch before the copy is a must-happen
// data-flow over the CFG (ObjectFlow.h).
//
//===----------------------------------------------------------------------===//
#include "MissingSetEpochRule.h"
#include "engine/UserCode.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/Loops.h"
#include "engine/ObjectFlow.h"
#include "engine/RoleSites.h"
#include "engine/Values.h"
#include "fixes/SetEpochFixes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

namespace {

/// The sampler row of a distributed sampler class, or null.
const api::ApiEntry *distributedSampler(Engine &E, const CXXRecordDecl *RD) {
  const api::ApiEntry *Row = E.api().findType(RD, api::Role::SamplerType);
  return Row && Row->Args.WorldSize >= 0 ? Row : nullptr;
}

/// Does this sampler reshuffle by epoch (the tables mark such samplers
/// "shuffled")?
bool shufflesByEpoch(const api::ApiEntry *Row) {
  return Row && llvm::StringRef(Row->Detail).contains("shuffled");
}

const CXXRecordDecl *recordOf(QualType T) {
  return T.getNonReferenceType()->getAsCXXRecordDecl();
}

std::string lineOf(const SourceManager &SM, SourceLocation L) {
  return std::to_string(SM.getExpansionLineNumber(L));
}

/// The variable a factory call initializes or is assigned to; or, for
/// `for (auto &b : *make_data_loader(...))`, the range-for itself.
struct LoaderHolder {
  const VarDecl *Var = nullptr;
  const CXXForRangeStmt *DirectLoop = nullptr;
};

LoaderHolder loaderHolder(Engine &E, const Expr *Factory) {
  LoaderHolder H;
  ASTContext &Ctx = E.context();
  DynTypedNode Node = DynTypedNode::create(*Factory);
  for (int Depth = 0; Depth < 16; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return H;
    Node = Parents[0];
    if (const auto *V = Node.get<VarDecl>()) {
      if (V->isImplicit()) {
        // The hidden __range variable of a range-for.
        for (const DynTypedNode &P : Ctx.getParents(*V))
          for (const DynTypedNode &PP : Ctx.getParents(P))
            if (const auto *R = PP.get<CXXForRangeStmt>())
              H.DirectLoop = R;
        return H;
      }
      H.Var = V;
      return H;
    }
    const auto *X = Node.get<Expr>();
    if (!X)
      return H;
    if (isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ImplicitCastExpr, ParenExpr, CXXFunctionalCastExpr>(X))
      continue;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(X);
        CE && CE->getNumArgs() == 1)
      continue; // Move into the variable.
    if (const auto *B = dyn_cast<BinaryOperator>(X); B && B->getOpcode() == BO_Assign) {
      H.Var = designatedVar(B->getLHS());
      return H;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
      if (isa<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
        H.Var = designatedVar(OC->getArg(0));
      return H;
    }
    return H;
  }
  return H;
}

/// Statements that iterate the object in Holder (or its aliases) inside
/// Body: range-for loops over it, begin() calls, calls of helpers that
/// iterate the parameter they receive it in.
void iterationsOf(Engine &E, const VarDecl *Holder, const FunctionDecl *Fn,
                  llvm::SmallVectorImpl<const Stmt *> &Out, int Depth);

bool paramIterated(Engine &E, const FunctionDecl *G, unsigned Index,
                   int Depth) {
  const FunctionDecl *Def = G ? G->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || !isAnalyzedDecl(E, Def) || Depth > 3 ||
      Index >= Def->getNumParams())
    return false;
  llvm::SmallVector<const Stmt *, 2> Sites;
  iterationsOf(E, Def->getParamDecl(Index), Def, Sites, Depth + 1);
  return !Sites.empty();
}

void iterationsOf(Engine &E, const VarDecl *Holder, const FunctionDecl *Fn,
                  llvm::SmallVectorImpl<const Stmt *> &Out, int Depth) {
  if (!Holder || !Fn || !Fn->getBody())
    return;
  VarSet Aliases = aliasesOf(Holder, Fn);
  auto Designates = [&](const Expr *X) {
    const VarDecl *V = X ? designatedVar(X) : nullptr;
    return V && Aliases.count(V) && !V->isImplicit();
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
      if (Designates(R->getRangeInit()))
        Out.push_back(R);
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = E.resolveCallee(Call);
      if (Callee && E.api().has(Callee, api::Role::DataLoaderIterate)) {
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
            MC && Designates(MC->getImplicitObjectArgument()))
          Out.push_back(Call);
      } else if (Callee && isAnalyzedDecl(E, Callee)) {
        for (unsigned I = 0; I < Callee->getNumParams(); ++I)
          if (Designates(callArgument(Call, Callee, I)) &&
              paramIterated(E, Callee, I, Depth)) {
            Out.push_back(Call);
            break;
          }
      }
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Fn->getBody());
}

struct SetEpochCall {
  const CallExpr *Call;
  const Expr *Epoch; ///< The argument (null if defaulted).
};

/// set_epoch calls in Fn on the sampler Sampler or its aliases.
std::vector<SetEpochCall> setEpochCalls(Engine &E, const VarDecl *Sampler,
                                        const FunctionDecl *Fn) {
  std::vector<SetEpochCall> Out;
  if (!Sampler)
    return Out;
  VarSet Aliases = aliasesOf(Sampler, Fn);
  for (const Expr *X : callsWithRole(E, api::Role::SetEpoch)) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
    if (!MC || E.enclosingFunction(MC) != Fn)
      continue;
    const VarDecl *V = designatedVar(MC->getImplicitObjectArgument());
    if (!V || !Aliases.count(V))
      continue;
    const FunctionDecl *Callee = E.resolveCallee(MC);
    const api::ApiEntry *Row = E.api().find(Callee, api::Role::SetEpoch);
    Out.push_back({MC, callArgument(MC, Callee, Row ? Row->Args.Value : 0)});
  }
  return Out;
}

/// The block of Fn's CFG that decides another iteration of Loop.
bool isHeaderOf(const CFGBlock *B, const Stmt *Loop) {
  return B && B->getTerminatorStmt() == Loop;
}

} // namespace

void MissingSetEpochRule::registerMatchers(MatchFinder &Finder) {
  // The analysis runs once per TU over the engine's role index; this
  // matcher only records that the TU has user code.
  Finder.addMatcher(translationUnitDecl().bind("tu"), this);
}

void MissingSetEpochRule::check(const MatchFinder::MatchResult &Result) {
  SM = Result.SourceManager;
  Seen = true;
}

void MissingSetEpochRule::onEndOfTranslationUnit() {
  Engine &E = engine();
  SM = &E.context().getSourceManager();
  for (const Expr *X : callsWithRole(E, api::Role::SamplerType))
    checkSamplerConstruction(X);
  for (const Expr *X : callsWithRole(E, api::Role::DataLoaderFactory))
    if (const auto *Call = dyn_cast<CallExpr>(X))
      checkFactory(Call);
}

void MissingSetEpochRule::checkSamplerConstruction(const Expr *Site) {
  Engine &E = engine();
  if (!isAnalyzedStmt(E, Site))
    return;
  std::optional<Construction> C = constructionAt(E, Site);
  if (!C || !C->Ctor)
    return;
  const api::ApiEntry *Row = E.api().find(C->Ctor, api::Role::SamplerType);
  if (!Row || Row->Args.WorldSize < 0 || Row->Args.Rank < 0)
    return;
  const Expr *World = C->arg(Row->Args.WorldSize);
  const Expr *Rank = C->arg(Row->Args.Rank);
  std::string Class = C->Ctor->getParent()->getNameAsString();
  if (!World && !Rank) {
    diag(Site->getBeginLoc(),
         "'" + Class + "' built with the default num_replicas = 1 and rank "
         "= 0: every rank iterates the whole dataset in the same order; pass "
         "the job's world size and this process's rank",
         *SM);
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
  std::string Msg = "'" + Class + "' built with ";
  if (W)
    Msg += "num_replicas " + *W;
  if (W && R)
    Msg += " and ";
  if (R)
    Msg += "rank " + *R;
  Msg += " rather than the job's world size and rank: ranks sample the "
         "wrong shards (every rank the same one when the rank is fixed); "
         "take both from the process group or the launcher";
  diag((R && Rank ? Rank : (W && World ? World : Site))->getBeginLoc(), Msg,
       *SM);
}

void MissingSetEpochRule::checkFactory(const CallExpr *Call) {
  Engine &E = engine();
  if (!isAnalyzedStmt(E, Call))
    return;
  const FunctionDecl *Fn = E.enclosingFunction(Call);
  if (!Fn || Fn->isDependentContext())
    return;
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const api::ApiEntry *Row =
      Callee ? E.api().find(Callee, api::Role::DataLoaderFactory) : nullptr;
  if (!Row)
    return;
  if (Row->Args.Sampler < 0) {
    // make_data_loader<Sampler>(dataset, options) builds Sampler(size).
    const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs();
    if (!Args)
      return;
    for (const TemplateArgument &A : Args->asArray()) {
      if (A.getKind() != TemplateArgument::Type)
        continue;
      const CXXRecordDecl *RD = A.getAsType()->getAsCXXRecordDecl();
      if (!distributedSampler(E, RD))
        continue;
      diag(Call->getBeginLoc(),
           "make_data_loader<" + RD->getNameAsString() + ">(dataset, options) "
           "builds the sampler as " + RD->getNameAsString() + "(dataset.size()): "
           "one replica, rank 0, so every rank trains on the whole dataset "
           "(and set_epoch cannot reach it); build the sampler with the world "
           "size and rank and pass it to make_data_loader",
           *SM);
      return;
    }
    return;
  }
  if (Row->Args.Sampler >= int(Callee->getNumParams()))
    return;
  const CXXRecordDecl *SamplerClass =
      recordOf(Callee->getParamDecl(Row->Args.Sampler)->getType());
  const api::ApiEntry *SRow = distributedSampler(E, SamplerClass);
  if (!SRow)
    return; // Not a LibTorch distributed sampler (a user's own type).
  const Expr *SamplerArg = callArgument(Call, Callee, Row->Args.Sampler);
  if (!SamplerArg)
    return;
  if (!shufflesByEpoch(SRow)) {
    // Sequential order needs no set_epoch; shard lengths still matter.
    LoaderHolder H = loaderHolder(E, Call);
    llvm::SmallVector<const Stmt *, 4> Sites;
    if (H.DirectLoop)
      Sites.push_back(H.DirectLoop);
    iterationsOf(E, H.Var, Fn, Sites, 0);
    checkShardLengths(designatedVar(SamplerArg), Sites);
    return;
  }
  analyzeLoader(Call, SamplerArg);
}

void MissingSetEpochRule::analyzeLoader(const CallExpr *Factory,
                                        const Expr *SamplerArg) {
  Engine &E = engine();
  const FunctionDecl *Fn = E.enclosingFunction(Factory);
  const VarDecl *Sampler = designatedVar(SamplerArg);
  if (Sampler && !Sampler->hasLocalStorage())
    Sampler = nullptr;

  LoaderHolder H = loaderHolder(E, Factory);
  llvm::SmallVector<const Stmt *, 4> Iterations;
  if (H.DirectLoop)
    Iterations.push_back(H.DirectLoop);
  iterationsOf(E, H.Var, Fn, Iterations, 0);
  checkShardLengths(Sampler, Iterations);
  if (Iterations.empty())
    return;

  auto FactoryLoops = enclosingLoops(E, Factory);
  std::vector<SetEpochCall> SetEpochs = setEpochCalls(E, Sampler, Fn);
  const std::string FactoryLine = lineOf(*SM, Factory->getBeginLoc());
  auto Report = [&](const SetEpochCall &S, const std::string &Msg) {
    if (!ReportedSetEpoch.insert(S.Call).second)
      return;
    diag(S.Call->getExprLoc(), Msg, *SM);
  };
  const std::string OnceMsg =
      "set_epoch is called once, before the epoch loop: every epoch reuses "
      "this seed, so the sampler shuffles into the same order each epoch; "
      "call sampler.set_epoch(epoch) inside the epoch loop, before building "
      "the loader";

  for (const Stmt *Iteration : Iterations) {
    auto IterLoops = enclosingLoops(E, Iteration);
    // Built once, iterated in a loop: the loader's private copy never
    // changes its epoch.
    const Stmt *OuterOnly = nullptr;
    for (const Stmt *L : IterLoops)
      if (!llvm::is_contained(FactoryLoops, L)) {
        OuterOnly = L;
        break;
      }
    if (OuterOnly) {
      diag(Factory->getBeginLoc(),
           "the data loader is built once but iterated in every epoch: "
           "make_data_loader copied the DistributedRandomSampler, the loader "
           "reshuffles its copy with the same epoch each pass, so every epoch "
           "sees the same order; call sampler.set_epoch(epoch) and build the "
           "loader inside the epoch loop",
           *SM)
          .note(OuterOnly->getBeginLoc(),
                "epoch loop: the same loader is iterated here every epoch")
          .fix(fixes::moveLoaderIntoEpochLoop(E, Factory, Sampler, OuterOnly));
      for (const SetEpochCall &S : SetEpochs) {
        if (SM->isBeforeInTranslationUnit(S.Call->getBeginLoc(),
                                          Factory->getBeginLoc()) &&
            !runsInIterationOf(E, S.Call, OuterOnly))
          Report(S, OnceMsg);
        else
          Report(S, "set_epoch has no effect: the loader built at line " +
                        FactoryLine +
                        " holds its own copy of the sampler and never sees "
                        "this epoch; call set_epoch before building the "
                        "loader, inside the epoch loop");
      }
      return;
    }
    // Built and iterated inside the same loop: rebuilt every epoch.
    const Stmt *Epoch = nullptr;
    for (const Stmt *L : FactoryLoops)
      if (llvm::is_contained(IterLoops, L)) {
        Epoch = L;
        break;
      }
    if (!Epoch)
      continue;
    auto EpochNote = [&](FindingBuilder &D) {
      D.note(Epoch->getBeginLoc(), "epoch loop: the loader is rebuilt here "
                                   "every epoch");
    };
    if (!Sampler) {
      auto D = diag(Factory->getBeginLoc(),
                    "the loader is rebuilt every epoch from a new "
                    "DistributedRandomSampler that never gets set_epoch: its "
                    "epoch is always 0, so every epoch sees the same order; "
                    "create the sampler, call set_epoch(epoch), then build "
                    "the loader",
                    *SM);
      EpochNote(D);
      return;
    }
    VarSet Aliases = aliasesOf(Sampler, Fn);
    auto Varies = [&](const SetEpochCall &S) {
      return S.Epoch && variesPerIteration(E, S.Epoch, Epoch);
    };
    auto IsEffective = [&](const Stmt *St) {
      for (const SetEpochCall &S : SetEpochs)
        if (S.Call == St)
          return Varies(S);
      return false;
    };
    auto IsSamplerDecl = [&](const Stmt *St) {
      const auto *DS = dyn_cast<DeclStmt>(St);
      return DS && llvm::is_contained(DS->decls(), Sampler);
    };
    auto AtHeader = [&](const CFGBlock *B) { return isHeaderOf(B, Epoch); };
    MustHappenQuery Q;
    Q.IsEvent = IsEffective;
    Q.IsReset = IsSamplerDecl;
    Q.ResetAfter = AtHeader;
    std::optional<bool> Effective = holdsOnEveryPath(E, Fn, Factory, Q);
    if (!Effective || *Effective)
      return;

    bool LateButVarying = false;
    for (const SetEpochCall &S : SetEpochs) {
      bool InEpoch = runsInIterationOf(E, S.Call, Epoch);
      if (!InEpoch) {
        Report(S, OnceMsg);
      } else if (!Varies(S)) {
        Report(S, "set_epoch's argument does not change from one epoch to "
                  "the next: the sampler shuffles into the same order every "
                  "epoch; pass the epoch number");
      } else if (SM->isBeforeInTranslationUnit(Factory->getBeginLoc(),
                                               S.Call->getBeginLoc())) {
        LateButVarying = true;
        Report(S, "set_epoch is called after make_data_loader (line " +
                      FactoryLine +
                      ") copied the sampler: this epoch's loader still uses "
                      "the previous epoch's seed (the first two epochs share "
                      "an order); call it before building the loader");
      }
    }
    if (LateButVarying)
      return;
    auto D = diag(Factory->getBeginLoc(),
                  "the loader is rebuilt every epoch, but set_epoch(epoch) is "
                  "not called on its DistributedRandomSampler before it is "
                  "copied here: every epoch shuffles with the same seed and "
                  "sees the same order; call sampler.set_epoch(epoch) first",
                  *SM);
    EpochNote(D);
    D.fix(fixes::insertSetEpoch(E, Factory, Sampler, Epoch));
    return;
  }
}

void MissingSetEpochRule::checkShardLengths(
    const VarDecl *Sampler, llvm::ArrayRef<const Stmt *> Iterations) {
  Engine &E = engine();
  if (!Sampler || Iterations.empty())
    return;
  const Expr *Init = Sampler->getInit();
  std::optional<Construction> C = Init ? constructionAt(E, Init) : std::nullopt;
  if (!C || !C->Ctor)
    return;
  const api::ApiEntry *Row = E.api().find(C->Ctor, api::Role::SamplerType);
  if (!Row || Row->Args.Count < 0)
    return;
  const Expr *Size = C->arg(Row->Args.Count);
  if (!Size)
    return;
  UniformityAnswer U = E.uniformity(Size);
  if (U.Uniform)
    return; // Same size everywhere: every rank gets size / world samples.
  // A collective in the loop over the loader hangs at the last batch.
  const Expr *Collective = nullptr;
  for (const Stmt *It : Iterations) {
    const Stmt *Body = nullptr;
    if (const auto *R = dyn_cast<CXXForRangeStmt>(It))
      Body = R->getBody();
    else if (auto Loops = enclosingLoops(E, It); !Loops.empty())
      Body = Loops.front();
    forEachCallIn(E, Body, [&](const Expr *X, const FunctionDecl *) {
      if (Collective)
        return;
      if (const auto *Call = dyn_cast<CallExpr>(X))
        if (E.issuesCollective(Call))
          Collective = Call;
    });
    if (Collective)
      break;
  }
  if (!Collective)
    return;
  bool NoDuplicates = false;
  if (const Expr *Flag = C->arg(Row->Args.Flag))
    if (auto V = evaluateInt(E, Flag))
      NoDuplicates = V->isZero();
  auto D = diag(C->Site->getBeginLoc(),
                std::string("the dataset size given to this sampler differs "
                            "between ranks, so their shards differ in length") +
                    (NoDuplicates ? " (allow_duplicates = false keeps "
                                    "size / world samples each)"
                                  : "") +
                    ": the rank with fewer batches leaves the loop while the "
                    "others wait in the collective of the next batch; pass "
                    "the same (global) size on every rank",
                *SM);
  D.note(Collective->getBeginLoc(), "collective issued in every batch here");
  if (U.Origin && U.Origin->Loc.isValid())
    D.note(U.Origin->Loc, "the size depends on " + U.Origin->What);
}

} // namespace distlint
