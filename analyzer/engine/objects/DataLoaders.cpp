//===- DataLoaders.cpp ----------------------------------------------------===//
#include "DataLoaders.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/RoleSites.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/objects/ObjectFlow.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

using namespace clang;

namespace distlint {

namespace {

/// The sampler row of a distributed sampler class, or null.
const api::ApiEntry *distributedSampler(Engine &E, const CXXRecordDecl *RD) {
  const api::ApiEntry *Row = E.api().findType(RD, api::Role::SamplerType);
  return Row && Row->Args.WorldSize >= 0 ? Row : nullptr;
}

/// Does this sampler reshuffle by epoch?
bool shufflesByEpoch(const api::ApiEntry *Row) {
  return Row && Row->Facts.ShufflesByEpoch;
}

/// The variable or member `x = ...` / `this->m_ = ...` stores to.
ObjectRef assignedObject(const Stmt *S) {
  const Expr *LHS = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->getOpcode() == BO_Assign)
    LHS = B->getLHS();
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
           OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
    LHS = OC->getArg(0);
  if (!LHS)
    return {};
  const Expr *L = LHS->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MemberExpr>(L);
      !isa<DeclRefExpr>(L) &&
      !(M && isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts())))
    return {};
  return designatedObject(L);
}

/// Is Holder given another loader on every path from the entry of
/// Iteration's function to Iteration (`loader_ = make_data_loader(...)`
/// at the top of each epoch)? Then the loader Factory built never reaches
/// that pass.
bool replacedBefore(Engine &E, ObjectRef Holder, const Expr *Factory,
                    const Stmt *Iteration) {
  const FunctionDecl *Fn = E.enclosingFunction(Iteration);
  const Stmt *FactoryStore = E.parentStmt(Factory);
  for (int Depth = 0;
       FactoryStore && Depth < 8 && !assignedObject(FactoryStore); ++Depth)
    FactoryStore = E.parentStmt(FactoryStore);
  auto IsStore = [&](const Stmt *S) {
    return S != FactoryStore && assignedObject(S) == Holder;
  };
  MustHappenQuery Q;
  Q.IsEvent = IsStore;
  std::optional<bool> R = holdsOnEveryPath(E, Fn, Iteration, Q);
  return R && *R;
}

struct Holder {
  ObjectRef Object;
  const CXXForRangeStmt *DirectLoop = nullptr;
};

/// The variable or member a factory call initializes or is assigned to;
/// or, for `for (auto &b : *make_data_loader(...))`, the range-for itself.
Holder loaderHolder(Engine &E, const Expr *Factory) {
  Holder H;
  ASTContext &Ctx = E.context();
  DynTypedNode Node = DynTypedNode::create(*Factory);
  const Expr *Last = Factory;
  for (int Depth = 0; Depth < 16; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return H;
    Node = Parents[0];
    if (Node.get<CXXCtorInitializer>() || Node.get<CXXConstructorDecl>()) {
      // Trainer() : loader_(make_data_loader(...)).
      H.Object = {memberInitializedWith(E, Last)};
      return H;
    }
    if (const auto *V = Node.get<VarDecl>()) {
      if (V->isImplicit()) {
        // The hidden __range variable of a range-for.
        for (const DynTypedNode &P : Ctx.getParents(*V))
          for (const DynTypedNode &PP : Ctx.getParents(P))
            if (const auto *R = PP.get<CXXForRangeStmt>())
              H.DirectLoop = R;
        return H;
      }
      H.Object = {V};
      return H;
    }
    const auto *X = Node.get<Expr>();
    if (!X)
      return H;
    Last = X;
    if (isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ImplicitCastExpr, ParenExpr, CXXFunctionalCastExpr>(X))
      continue;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(X);
        CE && CE->getNumArgs() == 1)
      continue; // Move into the variable (or unique_ptr -> shared_ptr).
    H.Object = assignedObject(X);
    return H;
  }
  return H;
}

void iterationsIn(Engine &E, ObjectRef Holder, const FunctionDecl *Fn,
                  llvm::SmallVectorImpl<const Stmt *> &Out, int Depth);

/// Does helper G iterate what it receives in parameter Index?
bool paramIterated(Engine &E, const FunctionDecl *G, unsigned Index,
                   int Depth) {
  const FunctionDecl *Def = G ? G->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || !isAnalyzedDecl(E, Def) || Depth > 3 ||
      Index >= Def->getNumParams())
    return false;
  llvm::SmallVector<const Stmt *, 2> Sites;
  iterationsIn(E, {Def->getParamDecl(Index)}, Def, Sites, Depth + 1);
  return !Sites.empty();
}

/// Range-for loops over Holder in Fn, begin() calls on it, and calls of
/// helpers that iterate the parameter they receive it in.
void iterationsIn(Engine &E, ObjectRef Holder, const FunctionDecl *Fn,
                  llvm::SmallVectorImpl<const Stmt *> &Out, int Depth) {
  if (!Holder || !Fn || !Fn->getBody())
    return;
  auto Aliases = objectAliases(Holder, Fn);
  auto Designates = [&](const Expr *X) {
    ObjectRef O = X ? designatedObject(X) : ObjectRef{};
    if (const VarDecl *V = O.var(); V && V->isImplicit())
      return false;
    return O && Aliases.count(O.Decl);
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

/// The loop context of S whose loop is Loop, if S runs in its iterations.
std::optional<StepContext> contextIn(Engine &E, const Stmt *S,
                                     const Stmt *Loop) {
  for (StepContext &C : loopsAround(E, S))
    if (C.Loop == Loop)
      return std::move(C);
  return std::nullopt;
}

bool isHeaderOf(const CFGBlock *B, const Stmt *Loop) {
  return B && B->getTerminatorStmt() == Loop;
}

/// How many calls deep a set_epoch is followed into helpers and hooks.
constexpr int kSeedingCallDepth = 3;

bool seedsOnEveryPath(Engine &E, const FunctionDecl *Def,
                      llvm::ArrayRef<SetEpochCall> Effective, int Depth);

/// Does St run one of the Effective set_epoch calls: the call itself, a
/// call of a helper or hook that runs one on every path, or a loop over
/// registered hooks (`for (auto &h : hooks) h(epoch);` runs each of them)
/// one of which does?
bool seedsAt(Engine &E, const Stmt *St, llvm::ArrayRef<SetEpochCall> Effective,
             int Depth) {
  for (const SetEpochCall &S : Effective)
    if (S.Call == St)
      return true;
  if (Depth >= kSeedingCallDepth)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(St)) {
    const FunctionDecl *Callee = E.resolveCallee(Call);
    return Callee && isAnalyzedDecl(E, Callee) && Callee->getDefinition() &&
           seedsOnEveryPath(E, Callee->getDefinition(), Effective, Depth + 1);
  }
  const auto *Range = dyn_cast<DeclStmt>(St);
  if (!Range)
    return false;
  for (const DynTypedNode &P : E.context().getParents(*Range)) {
    const auto *Loop = P.get<CXXForRangeStmt>();
    if (!Loop || Loop->getRangeStmt() != Range)
      continue;
    bool Seeds = false;
    forEachCallIn(E, Loop->getBody(), [&](const Expr *X, const FunctionDecl *) {
      const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
      const auto *Obj = OC && OC->getNumArgs()
                            ? dyn_cast<DeclRefExpr>(strip(OC->getArg(0)))
                            : nullptr;
      if (Seeds || !Obj || Obj->getDecl() != Loop->getLoopVariable())
        return;
      for (const FunctionDecl *Hook : E.registeredTargets(OC))
        if (Hook->getDefinition() &&
            seedsOnEveryPath(E, Hook->getDefinition(), Effective, Depth + 1))
          Seeds = true;
    });
    return Seeds;
  }
  return false;
}

bool seedsOnEveryPath(Engine &E, const FunctionDecl *Def,
                      llvm::ArrayRef<SetEpochCall> Effective, int Depth) {
  MustHappenQuery Q;
  auto IsEvent = [&](const Stmt *St) {
    return seedsAt(E, St, Effective, Depth);
  };
  Q.IsEvent = IsEvent;
  std::optional<bool> R = holdsOnEveryPath(E, Def, nullptr, Q);
  return R && *R;
}

/// Does a set_epoch in SetEpochs (with an epoch that varies) run on every
/// path from the start of an iteration of Ctx.Loop to At, along Ctx.Via?
std::optional<bool> seededBefore(Engine &E, const Stmt *At,
                                 const StepContext &Ctx, ObjectRef Sampler,
                                 llvm::ArrayRef<SetEpochCall> Effective) {
  auto IsEvent = [&](const Stmt *St) { return seedsAt(E, St, Effective, 0); };
  auto IsSamplerDecl = [&](const Stmt *St) {
    const auto *DS = dyn_cast<DeclStmt>(St);
    return DS && Sampler.var() &&
           llvm::is_contained(DS->decls(), Sampler.var());
  };
  auto AtHeader = [&](const CFGBlock *B) { return isHeaderOf(B, Ctx.Loop); };
  // From the loop's function down the call chain to At.
  bool Holds = false;
  for (size_t I = 0; I <= Ctx.Via.size(); ++I) {
    const Stmt *Point = I < Ctx.Via.size() ? Ctx.Via[I] : At;
    const FunctionDecl *Fn = E.enclosingFunction(Point);
    MustHappenQuery Q;
    Q.IsEvent = IsEvent;
    Q.IsReset = IsSamplerDecl;
    if (I == 0)
      Q.ResetAfter = AtHeader;
    Q.EntryHolds = Holds;
    std::optional<bool> R = holdsOnEveryPath(E, Fn, Point, Q);
    if (!R)
      return std::nullopt;
    Holds = *R;
  }
  return Holds;
}

} // namespace

std::optional<LoaderFacts> loaderFacts(Engine &E, const CallExpr *Call) {
  const FunctionDecl *Fn = E.enclosingFunction(Call);
  if (!isAnalyzedStmt(E, Call) || !Fn || Fn->isDependentContext())
    return std::nullopt;
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const api::ApiEntry *Row =
      Callee ? E.api().find(Callee, api::Role::DataLoaderFactory) : nullptr;
  if (!Row)
    return std::nullopt;
  LoaderFacts F;
  F.Factory = Call;
  if (Row->Args.Sampler < 0) {
    // make_data_loader<Sampler>(dataset, options) builds Sampler(size).
    if (const TemplateArgumentList *Args =
            Callee->getTemplateSpecializationArgs())
      for (const TemplateArgument &A : Args->asArray())
        if (A.getKind() == TemplateArgument::Type)
          if (const CXXRecordDecl *RD = A.getAsType()->getAsCXXRecordDecl();
              distributedSampler(E, RD)) {
            F.SamplerClass = RD;
            F.SamplerBuiltByFactory = true;
          }
    return F;
  }
  if (Row->Args.Sampler >= int(Callee->getNumParams()))
    return std::nullopt;
  const CXXRecordDecl *Class = Callee->getParamDecl(Row->Args.Sampler)
                                   ->getType()
                                   .getNonReferenceType()
                                   ->getAsCXXRecordDecl();
  const api::ApiEntry *SRow = distributedSampler(E, Class);
  const Expr *SamplerArg = callArgument(Call, Callee, Row->Args.Sampler);
  if (!SRow || !SamplerArg)
    return F; // A user's own sampler type: it may share state.
  F.SamplerClass = Class;
  F.Shuffles = shufflesByEpoch(SRow);
  F.Sampler = designatedObject(SamplerArg);
  if (const VarDecl *V = F.Sampler.var(); V && !V->hasLocalStorage())
    F.Sampler = {}; // A global: set anywhere.
  Holder H = loaderHolder(E, Call);
  F.Holder = H.Object;
  if (H.DirectLoop)
    F.Iterations.push_back(H.DirectLoop);
  if (F.Holder.field()) {
    for (const FunctionDecl *M : functionsUsing(E, F.Holder))
      iterationsIn(E, F.Holder, M, F.Iterations, 0);
  } else {
    iterationsIn(E, F.Holder, Fn, F.Iterations, 0);
  }
  llvm::erase_if(F.Iterations, [&](const Stmt *It) {
    return F.Holder && replacedBefore(E, F.Holder, Call, It);
  });
  return F;
}

std::vector<SetEpochCall> setEpochCalls(Engine &E, ObjectRef O) {
  std::vector<SetEpochCall> Out;
  if (!O)
    return Out;
  for (const Expr *X : callsWithRole(E, api::Role::SetEpoch)) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
    if (!MC || !designates(E, MC->getImplicitObjectArgument(), O))
      continue;
    const FunctionDecl *Callee = E.resolveCallee(MC);
    const api::ApiEntry *Row = E.api().find(Callee, api::Role::SetEpoch);
    Out.push_back({MC, callArgument(MC, Callee, Row ? Row->Args.Value : 0)});
  }
  return Out;
}

namespace {
/// Is Cond true exactly when the holder H is still empty (`!loader_`,
/// `loader_ == nullptr`, `!loader_.get()`)?
bool testsEmpty(Engine &E, const Expr *Cond, ObjectRef H) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot) {
    const Expr *Held = U->getSubExpr()->IgnoreParenImpCasts();
    // `!ptr` on a smart pointer: its operator bool.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Held);
        MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()))
      Held = MC->getImplicitObjectArgument();
    return designates(E, Held, H);
  }
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond);
      B && B->getOpcode() == BO_EQ) {
    L = B->getLHS();
    R = B->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Cond);
             OC && OC->getOperator() == OO_EqualEqual &&
             OC->getNumArgs() == 2) {
    L = OC->getArg(0);
    R = OC->getArg(1);
  }
  auto Null = [&](const Expr *X) {
    return X->IgnoreParenImpCasts()->isNullPointerConstant(
               E.context(), Expr::NPC_ValueDependentIsNotNull) !=
           Expr::NPCK_NotNull;
  };
  return L && R &&
         ((Null(R) && designates(E, L, H)) || (Null(L) && designates(E, R, H)));
}

/// Is the factory built only while its holder is empty (`if (!loader_)
/// loader_ = make_data_loader(...)`): once, the first time round?
bool builtLazily(Engine &E, const LoaderFacts &F) {
  if (!F.Holder)
    return false;
  // Emptied again elsewhere (`loader_.reset()`, another assignment): then
  // the test may pass every epoch.
  bool Emptied = false;
  for (const FunctionDecl *Fn : functionsUsing(E, F.Holder))
    forEachCallIn(E, Fn->getBody(), [&](const Expr *X, const FunctionDecl *) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
      const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
      const Expr *Obj = MC ? MC->getImplicitObjectArgument()
                        : OC && OC->getNumArgs() ? OC->getArg(0)
                                                 : nullptr;
      const auto *M = MC ? MC->getMethodDecl()
                         : dyn_cast_or_null<CXXMethodDecl>(
                               OC ? OC->getDirectCallee() : nullptr);
      if (!Obj || !M || M->isConst() || !designates(E, Obj, F.Holder))
        return;
      bool AssignsFactory = OC && OC->getNumArgs() == 2 &&
                            strip(OC->getArg(1)) == strip(F.Factory);
      Emptied |= !AssignsFactory;
    });
  if (Emptied)
    return false;
  for (const Stmt *Branch : E.controllingBranches(F.Factory))
    if (const auto *If = dyn_cast<IfStmt>(Branch);
        If && If->getCond() && testsEmpty(E, If->getCond(), F.Holder) &&
        If->getThen()->getSourceRange().fullyContains(
            F.Factory->getSourceRange()))
      return true;
  return false;
}
/// set_epoch calls on a lambda's by-value copy of the sampler O: an init
/// capture `[s = sampler_]` or a copy capture `[sampler]`.
llvm::SmallVector<const CallExpr *, 1> setEpochOnCapturedCopies(Engine &E,
                                                                ObjectRef O) {
  llvm::SmallVector<const CallExpr *, 1> Out;
  for (const Expr *X : callsWithRole(E, api::Role::SetEpoch)) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
    const auto *Ref =
        MC ? dyn_cast<DeclRefExpr>(
                 MC->getImplicitObjectArgument()->IgnoreParenImpCasts())
           : nullptr;
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V)
      continue;
    bool Copy = false;
    if (V->isInitCapture())
      Copy = !V->getType()->isReferenceType() && V->getInit() &&
             designates(E, V->getInit(), O);
    else if (Ref->refersToEnclosingVariableOrCapture() && V == O.var())
      if (const auto *M =
              dyn_cast_or_null<CXXMethodDecl>(E.enclosingFunction(MC));
          M && M->getParent()->isLambda())
        for (const DynTypedNode &P : E.context().getParents(*M->getParent()))
          if (const auto *Lambda = P.get<LambdaExpr>())
            for (const LambdaCapture &C : Lambda->captures())
              if (C.capturesVariable() && C.getCapturedVar() == V)
                Copy = C.getCaptureKind() == LCK_ByCopy;
    if (Copy)
      Out.push_back(MC);
  }
  return Out;
}
} // namespace

EpochVerdict epochVerdict(Engine &E, const LoaderFacts &F) {
  EpochVerdict V;
  if (!F.SamplerClass || !F.Shuffles || F.Iterations.empty())
    return V;
  const SourceManager &SM = E.context().getSourceManager();
  auto FactoryLoops = loopsAround(E, F.Factory);
  bool Lazy = builtLazily(E, F);
  auto BuiltIn = [&](const Stmt *Loop) {
    if (Lazy)
      return false; // Built in the first iteration only.
    for (const StepContext &C : FactoryLoops)
      if (C.Loop == Loop)
        return true;
    return false;
  };
  std::vector<SetEpochCall> SetEpochs = setEpochCalls(E, F.Sampler);
  auto Before = [&](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  };

  for (const Stmt *Iteration : F.Iterations) {
    auto IterLoops = loopsAround(E, Iteration);
    // Built once, iterated in a loop: the loader's private copy never
    // changes its epoch.
    for (const StepContext &C : IterLoops) {
      if (BuiltIn(C.Loop))
        continue;
      V.TheKind = EpochVerdict::BuiltOnce;
      V.EpochLoop = C.Loop;
      for (const SetEpochCall &S : SetEpochs) {
        bool Once = Before(S.Call, F.Factory) && !contextIn(E, S.Call, C.Loop);
        V.Calls.push_back(
            {S, Once ? EpochVerdict::Once : EpochVerdict::NoEffect});
      }
      return V;
    }
    // Built and iterated inside the same loop: rebuilt every epoch.
    const StepContext *Epoch = nullptr;
    for (const StepContext &C : FactoryLoops)
      for (const StepContext &I : IterLoops)
        if (!Epoch && C.Loop == I.Loop)
          Epoch = &C;
    if (!Epoch)
      continue;
    V.EpochLoop = Epoch->Loop;
    if (!F.Sampler) {
      V.TheKind = EpochVerdict::RebuiltFromTemporary;
      return V;
    }
    auto Varies = [&](const SetEpochCall &S) {
      if (!S.Epoch)
        return false;
      auto Ctx = contextIn(E, S.Call, Epoch->Loop);
      return Ctx && variesPerIteration(E, S.Epoch, *Ctx);
    };
    std::vector<SetEpochCall> Effective;
    for (const SetEpochCall &S : SetEpochs)
      if (Varies(S))
        Effective.push_back(S);
    std::optional<bool> Seeded =
        seededBefore(E, F.Factory, *Epoch, F.Sampler, Effective);
    if (!Seeded || *Seeded)
      return EpochVerdict{};
    V.TheKind = EpochVerdict::RebuiltWithoutSetEpoch;
    V.SeedsACopy = setEpochOnCapturedCopies(E, F.Sampler);
    for (const SetEpochCall &S : SetEpochs) {
      if (!contextIn(E, S.Call, Epoch->Loop)) {
        V.Calls.push_back({S, EpochVerdict::Once});
      } else if (!Varies(S)) {
        V.Calls.push_back({S, EpochVerdict::ConstantEpoch});
      } else if (Before(F.Factory, S.Call)) {
        V.Calls.push_back({S, EpochVerdict::AfterCopy});
        V.ReportFactory = false;
      } else {
        // Before the copy on some paths: those of some ranks only?
        for (const Stmt *Branch : E.controllingBranches(S.Call))
          if (!E.branchUniformity(Branch).Uniform) {
            V.Calls.push_back({S, EpochVerdict::OnSomeRanks});
            V.RankBranches.resize(V.Calls.size());
            V.RankBranches.back() = Branch;
            V.ReportFactory = false;
            break;
          }
      }
    }
    return V;
  }
  return V;
}

std::optional<UnevenShards> unevenShards(Engine &E, const LoaderFacts &F) {
  const VarDecl *Sampler = F.Sampler.var();
  if (!Sampler || F.Iterations.empty() || !Sampler->getInit())
    return std::nullopt;
  std::optional<Construction> C = constructionAt(E, Sampler->getInit());
  if (!C || !C->Ctor)
    return std::nullopt;
  const api::ApiEntry *Row = E.api().find(C->Ctor, api::Role::SamplerType);
  const Expr *Size = Row ? C->arg(Row->Args.Count) : nullptr;
  if (!Size)
    return std::nullopt;
  UnevenShards U;
  U.Size = E.uniformity(Size);
  if (U.Size.Uniform)
    return std::nullopt; // Same size everywhere: size / world samples each.
  // A collective in the loop over the loader hangs at the last batch.
  for (const Stmt *It : F.Iterations) {
    const Stmt *Body = nullptr;
    if (const auto *R = dyn_cast<CXXForRangeStmt>(It))
      Body = R->getBody();
    else if (auto Loops = enclosingLoops(E, It); !Loops.empty())
      Body = Loops.front();
    forEachCallIn(E, Body, [&](const Expr *X, const FunctionDecl *) {
      if (const auto *Call = dyn_cast<CallExpr>(X);
          Call && !U.Collective && E.issuesCollective(Call))
        U.Collective = Call;
    });
    if (U.Collective)
      break;
  }
  if (!U.Collective)
    return std::nullopt;
  if (const Expr *Flag = C->arg(Row->Args.Flag))
    if (auto V = evaluateInt(E, Flag))
      U.NoDuplicates = V->isZero();
  U.SamplerSite = C->Site;
  return U;
}

} // namespace distlint
