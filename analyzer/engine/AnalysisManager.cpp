//===- AnalysisManager.cpp ------------------------------------------------===//
#include "engine/AnalysisManager.h"
#include "engine/Engine.h"
#include "engine/ast/AstHelpers.h"
#include "engine/ast/Names.h"
#include "engine/cfg/ErrorPaths.h"
#include "engine/cfg/FailStop.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace clang;

namespace distlint {

/// Is PD given another object in Body (`t = t.to(kCPU)`)? Then what the
/// body leaves in it is not what the caller's handle designates.
static bool reboundIn(const ParmVarDecl *PD, const Stmt *Body) {
  if (!Body)
    return true;
  auto Names = [&](const Expr *X) {
    const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    return DR && DR->getDecl() == PD;
  };
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() > 0 &&
        Names(OC->getArg(0)))
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign && Names(BO->getLHS()))
      return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

using api::Role;

const std::vector<const CFGBlock *> &
FunctionBody::liveControlDependencies(const CFGBlock *B) {
  auto It = LiveDeps.find(B);
  if (It != LiveDeps.end())
    return It->second;
  std::vector<const CFGBlock *> Out = Doomed.empty() && ErrorPaths.empty()
                                          ? Facts->allControlDependencies(B)
                                          : pruned().all(B);
  return LiveDeps[B] = std::move(Out);
}

PrunedControlDependence &FunctionBody::pruned() {
  if (!Pruned) {
    // Paths that end the job and error paths (cfg/ErrorPaths.h) alike.
    Pruned = std::make_unique<PrunedControlDependence>(*Facts, endedBlocks());
  }
  return *Pruned;
}

std::vector<const CFGBlock *>
FunctionBody::errorPathDependencies(const CFGBlock *B) {
  if (ErrorPaths.empty())
    return {};
  if (!DoomedPruned) {
    llvm::SmallPtrSet<const CFGBlock *, 16> Removed(Doomed.begin(),
                                                    Doomed.end());
    DoomedPruned = std::make_unique<PrunedControlDependence>(*Facts, Removed);
  }
  std::vector<const CFGBlock *> Out;
  const std::vector<const CFGBlock *> Live = liveControlDependencies(B);
  for (const CFGBlock *Dep : DoomedPruned->all(B))
    if (!llvm::is_contained(Live, Dep))
      Out.push_back(Dep);
  return Out;
}

llvm::SmallPtrSet<const CFGBlock *, 16> FunctionBody::endedBlocks() const {
  llvm::SmallPtrSet<const CFGBlock *, 16> Out(Doomed.begin(), Doomed.end());
  Out.insert(ErrorPaths.begin(), ErrorPaths.end());
  return Out;
}

void FunctionBody::setHangArms(
    const llvm::SmallPtrSetImpl<const CFGBlock *> &Arms) {
  if (Arms.size() == HangArms.size() &&
      llvm::all_of(Arms, [&](const CFGBlock *B) { return HangArms.count(B); }))
    return;
  HangArms.clear();
  HangArms.insert(Arms.begin(), Arms.end());
  HangPruned.reset();
  if (HangArms.empty())
    return;
  llvm::SmallPtrSet<const CFGBlock *, 16> Removed = endedBlocks();
  Removed.insert(HangArms.begin(), HangArms.end());
  HangPruned = std::make_unique<PrunedControlDependence>(*Facts, Removed);
}

std::vector<const CFGBlock *>
FunctionBody::valueControlDependencies(const CFGBlock *B) {
  if (!HangPruned)
    return liveControlDependencies(B);
  return HangPruned->all(B);
}

const std::vector<ExitArm> &FunctionBody::exitArms(Engine &E) {
  if (!ExitArms)
    ExitArms = exitArmsBeforeCollectives(E, *Facts, endedBlocks());
  return *ExitArms;
}

const CFGBlock *FunctionBody::liveImmediatePostDominator(const CFGBlock *B) {
  if ((!Doomed.empty() || !ErrorPaths.empty()) && !Doomed.count(B) &&
      !ErrorPaths.count(B))
    if (const CFGBlock *Join = pruned().immediatePostDominator(B))
      return Join;
  return Facts->immediatePostDominator(B); // Also: B never reaches the exit.
}

/// The length a sequence parameter taken by reference has on entry: what
/// the caller passed. The body keeps it where the key survives to the exit.
static uint64_t paramLengthKey(const ParmVarDecl *PD) {
  return llvm::hash_combine(llvm::StringRef("parameter length"), PD) | 1;
}
static bool lengthTracked(const ParmVarDecl *PD) {
  return PD->getType()->isReferenceType() && isValueSequence(PD->getType());
}

Taint AnalysisManager::initialTaint(const VarDecl *VD, const FunctionDecl *FD) {
  if (const auto *PD = dyn_cast<ParmVarDecl>(VD)) {
    // main's arguments come from the launcher: the same on every rank.
    if (FD->isMain() || PD->getFunctionScopeIndex() >= 64)
      return {};
    Taint T;
    T.Params = uint64_t(1) << PD->getFunctionScopeIndex();
    if (lengthTracked(PD))
      T.ShapeKey = paramLengthKey(PD);
    return T;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Collecting functions and bindings
//===----------------------------------------------------------------------===//

namespace {
/// Factories whose first template argument is the type they construct.
bool isMakeFunction(llvm::StringRef Name) {
  return Name == "make_shared" || Name == "make_unique" ||
         Name == "make_intrusive";
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(Engine &E, AnalysisManager &P) : E(E), P(P) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        E.isUserCode(FD) && !FD->isDeleted())
      Functions.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (CXXMethodDecl *Op = L->getCallOperator())
      if (!Op->isDependentContext() && E.isUserCode(Op) &&
          !llvm::is_contained(Functions, Op))
        Functions.push_back(Op);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (const Expr *Init = VD->getInit())
      bind(VD, Init);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign)
      bindLHS(B->getLHS(), B->getRHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      bindLHS(OC->getArg(0), OC->getArg(1));
    return true;
  }
  /// A callable handed to a container (push_back, emplace_back, insert:
  /// any member of a class with a value_type) is registered in it.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const ValueDecl *Holder = holderOf(MC->getImplicitObjectArgument());
    if (!Holder || !memberTypedef(MC->getRecordDecl(), "value_type"))
      return true;
    for (const Expr *Arg : MC->arguments()) {
      if (const FunctionDecl *Target = callableTarget(Arg))
        registerIn(Holder, Target, MC);
      else if (const ParmVarDecl *PD = forwardedParam(Arg))
        ParamHolders.push_back({PD, Holder});
    }
    return true;
  }
  /// A callable handed to a function (`trainer.on_step([&](int s) {...})`):
  /// registered where that function stores its parameter (finish()).
  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CXXOperatorCallExpr>(Call) || !Call->getDirectCallee())
      return true;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (const FunctionDecl *Target = callableTarget(Call->getArg(I)))
        HandedOver.push_back({Call, I, Target});
    return true;
  }
  /// Registration helpers: a function that stores its callable parameter
  /// in a container registers what each of its calls hands it, at that
  /// call (the branch around the call decides which ranks register it).
  void finish() {
    for (const auto &[Call, Index, Target] : HandedOver) {
      const FunctionDecl *Def = Call->getDirectCallee()->getDefinition();
      if (!Def || Index >= Def->getNumParams())
        continue;
      for (const auto &[PD, Holder] : ParamHolders)
        if (PD == Def->getParamDecl(Index))
          registerIn(Holder, Target, Call);
    }
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *R) {
    if (const ValueDecl *Holder = holderOf(R->getRangeInit()))
      P.ElementOf[R->getLoopVariable()] = Holder;
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->getMember() && I->getInit())
        bind(I->getMember(), I->getInit());
    return true;
  }
  /// An aggregate's braced initializer gives each field its value
  /// (`return {"sharded", [](...) {...}};`, `Strategy s{name, fn};`).
  bool VisitInitListExpr(InitListExpr *ILE) {
    const InitListExpr *Semantic =
        ILE->isSemanticForm() ? ILE : ILE->getSemanticForm();
    const RecordDecl *RD =
        Semantic ? Semantic->getType()->getAsRecordDecl() : nullptr;
    if (!RD || !RD->getDefinition() || RD->isUnion())
      return true;
    // An aggregate's bases come first (C++17).
    const auto *CRD = dyn_cast<CXXRecordDecl>(RD->getDefinition());
    unsigned I = CRD ? CRD->getNumBases() : 0;
    for (const FieldDecl *F : RD->getDefinition()->fields()) {
      if (I >= Semantic->getNumInits())
        break;
      if (const Expr *Init = Semantic->getInit(I++))
        bind(F, Init);
    }
    return true;
  }

  std::vector<const FunctionDecl *> Functions;

private:
  Engine &E;
  AnalysisManager &P;
  struct HandOver {
    const CallExpr *Call;
    unsigned Index;
    const FunctionDecl *Target;
  };
  std::vector<HandOver> HandedOver;
  std::vector<std::pair<const ParmVarDecl *, const ValueDecl *>> ParamHolders;

  void registerIn(const ValueDecl *Holder, const FunctionDecl *Target,
                  const CallExpr *Site) {
    auto &List = P.Registered[Holder];
    if (!llvm::is_contained(List, Target))
      List.push_back(Target);
    P.Registrations[Holder].push_back({Target, Site});
  }
  /// The parameter of its function an argument passes on (`cb`,
  /// `std::move(cb)`, `std::forward<F>(f)`), or null.
  static const ParmVarDecl *forwardedParam(const Expr *X) {
    X = strip(X);
    if (const auto *C = dyn_cast<CallExpr>(X);
        C && C->getNumArgs() == 1 && C->getDirectCallee() &&
        C->getDirectCallee()->isInStdNamespace() &&
        (C->getDirectCallee()->getName() == "move" ||
         C->getDirectCallee()->getName() == "forward"))
      X = strip(C->getArg(0));
    const auto *DR = dyn_cast<DeclRefExpr>(X);
    return DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  }

  static const ValueDecl *holderOf(const Expr *X) {
    X = X ? strip(X) : nullptr;
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(X))
      return DR->getDecl();
    if (const auto *M = dyn_cast_or_null<MemberExpr>(X))
      return M->getMemberDecl();
    return nullptr;
  }
  /// The function a callable expression runs: a lambda, a function or its
  /// address, a variable already bound to one.
  const FunctionDecl *callableTarget(const Expr *X) {
    X = strip(X);
    if (const auto *L = dyn_cast<LambdaExpr>(X))
      return L->getCallOperator();
    if (const auto *U = dyn_cast<UnaryOperator>(X);
        U && U->getOpcode() == UO_AddrOf)
      X = strip(U->getSubExpr());
    if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DR->getDecl()))
        return FD;
      if (auto It = P.Bindings.find(DR->getDecl()); It != P.Bindings.end())
        return It->second;
    }
    return nullptr;
  }

  void bindLHS(const Expr *LHS, const Expr *RHS) {
    LHS = strip(LHS);
    if (const auto *DR = dyn_cast<DeclRefExpr>(LHS))
      bind(DR->getDecl(), RHS);
    else if (const auto *M = dyn_cast<MemberExpr>(LHS))
      bind(M->getMemberDecl(), RHS);
  }
  /// Remembers what a callable variable runs and what an object's dynamic
  /// class is.
  /// A holder given two different values (`if (rank == 0) r = &leader;
  /// else r = &worker;`) has no one target or class: forget it for good.
  template <typename Map, typename Key, typename Value>
  void bindOnce(Map &M, const Key *D, Value V) {
    if (P.Ambiguous.count(D))
      return;
    auto [It, New] = M.try_emplace(D, V);
    if (!New && It->second != V) {
      M.erase(It);
      P.Ambiguous.insert(D);
    }
  }
  void bindCallable(const ValueDecl *D, const FunctionDecl *Target) {
    auto &List = P.Candidates[D];
    if (!llvm::is_contained(List, Target))
      List.push_back(Target);
    bindOnce(P.Bindings, D, Target);
  }
  void bind(const ValueDecl *D, const Expr *Init) {
    const Expr *X = strip(Init);
    // `cond ? a : b`: either, so both.
    if (const auto *C = dyn_cast<ConditionalOperator>(X)) {
      bind(D, C->getTrueExpr());
      bind(D, C->getFalseExpr());
      return;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(X)) {
      bindCallable(D, L->getCallOperator());
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(X);
        U && U->getOpcode() == UO_AddrOf)
      X = strip(U->getSubExpr());
    if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DR->getDecl())) {
        bindCallable(D, FD);
        return;
      }
      if (auto It = P.Candidates.find(DR->getDecl());
          It != P.Candidates.end()) {
        for (const FunctionDecl *Target : It->second)
          bindCallable(D, Target);
        return;
      }
    }
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return;
    // new D / make_shared<D>() / make_unique<D>() / D{...}
    QualType T;
    if (const auto *N = dyn_cast<CXXNewExpr>(X))
      T = N->getAllocatedType();
    else if (const auto *C = dyn_cast<CallExpr>(X)) {
      if (const FunctionDecl *F = C->getDirectCallee())
        if (const TemplateArgumentList *TA = F->getTemplateSpecializationArgs())
          if (TA->size() >= 1 &&
              TA->get(0).getKind() == TemplateArgument::Type &&
              isMakeFunction(identifierName(F)))
            T = TA->get(0).getAsType();
    } else if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
      if (const auto *Src = dyn_cast<VarDecl>(DR->getDecl()))
        if (!Src->getType()->isReferenceType() &&
            !Src->getType()->isPointerType())
          T = Src->getType();
    }
    if (!T.isNull())
      if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
        bindOnce(P.DynTypes, VD, RD);
  }
};
} // namespace

void AnalysisManager::collect() {
  Collector C(E, *this);
  for (Decl *D : E.Ctx.getTranslationUnitDecl()->decls())
    if (E.isUserCode(D))
      C.TraverseDecl(D);
  C.finish();
  UserFunctions = std::move(C.Functions);
  collectTaught();
  // Globals initialized from rank sources.
  for (Decl *D : E.Ctx.getTranslationUnitDecl()->decls())
    if (auto *VD = dyn_cast<VarDecl>(D))
      if (E.isUserCode(VD) && VD->getInit()) {
        FunctionResult Dummy;
        UniformityAnalysis U(E, nullptr, Dummy);
        (void)U;
      }
}

AnalysisManager::~AnalysisManager() {
  if (std::getenv("DISTLINT_DEBUG_BUDGETS"))
    llvm::errs() << "distlint: result cache: " << Limits.ResultCacheDrops
                 << " bodies dropped, " << Limits.ResultCacheRebuilds
                 << " rebuilt\n";
}

void AnalysisManager::collectTaught() {
  llvm::SmallPtrSet<const FunctionDecl *, 32> Seen;
  std::vector<const Stmt *> Work;
  for (const FunctionDecl *FD : UserFunctions)
    Work.push_back(FD->getBody());
  auto Reach = [&](const FunctionDecl *Callee) {
    if (!Callee || E.isUserCode(Callee) || !isTaughtDecl(E, Callee))
      return;
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->getBody() || !Seen.insert(Def).second)
      return;
    if (TaughtFunctions.size() >= Limits.TaughtFunctions) {
      if (!TaughtBudgetHit)
        Limits.hit("library functions", "the translation unit");
      TaughtBudgetHit = true;
      return;
    }
    TaughtFunctions.push_back(Def);
    Work.push_back(Def->getBody());
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : Ctor->inits())
        Work.push_back(I->getInit());
  };
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Reach(Call->getDirectCallee());
    else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S))
      Reach(Ctor->getConstructor());
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
}

void AnalysisManager::prepare() {
  if (Prepared || Preparing)
    return;
  Preparing = true;
  collect();
  bool Stable = false;
  for (int Round = 0; Round < Limits.TuRounds && !Stable; ++Round) {
    unsigned Stamp = growthStamp();
    forgetAll();
    Results.clear();
    for (const FunctionDecl *FD : TaughtFunctions)
      analyze(FD);
    for (const FunctionDecl *FD : UserFunctions)
      analyze(FD);
    // Globals initialized from a rank source (static int r = get_rank()).
    for (Decl *D : E.Ctx.getTranslationUnitDecl()->decls())
      if (auto *VD = dyn_cast<VarDecl>(D))
        if (E.isUserCode(VD) && VD->getInit() && !Tu.globalVary(VD)) {
          FunctionResult Scratch;
          UniformityAnalysis U(E, nullptr, Scratch);
          Tu.noteGlobalInitializer(VD, U.eval(VD->getInit(), {}));
        }
    Stable = Stamp == growthStamp();
  }
  if (!Stable)
    Limits.hit("TU rounds", "the translation unit");
  Preparing = false;
  Prepared = true;
}

FunctionResult *AnalysisManager::analyze(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  auto It = Results.find(FD);
  if (It != Results.end()) {
    FunctionResult *R = It->second.get();
    if (R->Analyzing)
      noteRecursionCut(*R); // R answers with what it has so far.
    R->Called |= !Running.empty() && Running.back() != R;
    return R;
  }
  auto &Slot = Results[FD];
  Slot = std::make_unique<FunctionResult>();
  FunctionResult *R = Slot.get();
  R->Called = !Running.empty();
  if (!isTaughtDecl(E, FD))
    return R;
  std::unique_ptr<FunctionFacts> Facts = FunctionFacts::build(FD, E.Ctx);
  if (!Facts)
    return R;
  if (!E.isUserCode(FD) &&
      Facts->cfg().getNumBlockIDs() > Limits.TaughtBodyBlocks) {
    // Too big to learn from: no summary.
    Limits.hit("library body size", FD->getNameAsString());
    return R;
  }
  R->HasCfg = true;
  R->HasUnreachableCode = Facts->hasUnreachableCode();
  R->Body = std::make_unique<FunctionBody>();
  R->Body->Facts = std::move(Facts);
  unsigned StartStamp = growthStamp(), StartAliases = AliasCount;
  beginAnalysis(*R);
  computeDoomed(FD, *R);
  R->Body->ErrorPaths = errorPathBlocks(E, *R->facts());
  UniformityAnalysis U(E, FD, *R);
  U.run();
  const CFGBlock *ExitBlock = &R->facts()->cfg().getExit();
  for (const CFGBlock *B : R->facts()->reversePostOrder())
    if (throwLeavesFunction(B, ExitBlock))
      R->ThrowTaint.addControl(U.controlTaint(B, true));

  FunctionSummary &Sum = R->Summary;
  if (R->ReturnTaint.Vary)
    Sum.ReturnVaries = R->ReturnTaint.Origin;
  // Past the parameters: a lambda's captures (lambdaCaptureBit).
  for (unsigned I = 0; I < 64; ++I)
    if (R->ReturnTaint.Params & (uint64_t(1) << I))
      Sum.ParamsToReturn.push_back(I);
  // Out-parameters written with rank-varying values.
  const CFGBlock &Exit = R->facts()->cfg().getExit();
  VarState AtExit = R->Body->In.lookup(&Exit);
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *PD = FD->getParamDecl(I);
    QualType T = PD->getType();
    // A tensor taken by value is a handle: what the body writes into its
    // storage (a collective through a list holding it) the caller sees.
    bool Handle = isTensorType(T) && !T->isReferenceType() &&
                  !reboundIn(PD, FD->getBody());
    if (!T->isPointerType() && !T->isReferenceType() && !Handle)
      continue;
    auto A = AtExit.find(PD);
    const bool LengthKept =
        lengthTracked(PD) && I < 64 &&
        (A == AtExit.end() || A->second.ShapeKey == paramLengthKey(PD));
    if (LengthKept)
      R->LengthKeptParams |= uint64_t(1) << I;
    if (A != AtExit.end() && A->second.Vary) {
      // Its length is the same on every rank when only the elements vary
      // and no other parameter reaches more than the elements: the callee
      // gives it a length of its own or keeps the caller's (a weak update
      // at the call joins that one).
      const Taint &Out = A->second;
      uint64_t Own = I < 64 ? uint64_t(1) << I : 0;
      bool ContentOnly = Out.ContentOnly && lengthTracked(PD) &&
                         !(Out.Params & ~Out.ElementParams & ~Own);
      Sum.VaryingOutParams.push_back({I, Out.Origin, ContentOnly});
    } else if (A != AtExit.end() && I < 64) {
      // Its own bit gone: no path keeps what the caller passed in.
      // A scalar's value is its contents, and exactly what it was given; a
      // whole object's taint joins what its fields got.
      bool Scalar = !Handle && T->getPointeeType()->isScalarType();
      uint64_t Own = uint64_t(1) << I;
      bool Overwritten = !(A->second.Params & Own) &&
                         (Scalar || A->second.UniformContent);
      uint64_t From = A->second.Params & ~Own;
      // A tensor the body rebinds (`t = t.narrow(0, 0, n)`) holds a value of
      // its own, computed from the other parameters too; one it does not
      // rebind has only its contents written.
      bool Tensor = isTensorType(T.getNonReferenceType());
      bool Rebound = Tensor && !Handle && reboundIn(PD, FD->getBody());
      bool InPlace = Handle || (Tensor && !Rebound) || LengthKept;
      if (!Scalar && !Rebound) {
        Overwritten = Overwritten && !From;
        From = 0;
      }
      if (Overwritten || From)
        R->OutParamWrites.push_back({I, From, Overwritten, InPlace});
    }
    for (auto F = AtExit.lower_bound(StateKey(PD, nullptr));
         F != AtExit.end() && F->first.Var == PD; ++F)
      if (F->first.Field && F->first.Index < 0 && !F->second.depends() &&
          F->second.UniformContent && !F->second.PendingVary)
        R->AgreedParamFields.push_back({I, F->first.Field});
  }
  // No-return: the exit is unreachable from the entry except through
  // fail-stop blocks.
  R->Done = true;
  endAnalysis(*R, StartStamp, StartAliases);
  return R;
}

bool AnalysisManager::neverReturns(const FunctionDecl *FD) {
  if (!FD || FD->isMain())
    return false;
  if (FD->isNoReturn() || E.Api.has(FD, Role::FailStop))
    return true;
  if (!FD->hasBody() || !isTaughtDecl(E, FD))
    return false;
  FunctionResult *R = analyze(FD);
  if (!R || !R->HasCfg)
    return false;
  computeDoomed(FD, *R);
  if (R->DoomedState != FunctionResult::DoomedDone)
    return false; // Recursion: assume it returns.
  return R->EntryDoomed;
}

bool AnalysisManager::failStopCall(const CallExpr *Call) {
  if (E.endsProgramNormally(Call))
    return false;
  return neverReturns(E.resolveCallee(Call));
}

void AnalysisManager::computeDoomed(const FunctionDecl *FD, FunctionResult &R) {
  if (R.DoomedState != FunctionResult::DoomedNotStarted || !R.facts())
    return;
  R.DoomedState = FunctionResult::DoomedInProgress;
  (void)FD;
  // R is being analyzed (or is a scratch result): its body stays put.
  const CFG &Graph = R.facts()->cfg();
  R.Body->Doomed = doomedBlocks(
      Graph, [&](const CallExpr *Call) { return failStopCall(Call); },
      [&](const CallExpr *Call) { return E.endsProgramNormally(Call); });
  R.EntryDoomed = R.Body->Doomed.count(&Graph.getEntry()) > 0;
  R.DoomedState = FunctionResult::DoomedDone;
}

} // namespace distlint
