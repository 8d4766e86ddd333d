//===- Engine.cpp - Summaries, uniformity data-flow, sequences ------------===//
//
// Pipeline (lazy, on the first question):
//  1. collect user functions and callable bindings (lambdas held in
//     std::function / function pointers, dynamic types of objects);
//  2. rounds until TU-wide facts (rank-varying fields and globals,
//     sub-communicators) stop growing: analyze every user function with a
//     forward data-flow over its CFG (Uniformity), summaries of callees
//     computed on demand (bottom-up, recursion cut);
//  3. questions replay a block's transfer up to the asked expression.
//
//===----------------------------------------------------------------------===//
#include "Engine.h"
#include "CFGFacts.h"
#include "ErrorPaths.h"
#include "Taint.h"
#include "UserCode.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <map>

using namespace clang;

namespace distlint {

using api::Role;

namespace {

using VarState = std::map<const VarDecl *, Taint>;
std::string sourceText(const Expr *E, ASTContext &Ctx);

/// Facts of one analyzed function.
struct FunctionResult {
  std::unique_ptr<FunctionFacts> Facts;
  llvm::DenseMap<const CFGBlock *, VarState> In;
  llvm::DenseMap<const CFGBlock *, Taint> BranchTaint;
  FunctionSummary Summary;
  Taint ReturnTaint;
  unsigned ReturnsSeen = 0;
  /// Control taint of throws that leave the function.
  Taint ThrowTaint;
  /// Joined taint of each variable over all program points (for lambdas
  /// that capture it).
  VarState AllPoints;
  /// Fields assigned from parameters: field -> parameter mask.
  std::vector<std::pair<const FieldDecl *, uint64_t>> ParamToField;
  /// Divergent collectives whose branch depends only on parameters.
  struct ParamDivergence {
    uint64_t Mask;
    const CallExpr *Collective;
    const Stmt *Branch;
    const Expr *Condition;
    bool IsLoop;
  };
  std::vector<ParamDivergence> ParamDivergences;
  bool Done = false;
  /// Collective facts (filled lazily, after the uniformity rounds).
  enum { NotStarted, InProgress, Finished } CollectiveState = NotStarted;
  llvm::DenseMap<const CFGBlock *, std::vector<std::string>> Arms;
  /// Blocks from which every path ends the job (see Impl::computeDoomed).
  llvm::SmallPtrSet<const CFGBlock *, 8> Doomed;
  enum {
    DoomedNotStarted,
    DoomedInProgress,
    DoomedDone
  } DoomedState = DoomedNotStarted;
  /// Failure arms of status checks that leave (engine/ErrorPaths.h): like
  /// doomed blocks, they do not make later code control-dependent.
  llvm::SmallPtrSet<const CFGBlock *, 8> ErrorPaths;
  /// Control dependencies that remain when the paths that end the job are
  /// ignored: after `if (err) exit(1);`, or after `if (rank == 0) {
  /// CHECK(...); }`, the code that follows runs on every rank still alive.
  /// Computed on the CFG without its doomed blocks (own post-dominators).
  const std::vector<const CFGBlock *> &
  liveControlDependencies(const CFGBlock *B);

private:
  void computeLiveDeps();
  bool LiveDepsBuilt = false;
  /// Direct control dependencies in the pruned CFG, by block ID.
  std::vector<std::vector<const CFGBlock *>> LiveDirect;
  llvm::DenseMap<const CFGBlock *, std::vector<const CFGBlock *>> LiveDeps;
};

void FunctionResult::computeLiveDeps() {
  LiveDepsBuilt = true;
  CFG &G = Facts->cfg();
  unsigned N = G.getNumBlockIDs();
  LiveDirect.assign(N, {});
  const CFGBlock *Exit = &G.getExit();
  auto Live = [&](const CFGBlock *B) {
    return B && !Doomed.count(B) && !ErrorPaths.count(B);
  };
  // Post-dominator sets over live blocks, iterated to a fixpoint (blocks
  // that cannot reach the exit keep the full set).
  std::vector<llvm::BitVector> PD(N, llvm::BitVector(N, true));
  PD[Exit->getBlockID()] = llvm::BitVector(N, false);
  PD[Exit->getBlockID()].set(Exit->getBlockID());
  const auto &RPO = Facts->reversePostOrder();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto It = RPO.rbegin(); It != RPO.rend(); ++It) {
      const CFGBlock *B = *It;
      if (B == Exit || !Live(B))
        continue;
      llvm::BitVector New(N, true);
      bool AnySucc = false;
      for (const CFGBlock *Succ : B->succs())
        if (Live(Succ)) {
          New &= PD[Succ->getBlockID()];
          AnySucc = true;
        }
      if (!AnySucc)
        continue;
      New.set(B->getBlockID());
      if (New != PD[B->getBlockID()]) {
        PD[B->getBlockID()] = std::move(New);
        Changed = true;
      }
    }
  }
  auto ReachesExit = [&](const CFGBlock *B) {
    return PD[B->getBlockID()].test(Exit->getBlockID());
  };
  // Immediate post-dominator: the strict post-dominator whose own set is
  // the rest of B's.
  auto IPDom = [&](const CFGBlock *B) -> const CFGBlock * {
    llvm::BitVector Strict = PD[B->getBlockID()];
    Strict.reset(B->getBlockID());
    for (int I = Strict.find_first(); I >= 0; I = Strict.find_next(I))
      if (PD[I] == Strict)
        for (const CFGBlock *C : G)
          if (C->getBlockID() == (unsigned)I)
            return C;
    return nullptr;
  };
  llvm::DenseMap<const CFGBlock *, const CFGBlock *> IPDomCache;
  auto IPDomOf = [&](const CFGBlock *B) {
    auto [It, New] = IPDomCache.try_emplace(B, nullptr);
    if (New)
      It->second = IPDom(B);
    return It->second;
  };
  // Ferrante et al.: for each edge X -> Y, the blocks from Y up to X's
  // immediate post-dominator depend on X.
  for (const CFGBlock *X : RPO) {
    if (!Live(X) || !ReachesExit(X))
      continue;
    llvm::SmallPtrSet<const CFGBlock *, 4> Succs;
    for (const CFGBlock *Y : X->succs())
      if (Live(Y) && ReachesExit(Y))
        Succs.insert(Y);
    if (Succs.size() < 2)
      continue;
    const CFGBlock *Stop = IPDomOf(X);
    for (const CFGBlock *Y : Succs)
      for (const CFGBlock *Run = Y; Run && Run != Stop; Run = IPDomOf(Run)) {
        auto &Deps = LiveDirect[Run->getBlockID()];
        if (!llvm::is_contained(Deps, X))
          Deps.push_back(X);
        if (Run == Exit)
          break;
      }
  }
}

const std::vector<const CFGBlock *> &
FunctionResult::liveControlDependencies(const CFGBlock *B) {
  auto It = LiveDeps.find(B);
  if (It != LiveDeps.end())
    return It->second;
  std::vector<const CFGBlock *> Out;
  if (Doomed.empty() && ErrorPaths.empty()) {
    Out = Facts->allControlDependencies(B);
  } else {
    if (!LiveDepsBuilt)
      computeLiveDeps();
    llvm::SmallPtrSet<const CFGBlock *, 16> Seen{B};
    std::vector<const CFGBlock *> Work{B};
    while (!Work.empty()) {
      const CFGBlock *Cur = Work.back();
      Work.pop_back();
      for (const CFGBlock *Dep : LiveDirect[Cur->getBlockID()])
        if (Seen.insert(Dep).second) {
          Out.push_back(Dep);
          Work.push_back(Dep);
        }
    }
  }
  return LiveDeps[B] = std::move(Out);
}

const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Next))
      Next = C->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Next))
      Next = F->getSubExpr();
    else if (const auto *N = dyn_cast<CXXNamedCastExpr>(Next))
      Next = N->getSubExpr();
    else if (const auto *S = dyn_cast<CStyleCastExpr>(Next))
      Next = S->getSubExpr();
    else if (const auto *K = dyn_cast<CXXConstructExpr>(Next);
             K && K->getNumArgs() == 1 &&
             (K->getConstructor()->isCopyOrMoveConstructor() ||
              K->getConstructor()->isConvertingConstructor(false)))
      Next = K->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

/// The variable an lvalue / address expression designates: `x`, `&x`,
/// `x[i]`, `*p` (p), `x.f` (x).
const VarDecl *baseVar(const Expr *E) {
  E = strip(E);
  while (E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DR->getDecl());
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      E = strip(U->getSubExpr());
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      E = strip(A->getBase());
      continue;
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      E = strip(M->getBase());
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      E = strip(MC->getImplicitObjectArgument());
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getNumArgs() >= 1 &&
        (Op->getOperator() == OO_Star || Op->getOperator() == OO_Subscript ||
         Op->getOperator() == OO_Arrow)) {
      E = strip(Op->getArg(0));
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

void collectVarRefs(const Stmt *S,
                    llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      Out.push_back(VD);
  for (const Stmt *C : S->children())
    collectVarRefs(C, Out);
}

bool isTensorType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    std::string N = RD->getNameAsString();
    return N == "Tensor" || N == "TensorBase";
  }
  return false;
}

/// Does B end in a throw that leaves the function (no enclosing try)? The
/// CFG lists the throw as B's last element, with the exit as successor (or
/// as the terminator, depending on the build options).
bool throwLeavesFunction(const CFGBlock *B, const CFGBlock *Exit) {
  bool Throws =
      B->getTerminatorStmt() && isa<CXXThrowExpr>(B->getTerminatorStmt());
  for (auto It = B->rbegin(); !Throws && It != B->rend(); ++It)
    if (auto CS = It->getAs<CFGStmt>()) {
      Throws = isa<CXXThrowExpr>(CS->getStmt());
      break;
    }
  if (!Throws)
    return false;
  for (const CFGBlock *Succ : B->succs())
    if (Succ && Succ != Exit)
      return false;
  return true;
}

/// A tensor or a container of tensors (vector, ArrayRef, optional...).
bool isTensorLike(QualType T) {
  if (isTensorType(T))
    return true;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl())) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    return Args.size() > 0 && Args[0].getKind() == TemplateArgument::Type &&
           isTensorType(Args[0].getAsType());
  }
  return false;
}

/// An int-array size parameter (IntArrayRef, SymIntArrayRef...).
bool isSizeArrayType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl())) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Spec->getName().contains("ArrayRef") && Args.size() > 0 &&
        Args[0].getKind() == TemplateArgument::Type)
      return Args[0].getAsType()->isIntegerType() ||
             Args[0].getAsType().getAsString().find("SymInt") !=
                 std::string::npos;
  }
  return false;
}

} // namespace

struct Engine::Impl {
  Engine &E;
  explicit Impl(Engine &E) : E(E) {}

  bool Prepared = false;
  bool Preparing = false;
  std::vector<const FunctionDecl *> UserFunctions;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionResult>> Results;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionFacts>>
      FactsCache;
  /// TU-wide facts, grown across rounds.
  llvm::DenseMap<const FieldDecl *, Taint> FieldVary;
  /// Value range of each user field over every write seen in the TU
  /// (absent: no write seen; nullopt: unknown).
  llvm::DenseMap<const FieldDecl *, std::optional<IntRange>> FieldRange;
  /// Return values of helpers called with a launcher variable's name
  /// (`envInt("WORLD_SIZE", 1)`), analyzed with that argument bound.
  std::map<std::pair<const FunctionDecl *, std::string>, Taint> Specialized;
  int SpecializationDepth = 0;
  llvm::DenseMap<const VarDecl *, Taint> GlobalVary;
  llvm::SmallPtrSet<const VarDecl *, 8> SubComms;
  /// std::function / function-pointer variables and fields -> target.
  llvm::DenseMap<const ValueDecl *, const FunctionDecl *> Bindings;
  /// Objects whose dynamic class is known.
  llvm::DenseMap<const VarDecl *, const CXXRecordDecl *> DynTypes;
  /// Vector-like variables holding tensor variables (for in-place ops).
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const VarDecl *, 2>>
      Aliases;
  unsigned GrowthStamp = 0;

  void prepare();
  void collect();
  FunctionResult *analyze(const FunctionDecl *FD);
  const FunctionDecl *resolve(const CallExpr *Call);
  const FunctionDecl *owningFunction(const Decl *D);
  Taint initialTaint(const VarDecl *VD, const FunctionDecl *FD);
  /// Fail-stop: the call ends the whole job (exit, abort, MPI_Abort,
  /// std::terminate, or a user function that never returns).
  bool failStopCall(const CallExpr *Call);
  bool neverReturns(const FunctionDecl *FD);
  void computeDoomed(const FunctionDecl *FD, FunctionResult &R);
};

//===----------------------------------------------------------------------===//
// Evaluation and transfer
//===----------------------------------------------------------------------===//

class UniformityAnalysis {
public:
  UniformityAnalysis(Engine &E, const FunctionDecl *FD, FunctionResult &R)
      : E(E), P(*E.P), FD(FD), R(R) {}

  Taint eval(const Expr *X, const VarState &S);
  void transfer(const CFGElement &El, VarState &S, const Taint &Ctl);
  /// Join of the branches B is control-dependent on. Fail-stop guards are
  /// skipped unless asked for: code after `if (err) exit(1)` runs on every
  /// rank that is still alive.
  Taint controlTaint(const CFGBlock *B, bool WithFailStopGuards = false);
  void run();
  /// Replays B's elements up to (not including) the one that is or
  /// contains Target; returns the state there.
  VarState stateBefore(const CFGBlock *B, const Stmt *Target);

private:
  Engine &E;
  Engine::Impl &P;
  const FunctionDecl *FD;
  FunctionResult &R;

  Taint varTaint(const VarDecl *VD, const VarState &S);
  Taint evalCall(const CallExpr *Call, const VarState &S);
  Taint evalCompare(BinaryOperatorKind Op, const Taint &L, const Taint &Rt);
  /// Does the shape of a library call's result differ between ranks? It
  /// follows the objects it is computed from and the arguments that are
  /// sizes (int-array parameters, SizeArgument rows); other scalars (a fill
  /// value, a device, an offset) only change values.
  bool resultShapeVaries(const CallExpr *Call, const FunctionDecl *Callee,
                         const Expr *Receiver,
                         llvm::ArrayRef<const Expr *> Args, const VarState &S);
  void assignVar(const VarDecl *VD, Taint T, VarState &S, bool Strong);
  void assignLValue(const Expr *LHS, Taint T, VarState &S, bool Strong);
  void callEffects(const CallExpr *Call, VarState &S, const Taint &Ctl);
  /// Records a write of user field F (TU-wide facts: may it vary, its
  /// range, which parameters reach it).
  void noteFieldWrite(const FieldDecl *F, const Taint &T);
  /// Return value of a user function called with these argument values,
  /// when an argument names a launcher variable; nullopt otherwise.
  std::optional<Taint> specializedReturn(const FunctionDecl *Callee,
                                         llvm::ArrayRef<const Expr *> Args,
                                         const VarState &S);
  /// Bound parameter values of a specialized analysis.
  const std::vector<Taint> *BoundArgs = nullptr;

public:
  void bindArguments(const std::vector<Taint> *Args) { BoundArgs = Args; }

private:
  /// Set while transferring a block under a rank-varying branch.
  bool ControlVaries = false;
  bool isLocal(const VarDecl *VD) const {
    return VD->hasLocalStorage() && P.owningFunction(VD) == FD;
  }
};

Taint Engine::Impl::initialTaint(const VarDecl *VD, const FunctionDecl *FD) {
  if (const auto *PD = dyn_cast<ParmVarDecl>(VD)) {
    // main's arguments come from the launcher: the same on every rank.
    if (FD->isMain() || PD->getFunctionScopeIndex() >= 64)
      return {};
    Taint T;
    T.Params = uint64_t(1) << PD->getFunctionScopeIndex();
    return T;
  }
  return {};
}

Taint UniformityAnalysis::varTaint(const VarDecl *VD, const VarState &S) {
  auto It = S.find(VD);
  if (It != S.end())
    return It->second;
  if (!VD->hasLocalStorage() || VD->isStaticLocal()) {
    auto G = P.GlobalVary.find(VD);
    if (G != P.GlobalVary.end())
      return G->second;
    if (VD->isConstexpr() || VD->getType().isConstQualified())
      if (const Expr *Init = VD->getInit())
        if (auto V = Init->getIntegerConstantExpr(E.context()))
          return Taint::constant(V->getExtValue());
    return {};
  }
  if (BoundArgs)
    if (const auto *PD = dyn_cast<ParmVarDecl>(VD))
      if (P.owningFunction(PD) == FD &&
          PD->getFunctionScopeIndex() < BoundArgs->size())
        return (*BoundArgs)[PD->getFunctionScopeIndex()];
  const FunctionDecl *Owner = P.owningFunction(VD);
  if (Owner && Owner != FD) {
    // Captured by a lambda: the variable's taint anywhere in its function.
    if (FunctionResult *OR = P.analyze(Owner)) {
      auto A = OR->AllPoints.find(VD);
      if (A != OR->AllPoints.end()) {
        Taint T = A->second;
        T.Params = 0;
        return T;
      }
    }
    return {};
  }
  return P.initialTaint(VD, FD);
}

Taint UniformityAnalysis::evalCompare(BinaryOperatorKind Op, const Taint &L,
                                      const Taint &Rt) {
  Taint T = L;
  T.join(Rt);
  T.UniformContent = false;
  if (L.Range && Rt.Range) {
    // Decide the comparison for every rank and every world size >= 1.
    auto Lt = [&](const IntRange &A, const IntRange &B) {
      return alwaysNegative(sub(A.Hi, B.Lo));
    };
    auto Le = [&](const IntRange &A, const IntRange &B) {
      LinearBound D = sub(A.Hi, B.Lo);
      return D.W <= 0 && D.W + D.C <= 0;
    };
    const IntRange &A = *L.Range, &B = *Rt.Range;
    std::optional<bool> Known;
    switch (Op) {
    case BO_LT:
      Known = Lt(A, B)   ? std::optional<bool>(true)
              : Le(B, A) ? std::optional<bool>(false)
                         : std::nullopt;
      break;
    case BO_LE:
      Known = Le(A, B)   ? std::optional<bool>(true)
              : Lt(B, A) ? std::optional<bool>(false)
                         : std::nullopt;
      break;
    case BO_GT:
      Known = Lt(B, A)   ? std::optional<bool>(true)
              : Le(A, B) ? std::optional<bool>(false)
                         : std::nullopt;
      break;
    case BO_GE:
      Known = Le(B, A)   ? std::optional<bool>(true)
              : Lt(A, B) ? std::optional<bool>(false)
                         : std::nullopt;
      break;
    case BO_EQ:
    case BO_NE:
      if (Lt(A, B) || Lt(B, A))
        Known = Op == BO_NE;
      else if (A.Lo == A.Hi && B.Lo == B.Hi && A.Lo == B.Lo)
        Known = Op == BO_EQ;
      break;
    default:
      break;
    }
    if (Known) {
      Taint C = Taint::constant(*Known ? 1 : 0);
      C.Params = T.Params & 0; // Decided regardless of its inputs.
      return C;
    }
  }
  T.Range = IntRange{{0, 0}, {0, 1}};
  return T;
}

Taint UniformityAnalysis::eval(const Expr *X, const VarState &S) {
  if (!X)
    return {};
  X = X->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(X)) {
    Taint T = eval(Cast->getSubExpr(), S);
    if (Cast->getCastKind() == CK_PointerToBoolean && T.NonNull)
      return Taint::constant(1);
    if (Cast->getCastKind() == CK_IntegralToBoolean ||
        Cast->getCastKind() == CK_PointerToBoolean)
      T.Range.reset();
    return T;
  }
  if (const auto *IL = dyn_cast<IntegerLiteral>(X))
    return Taint::constant(IL->getValue().getSExtValue());
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(X))
    return Taint::constant(BL->getValue());
  if (const auto *CL = dyn_cast<CharacterLiteral>(X))
    return Taint::constant(CL->getValue());
  if (const auto *SL = dyn_cast<StringLiteral>(X)) {
    // The name of a rank environment variable carries the rank to whatever
    // reads the environment with it (getenv(name) in a helper).
    if (SL->getCharByteWidth() == 1 &&
        api::envVariable(SL->getString(), Role::RankSource)) {
      Taint T = Taint::varying(VaryKind::Rank, SL->getBeginLoc(),
                               "rank (environment variable " +
                                   SL->getString().str() + ")");
      T.LauncherVar = 1;
      return T;
    }
    Taint T;
    T.UniformContent = true;
    if (SL->getCharByteWidth() == 1 &&
        api::envVariable(SL->getString(), Role::WorldSizeSource))
      T.LauncherVar = 2;
    return T;
  }
  if (isa<FloatingLiteral, CXXNullPtrLiteralExpr, GNUNullExpr, LambdaExpr,
          CXXThisExpr, UnaryExprOrTypeTraitExpr, TypeTraitExpr,
          CXXDefaultArgExpr>(X)) {
    Taint T;
    T.UniformContent = true;
    return T;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      return varTaint(VD, S);
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
      return Taint::constant(EC->getInitVal().getSExtValue());
    return {};
  }
  if (const auto *M = dyn_cast<MemberExpr>(X)) {
    Taint T;
    if (!isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
      T = eval(M->getBase(), S);
    if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl())) {
      auto It = P.FieldVary.find(F);
      if (It != P.FieldVary.end()) {
        Taint FT = It->second;
        FT.Params = 0;
        T.join(FT);
      }
      // The field's range over every write in the TU, if all agree.
      T.Range.reset();
      auto FR = P.FieldRange.find(F);
      if (FR != P.FieldRange.end() && FR->second && E.isUserCode(F))
        T.Range = FR->second;
    }
    return T;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(X)) {
    Taint T = eval(U->getSubExpr(), S);
    switch (U->getOpcode()) {
    case UO_Minus:
      if (T.Range)
        T.Range = IntRange{{-T.Range->Hi.W, -T.Range->Hi.C},
                           {-T.Range->Lo.W, -T.Range->Lo.C}};
      break;
    case UO_Plus:
    case UO_AddrOf:
      if (U->getOpcode() != UO_Plus)
        T.Range.reset();
      break;
    case UO_Deref:
      T.Range.reset();
      // A number read through a pointer is contents; an object keeps the
      // shape it had.
      if (U->getType()->isArithmeticType() || U->getType()->isEnumeralType())
        T.ContentOnly = false;
      break;
    case UO_LNot:
      if (T.Range && T.Range->Lo == T.Range->Hi && T.Range->Lo.W == 0)
        T.Range = IntRange{{0, T.Range->Lo.C == 0}, {0, T.Range->Lo.C == 0}};
      else if (T.Range && (alwaysNegative(sub({0, 0}, T.Range->Lo)) ||
                           alwaysNegative(T.Range->Hi)))
        T.Range = IntRange{{0, 0}, {0, 0}}; // never zero
      else
        T.Range = IntRange{{0, 0}, {0, 1}};
      break;
    default:
      T.Range.reset();
    }
    return T;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(X)) {
    if (B->isAssignmentOp() || B->getOpcode() == BO_Comma)
      return eval(B->getRHS(), S);
    Taint L = eval(B->getLHS(), S), Rt = eval(B->getRHS(), S);
    if (B->isComparisonOp())
      return evalCompare(B->getOpcode(), L, Rt);
    Taint T = L;
    T.join(Rt);
    std::optional<IntRange> LR = L.Range, RR = Rt.Range;
    T.Range.reset();
    if (LR && RR) {
      switch (B->getOpcode()) {
      case BO_Add:
        T.Range = IntRange{{LR->Lo.W + RR->Lo.W, LR->Lo.C + RR->Lo.C},
                           {LR->Hi.W + RR->Hi.W, LR->Hi.C + RR->Hi.C}};
        break;
      case BO_Sub:
        T.Range = IntRange{{LR->Lo.W - RR->Hi.W, LR->Lo.C - RR->Hi.C},
                           {LR->Hi.W - RR->Lo.W, LR->Hi.C - RR->Lo.C}};
        break;
      case BO_Rem:
        if (RR->Lo == RR->Hi && RR->Lo.W == 0 && RR->Lo.C > 0 &&
            LR->Lo.W >= 0 && LR->Lo.C >= 0)
          T.Range = IntRange{{0, 0}, {0, RR->Lo.C - 1}};
        break;
      case BO_LAnd:
      case BO_LOr:
        T.Range = IntRange{{0, 0}, {0, 1}};
        break;
      default:
        break;
      }
    }
    if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
      // Decided by one side alone when it is constant.
      auto Const = [](const Taint &V) -> std::optional<bool> {
        if (V.Range && V.Range->Lo == V.Range->Hi && V.Range->Lo.W == 0)
          return V.Range->Lo.C != 0;
        return std::nullopt;
      };
      auto CL = Const(L), CR = Const(Rt);
      bool IsAnd = B->getOpcode() == BO_LAnd;
      if ((CL && *CL != IsAnd) || (CR && *CR != IsAnd))
        return Taint::constant(IsAnd ? 0 : 1);
      if (CL && CR)
        return Taint::constant(IsAnd ? (*CL && *CR) : (*CL || *CR));
      if (CL)
        return Rt; // (true && x) == x
      if (CR)
        return L;
    }
    return T;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(X)) {
    Taint T = eval(C->getCond(), S);
    // A condition decided on every rank picks one arm.
    if (!T.depends() && T.Range && T.Range->Lo == T.Range->Hi &&
        T.Range->Lo.W == 0)
      return eval(T.Range->Lo.C ? C->getTrueExpr() : C->getFalseExpr(), S);
    T.Range.reset();
    Taint A = eval(C->getTrueExpr(), S), B = eval(C->getFalseExpr(), S);
    A.join(B);
    A.addControl(T);
    return A;
  }
  if (const auto *Call = dyn_cast<CallExpr>(X))
    return evalCall(Call, S);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
    Taint T = eval(AS->getBase(), S);
    T.join(eval(AS->getIdx(), S));
    T.ContentOnly = false;
    T.Range.reset();
    return T;
  }
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(X)) {
    const CXXRecordDecl *RD = Ctor->getConstructor()->getParent();
    if (E.api().findType(RD, Role::SamplerType)) {
      // Distributed samplers pad shards to equal length: the loader's trip
      // count is uniform (distlint-missing-set-epoch covers the rest).
      Taint T;
      return T;
    }
    Taint T;
    T.UniformContent = true;
    for (const Expr *A : Ctor->arguments())
      T.join(eval(A, S));
    if (Ctor->getNumArgs() == 0)
      T.UniformContent = !isTensorType(Ctor->getType());
    T.Range.reset();
    return T;
  }
  // Everything else: the join of what it is made of.
  Taint T;
  T.UniformContent = true;
  bool Any = false;
  for (const Stmt *Child : X->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child)) {
      T.join(eval(CE, S));
      Any = true;
    }
  if (!Any)
    T.UniformContent = !isTensorType(X->getType());
  T.Range.reset();
  return T;
}

Taint UniformityAnalysis::evalCall(const CallExpr *Call, const VarState &S) {
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const Expr *Receiver = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Receiver = MC->getImplicitObjectArgument();
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
           OC && isa_and_nonnull<CXXMethodDecl>(Callee) && OC->getNumArgs())
    Receiver = OC->getArg(0);
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (isa<CXXOperatorCallExpr>(Call) && Receiver)
    Args = Args.drop_front();

  SourceLocation Loc = Call->getBeginLoc();
  for (const api::ApiEntry *Row : E.api().lookup(Callee)) {
    switch (Row->TheRole) {
    case Role::RankSource:
      if (Row->Args.Out < 0) {
        Taint T = Taint::varying(VaryKind::Rank, Loc, "rank");
        T.Range = IntRange{{0, 0}, {1, -1}};
        return T;
      }
      return {};
    case Role::WorldSizeSource:
      if (Row->Args.Out < 0) {
        Taint T;
        T.Range = IntRange{{1, 0}, {1, 0}};
        return T;
      }
      return {};
    case Role::LocalDataSource: {
      Taint T = Taint::varying(VaryKind::LocalData, Loc,
                               "rank-local value (clock, random number, file "
                               "system or local data)");
      // Random tensors: their values differ, their shape is what was asked.
      if (isTensorType(Call->getType()))
        T.ContentOnly = !resultShapeVaries(Call, Callee, Receiver, Args, S);
      return T;
    }
    case Role::TensorRead: {
      Taint Obj = Receiver ? eval(Receiver, S)
                           : (Args.empty() ? Taint() : eval(Args[0], S));
      if (Obj.UniformContent && !Obj.Vary) {
        Taint T;
        T.UniformContent = true;
        return T;
      }
      if (Obj.Vary)
        return Obj;
      Taint T =
          Taint::varying(VaryKind::LocalData, Loc, "rank-local tensor value");
      T.Params = Obj.Params;
      return T;
    }
    case Role::EnvRead: {
      int Idx = Row->Args.Count >= 0 ? Row->Args.Count : 0;
      if (Idx < (int)Args.size())
        if (const auto *SL = dyn_cast<StringLiteral>(strip(Args[Idx]))) {
          std::string Name = SL->getString().str();
          // The launcher sets its rank and size variables on every rank:
          // the pointer is not null, parsing it gives the rank / size.
          if (api::envVariable(Name, Role::RankSource)) {
            Taint T =
                Taint::varying(VaryKind::Rank, Loc,
                               "rank (environment variable " + Name + ")");
            T.Range = IntRange{{0, 0}, {1, -1}};
            T.NonNull = true;
            return T;
          }
          if (api::envVariable(Name, Role::WorldSizeSource)) {
            Taint T;
            T.Range = IntRange{{1, 0}, {1, 0}};
            T.NonNull = true;
            return T;
          }
          return {}; // Launchers give every rank the same environment.
        }
      // A variable name computed elsewhere: the value carries its taint.
      if (Idx < (int)Args.size()) {
        Taint T = eval(Args[Idx], S);
        if (T.LauncherVar == 1) {
          T.Range = IntRange{{0, 0}, {1, -1}};
          T.NonNull = true;
          T.LauncherVar = 0;
          T.UniformContent = false;
          return T;
        }
        if (T.LauncherVar == 2 && !T.depends()) {
          Taint W;
          W.Range = IntRange{{1, 0}, {1, 0}};
          W.NonNull = true;
          return W;
        }
        T.Range.reset();
        T.UniformContent = false;
        return T;
      }
      return {};
    }
    case Role::Parse: {
      int Idx = Row->Args.Send >= 0 ? Row->Args.Send : 0;
      if (Idx < (int)Args.size())
        return eval(Args[Idx], S);
      return {};
    }
    case Role::Collective:
    case Role::UniformValue: {
      Taint T;
      T.UniformContent = true;
      return T;
    }
    case Role::ShapeQuery: {
      Taint T = Receiver ? eval(Receiver, S) : Taint();
      if (T.Vary && T.ContentOnly)
        T = Taint();
      for (const Expr *A : Args)
        T.join(eval(A, S));
      T.Range.reset();
      T.UniformContent = false;
      return T;
    }
    default:
      break;
    }
  }

  if (Callee && Callee->hasBody() && E.isUserCode(Callee)) {
    const FunctionDecl *Def = Callee->getDefinition();
    FunctionResult *CR = P.analyze(Def ? Def : Callee);
    if (CR && !CR->Summary.ParamsToReturn.empty())
      if (auto Special = specializedReturn(Def ? Def : Callee, Args, S))
        return *Special;
    Taint T;
    if (CR) {
      if (CR->Summary.ReturnVaries) {
        T.Vary = true;
        T.Origin = *CR->Summary.ReturnVaries;
      }
      T.UniformContent = CR->ReturnTaint.UniformContent;
      if (CR->ReturnTaint.Range && !CR->ReturnTaint.Params)
        T.Range = CR->ReturnTaint.Range;
      for (unsigned I : CR->Summary.ParamsToReturn)
        if (I < Args.size())
          T.join(eval(Args[I], S));
      if (Receiver && !isa<CXXThisExpr>(Receiver->IgnoreParenImpCasts())) {
        Taint O = eval(Receiver, S);
        if (O.Vary && !T.Vary) {
          T.Vary = true;
          T.Origin = O.Origin;
        }
      }
    }
    return T;
  }

  // Unknown (library) function: the result depends on what it reads.
  Taint T;
  T.UniformContent = true;
  bool TensorInput = false;
  bool MethodOnNonTensor = false;
  if (Receiver) {
    Taint O = eval(Receiver, S);
    T.join(O);
    if (isTensorType(Receiver->getType()))
      TensorInput = true;
    else if (!O.UniformContent || !isa<CXXOperatorCallExpr>(Call))
      MethodOnNonTensor = true;
  }
  for (const Expr *A : Args) {
    if (isa<LambdaExpr>(strip(A)))
      continue;
    Taint AT = eval(A, S);
    if (isTensorType(A->getType()))
      TensorInput = true;
    else
      AT.UniformContent = true;
    T.join(AT);
  }
  (void)TensorInput;
  if (MethodOnNonTensor && isTensorType(Call->getType()))
    T.UniformContent = false;
  T.Range.reset();
  // A scalar computed from the contents varies with them; an object (a
  // tensor, a dataset, a loader) has the shape of what it was built from.
  QualType RT = Call->getType();
  T.ContentOnly = T.Vary && !RT->isArithmeticType() && !RT->isEnumeralType() &&
                  !resultShapeVaries(Call, Callee, Receiver, Args, S);
  return T;
}

bool UniformityAnalysis::resultShapeVaries(const CallExpr *Call,
                                           const FunctionDecl *Callee,
                                           const Expr *Receiver,
                                           llvm::ArrayRef<const Expr *> Args,
                                           const VarState &S) {
  auto ShapeVaries = [&](const Expr *A) {
    Taint T = eval(A, S);
    return T.Vary && !T.ContentOnly;
  };
  if (Receiver && ShapeVaries(Receiver))
    return true;
  bool IsOperator = isa<CXXOperatorCallExpr>(Call);
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *A = Args[I];
    if (isa<LambdaExpr>(strip(A)))
      continue;
    // Tensors and other objects that hold data (a dataset, a vector) pass
    // their shape on; small value types (a device, options) do not.
    QualType AT = A->getType().getNonReferenceType();
    if (isTensorLike(AT)) {
      if (ShapeVaries(A))
        return true;
      continue;
    }
    if (IsOperator || !Callee)
      continue; // `t + rank`, `t[rank]`: values, not shapes.
    bool Size = I < Callee->getNumParams() &&
                isSizeArrayType(Callee->getParamDecl(I)->getType());
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      if (Row->TheRole == Role::SizeArgument && Row->Args.Count == (int)I)
        Size = true;
    if (Size) {
      if (eval(A, S).Vary)
        return true;
      continue;
    }
    if (AT->isRecordType()) {
      // A number converted to a value type (c10::Scalar) is a value.
      const Expr *Inner = A->IgnoreImplicit();
      if (const auto *CE = dyn_cast<CXXConstructExpr>(Inner);
          CE && CE->getNumArgs() == 1 &&
          CE->getArg(0)->getType()->isArithmeticType())
        continue;
      if (!AT.isTriviallyCopyableType(E.context()) && ShapeVaries(A))
        return true;
      continue;
    }
  }
  return false;
}

void UniformityAnalysis::assignVar(const VarDecl *VD, Taint T, VarState &S,
                                   bool Strong) {
  if (!VD)
    return;
  if (!VD->hasLocalStorage() || VD->isStaticLocal()) {
    Taint G = T;
    G.Params = 0;
    if (G.Vary) {
      auto [It, New] = P.GlobalVary.try_emplace(VD, G);
      if (New)
        ++P.GrowthStamp;
    }
    return;
  }
  if (Strong)
    S[VD] = T;
  else {
    Taint Old = varTaint(VD, S);
    Old.join(T);
    S[VD] = Old;
  }
}

void UniformityAnalysis::assignLValue(const Expr *LHS, Taint T, VarState &S,
                                      bool Strong) {
  const Expr *L = strip(LHS);
  // Written through its address (`MPI_Comm_rank(comm, &rank)`).
  if (const auto *U = dyn_cast<UnaryOperator>(L);
      U && U->getOpcode() == UO_AddrOf &&
      isa<DeclRefExpr, MemberExpr>(strip(U->getSubExpr())))
    L = strip(U->getSubExpr());
  if (const auto *M = dyn_cast<MemberExpr>(L)) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (F && E.isUserCode(F)) {
      // Fields of the project's own types are tracked per field (TU-wide),
      // so `job.rank` varying does not make `job.size` vary.
      noteFieldWrite(F, T);
      return;
    }
    if (const VarDecl *Base = baseVar(M->getBase()))
      assignVar(Base, T, S, /*Strong=*/false);
    return;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(L)) {
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
      // Assigning through a reference parameter writes the caller's object.
      assignVar(VD, T, S, Strong && !VD->getType()->isReferenceType());
      if (VD->getType()->isReferenceType() && isa<ParmVarDecl>(VD))
        assignVar(VD, T, S, true);
    }
    return;
  }
  if (const VarDecl *VD = baseVar(L)) {
    // Writing an element changes contents, not the object's length.
    // (A tensor element write never resizes the tensor, even under a
    // varying branch; a container's may: map[key], vector growth.)
    Taint Elem = T;
    if (Elem.Vary && (!ControlVaries || isTensorType(VD->getType())))
      Elem.ContentOnly = true;
    assignVar(VD, Elem, S, /*Strong=*/false);
  }
}

void UniformityAnalysis::callEffects(const CallExpr *Call, VarState &S,
                                     const Taint &Ctl) {
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const Expr *Receiver = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Receiver = MC->getImplicitObjectArgument();
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (isa<CXXOperatorCallExpr>(Call) &&
      isa_and_nonnull<CXXMethodDecl>(Callee) && !Args.empty()) {
    Receiver = Args.front();
    Args = Args.drop_front();
  }
  auto ArgAt = [&](int I) -> const Expr * {
    return I >= 0 && I < (int)Args.size() ? Args[I] : nullptr;
  };

  bool Known = false;
  for (const api::ApiEntry *Row : E.api().lookup(Callee)) {
    Known = true;
    const Expr *Out = ArgAt(Row->Args.Out);
    switch (Row->TheRole) {
    case Role::RankSource:
      if (Out) {
        Taint T = Taint::varying(VaryKind::Rank, Call->getBeginLoc(), "rank");
        T.Range = IntRange{{0, 0}, {1, -1}};
        T.addControl(Ctl);
        assignLValue(Out, T, S, true);
      }
      break;
    case Role::WorldSizeSource:
      if (Out) {
        Taint T;
        T.Range = IntRange{{1, 0}, {1, 0}};
        T.addControl(Ctl);
        assignLValue(Out, T, S, true);
      }
      break;
    case Role::LocalDataSource:
      if (Out) {
        Taint T = Taint::varying(VaryKind::LocalData, Call->getBeginLoc(),
                                 Row->Detail && *Row->Detail
                                     ? std::string("rank-local value (") +
                                           Row->Detail + ")"
                                     : "rank-local value");
        assignLValue(Out, T, S, true);
      }
      break;
    case Role::CommSplit:
      if (Out)
        if (const VarDecl *VD = baseVar(Out))
          if (P.SubComms.insert(VD).second)
            ++P.GrowthStamp;
      break;
    case Role::Collective: {
      // In-place / receive buffers hold the same value on every rank now.
      const Expr *Recv = ArgAt(Row->Args.Recv);
      if (!Recv)
        break;
      llvm::SmallVector<const VarDecl *, 4> Vars;
      collectVarRefs(Recv, Vars);
      for (size_t I = 0; I < Vars.size(); ++I) {
        auto A = P.Aliases.find(Vars[I]);
        if (A != P.Aliases.end())
          for (const VarDecl *V : A->second)
            if (!llvm::is_contained(Vars, V))
              Vars.push_back(V);
      }
      for (const VarDecl *VD : Vars) {
        if (!VD->hasLocalStorage())
          continue;
        Taint T;
        T.UniformContent = true;
        S[VD] = T;
      }
      break;
    }
    case Role::HostWaitOnDevice: {
      // Synchronous copies: the destination gets the source's contents.
      const Expr *Dst = ArgAt(Row->Args.Recv), *Src = ArgAt(Row->Args.Send);
      if (!Dst || !Src)
        break;
      const VarDecl *SrcVar = baseVar(Src);
      Taint T;
      if (SrcVar) {
        Taint ST = varTaint(SrcVar, S);
        if (ST.UniformContent && !ST.Vary) {
          T.UniformContent = true;
        } else {
          T = Taint::varying(VaryKind::LocalData, Call->getBeginLoc(),
                             "rank-local device data copied to the host");
          if (ST.Vary)
            T.Origin = ST.Origin;
        }
      }
      T.addControl(Ctl);
      if (const VarDecl *DV = baseVar(Dst)) {
        if (T.Vary && !Ctl.Vary)
          T.ContentOnly =
              !DV->getType()->isScalarType() || !isa<UnaryOperator>(strip(Dst));
        assignVar(DV, T, S, true);
      }
      break;
    }
    default:
      break;
    }
  }

  if (Callee && Callee->hasBody() && E.isUserCode(Callee)) {
    const FunctionDecl *Def = Callee->getDefinition();
    if (FunctionResult *CR = P.analyze(Def ? Def : Callee)) {
      // Copies: for a recursive call CR is this function's own result, and
      // noteFieldWrite below appends to it.
      const auto OutParams = CR->Summary.VaryingOutParams;
      const auto ParamFields = CR->ParamToField;
      for (auto &[Idx, Origin] : OutParams)
        if (const Expr *A = ArgAt(Idx)) {
          Taint T;
          T.Vary = true;
          T.Origin = Origin;
          assignLValue(A, T, S, false);
        }
      for (auto &[Field, Mask] : ParamFields) {
        Taint Joined;
        for (unsigned I = 0; I < Args.size() && I < 64; ++I)
          if (Mask & (uint64_t(1) << I))
            Joined.join(eval(Args[I], S));
        Joined.addControl(Ctl);
        noteFieldWrite(Field, Joined);
      }
    }
    return;
  }

  // A library method that mutates a local object (push_back, insert...):
  // the object now holds what was passed in.
  if (!Known && Receiver) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (MD && !MD->isConst() && !isa<CXXOperatorCallExpr>(Call)) {
      if (const VarDecl *Obj = baseVar(Receiver); Obj && isLocal(Obj)) {
        Taint T;
        T.UniformContent = true;
        bool AnyArg = false;
        for (const Expr *A : Args) {
          if (isa<LambdaExpr>(strip(A)))
            continue;
          AnyArg = true;
          Taint AT = eval(A, S);
          if (AT.Vary)
            AT.ContentOnly = true; // Holds the value; its length is uniform.
          if (!isTensorType(A->getType()))
            AT.UniformContent = true;
          T.join(AT);
          llvm::SmallVector<const VarDecl *, 2> Refs;
          collectVarRefs(A, Refs);
          for (const VarDecl *V : Refs)
            if (isTensorType(V->getType()))
              P.Aliases[Obj].push_back(V);
        }
        if (AnyArg) {
          T.Range.reset();
          T.addControl(Ctl);
          assignVar(Obj, T, S, false);
        }
      }
    }
  }
}

void UniformityAnalysis::noteFieldWrite(const FieldDecl *F, const Taint &T) {
  if (T.Vary) {
    Taint FT = T;
    FT.Params = 0;
    auto [It, New] = P.FieldVary.try_emplace(F, FT);
    if (New)
      ++P.GrowthStamp;
  }
  if (T.Params) {
    // The callers record the value their arguments give it.
    R.ParamToField.push_back({F, T.Params});
    return;
  }
  auto [It, New] = P.FieldRange.try_emplace(F, T.Range);
  if (New) {
    ++P.GrowthStamp;
    return;
  }
  if (!It->second)
    return;
  Taint Old, Now;
  Old.Range = It->second;
  Now.Range = T.Range;
  Old.join(Now);
  if (!(Old.Range == It->second)) {
    // Widen at once: a field that keeps changing (a counter) is unknown.
    It->second.reset();
    ++P.GrowthStamp;
  }
}

std::optional<Taint>
UniformityAnalysis::specializedReturn(const FunctionDecl *Callee,
                                      llvm::ArrayRef<const Expr *> Args,
                                      const VarState &S) {
  std::vector<Taint> Bound;
  std::string Key;
  bool Named = false;
  for (const Expr *A : Args) {
    Bound.push_back(eval(A, S));
    Named = Named || Bound.back().LauncherVar;
    // The same spelling can carry another value elsewhere (a variable
    // holding a name): the key includes what the analysis knows of it.
    Key += sourceText(A, E.context()) + "\x1f" +
           std::to_string(Bound.back().LauncherVar) +
           (Bound.back().Vary ? "v" : "u") + "\x1f";
  }
  if (!Named || P.SpecializationDepth > 2 ||
      Callee->getNumParams() != Args.size())
    return std::nullopt;
  auto It = P.Specialized.find({Callee, Key});
  if (It != P.Specialized.end())
    return It->second;
  FunctionResult Scratch;
  Scratch.Facts = FunctionFacts::build(Callee, E.context());
  if (!Scratch.Facts || Scratch.Facts->cfg().size() > 64)
    return std::nullopt; // Too big to re-analyze per call: the summary.
  P.Specialized[{Callee, Key}] = Taint(); // Recursion: uniform.
  P.computeDoomed(Callee, Scratch);
  if (!E.api().reportErrorPaths())
    Scratch.ErrorPaths = errorPathBlocks(E, *Scratch.Facts);
  ++P.SpecializationDepth;
  UniformityAnalysis U(E, Callee, Scratch);
  U.bindArguments(&Bound);
  U.run();
  --P.SpecializationDepth;
  Taint Ret = Scratch.ReturnTaint;
  Ret.Params = 0;
  P.Specialized[{Callee, Key}] = Ret;
  return Ret;
}

void UniformityAnalysis::transfer(const CFGElement &El, VarState &S,
                                  const Taint &Ctl) {
  if (auto Init = El.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *CI = Init->getInitializer();
    if (const FieldDecl *F = CI->getMember(); F && CI->getInit()) {
      Taint T = eval(CI->getInit(), S);
      T.addControl(Ctl);
      if (E.isUserCode(F))
        noteFieldWrite(F, T);
    }
    return;
  }
  auto CS = El.getAs<CFGStmt>();
  if (!CS)
    return;
  ControlVaries = Ctl.Vary;
  const Stmt *St = CS->getStmt();
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        Taint T;
        if (const Expr *Init = VD->getInit()) {
          T = eval(Init, S);
          llvm::SmallVector<const VarDecl *, 2> Refs;
          collectVarRefs(Init, Refs);
          for (const VarDecl *V : Refs)
            if (V != VD && isTensorType(V->getType()) &&
                !isTensorType(VD->getType()))
              P.Aliases[VD].push_back(V);
          // A copy of a sub-communicator is one too.
          if (const VarDecl *Src = baseVar(Init); Src && P.SubComms.count(Src))
            if (P.SubComms.insert(VD).second)
              ++P.GrowthStamp;
          if (const auto *IC = dyn_cast<CallExpr>(strip(Init)))
            if (E.apiRole(IC, Role::CommSplit))
              if (P.SubComms.insert(VD).second)
                ++P.GrowthStamp;
        } else {
          T.UniformContent = !isTensorType(VD->getType());
        }
        T.addControl(Ctl);
        assignVar(VD, T, S, true);
      }
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(St)) {
    if (B->isAssignmentOp()) {
      Taint T = eval(B->getRHS(), S);
      if (B->isCompoundAssignmentOp()) {
        T.join(eval(B->getLHS(), S));
        T.Range.reset();
      }
      T.addControl(Ctl);
      assignLValue(B->getLHS(), T, S, !B->isCompoundAssignmentOp());
      if (const auto *IC = dyn_cast<CallExpr>(strip(B->getRHS())))
        if (E.apiRole(IC, Role::CommSplit))
          if (const VarDecl *VD = baseVar(B->getLHS()))
            if (P.SubComms.insert(VD).second)
              ++P.GrowthStamp;
    }
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(St)) {
    if (U->isIncrementDecrementOp()) {
      Taint T = eval(U->getSubExpr(), S);
      T.Range.reset();
      T.addControl(Ctl);
      assignLValue(U->getSubExpr(), T, S, true);
    }
    return;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(St)) {
    if (OC->isAssignmentOp() && OC->getNumArgs() == 2) {
      Taint T = eval(OC->getArg(1), S);
      T.addControl(Ctl);
      assignLValue(OC->getArg(0), T, S, OC->getOperator() == OO_Equal);
      return;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(St)) {
    callEffects(Call, S, Ctl);
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(St)) {
    Taint T = eval(Ret->getRetValue(), S);
    T.addControl(Ctl);
    // The first return sets the value (its range too); later ones join.
    if (R.ReturnsSeen++ == 0)
      R.ReturnTaint = T;
    else
      R.ReturnTaint.join(T);
    return;
  }
}

Taint UniformityAnalysis::controlTaint(const CFGBlock *B,
                                       bool WithFailStopGuards) {
  Taint Ctl;
  Ctl.UniformContent = true;
  for (const CFGBlock *Dep : WithFailStopGuards
                                 ? R.Facts->allControlDependencies(B)
                                 : R.liveControlDependencies(B)) {
    auto It = R.BranchTaint.find(Dep);
    if (It != R.BranchTaint.end())
      Ctl.addControl(It->second);
  }
  return Ctl;
}

static VarState joinStates(const VarState &A, const VarState &B) {
  VarState Out = A;
  for (const auto &[VD, T] : B) {
    auto It = Out.find(VD);
    if (It == Out.end())
      Out.emplace(VD, T);
    else
      It->second.join(T);
  }
  return Out;
}

static bool sameState(const VarState &A, const VarState &B) {
  if (A.size() != B.size())
    return false;
  for (auto IA = A.begin(), IB = B.begin(); IA != A.end(); ++IA, ++IB)
    if (IA->first != IB->first || !IA->second.sameAs(IB->second))
      return false;
  return true;
}

void UniformityAnalysis::run() {
  CFG &G = R.Facts->cfg();
  const auto &RPO = R.Facts->reversePostOrder();
  for (int Outer = 0; Outer < 6; ++Outer) {
    R.In.clear();
    R.ReturnTaint = Taint();
    R.ReturnTaint.UniformContent = true;
    R.ReturnsSeen = 0;
    llvm::DenseMap<const CFGBlock *, VarState> Out;
    llvm::DenseMap<const CFGBlock *, Taint> Ctl;
    for (const CFGBlock *B : RPO)
      Ctl[B] = controlTaint(B);
    bool Changed = true;
    for (int Iter = 0; Changed && Iter < 50; ++Iter) {
      Changed = false;
      for (const CFGBlock *B : RPO) {
        VarState In;
        bool First = true;
        for (const CFGBlock *Pred : B->preds()) {
          if (!Pred)
            continue;
          auto It = Out.find(Pred);
          if (It == Out.end())
            continue;
          In = First ? It->second : joinStates(In, It->second);
          First = false;
        }
        R.In[B] = In;
        VarState S = In;
        for (const CFGElement &El : *B)
          transfer(El, S, Ctl[B]);
        auto It = Out.find(B);
        if (It == Out.end() || !sameState(It->second, S)) {
          Out[B] = std::move(S);
          Changed = true;
        }
      }
    }
    // Branch conditions at the end of their block.
    llvm::DenseMap<const CFGBlock *, Taint> NewBranch;
    for (const CFGBlock *B : RPO) {
      const Stmt *Cond = B->getTerminatorCondition(/*StripParens=*/true);
      if (!Cond || !isa<Expr>(Cond))
        continue;
      NewBranch[B] = eval(cast<Expr>(Cond), Out[B]);
      // A range-for runs once per element: the same number of times on
      // every rank when only the elements differ, not the length.
      if (const auto *FR =
              dyn_cast_or_null<CXXForRangeStmt>(B->getTerminatorStmt()))
        if (const Expr *Range = FR->getRangeInit()) {
          Taint RT = eval(Range, Out[B]);
          if (!RT.depends() || (RT.Vary && RT.ContentOnly && !RT.Params)) {
            Taint Same;
            Same.UniformContent = true;
            NewBranch[B] = Same;
          } else if (!RT.Vary && RT.Params) {
            // The trip count follows the length of what the callers pass:
            // ContentOnly on a parameter-only taint marks "shape only".
            Taint ByShape;
            ByShape.Params = RT.Params;
            ByShape.ContentOnly = true;
            NewBranch[B] = ByShape;
          }
        }
    }
    // Return values: replay once more to read them at their statements.
    R.ReturnTaint = Taint();
    R.ReturnTaint.UniformContent = true;
    R.ReturnsSeen = 0;
    R.AllPoints.clear();
    for (const CFGBlock *B : RPO) {
      VarState S = R.In[B];
      for (const CFGElement &El : *B)
        transfer(El, S, Ctl[B]);
      R.AllPoints = joinStates(R.AllPoints, S);
    }
    bool Stable = NewBranch.size() == R.BranchTaint.size();
    if (Stable)
      for (auto &[B, T] : NewBranch) {
        auto It = R.BranchTaint.find(B);
        if (It == R.BranchTaint.end() || !It->second.sameAs(T) ||
            It->second.Vary != T.Vary) {
          Stable = false;
          break;
        }
      }
    R.BranchTaint = std::move(NewBranch);
    if (Stable)
      break;
  }
  (void)G;
}

VarState UniformityAnalysis::stateBefore(const CFGBlock *B,
                                         const Stmt *Target) {
  VarState S = R.In.lookup(B);
  Taint Ctl = controlTaint(B);
  const ParentMap &PM = R.Facts->parents();
  for (const CFGElement &El : *B) {
    if (auto CS = El.getAs<CFGStmt>()) {
      const Stmt *St = CS->getStmt();
      // Stop at the element that is the target or contains it.
      for (const Stmt *Cur = Target; Cur; Cur = PM.getParent(Cur))
        if (Cur == St)
          return S;
    }
    transfer(El, S, Ctl);
  }
  return S;
}

//===----------------------------------------------------------------------===//
// Collecting functions and bindings
//===----------------------------------------------------------------------===//

namespace {
class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(Engine &E, Engine::Impl &P) : E(E), P(P) {}
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
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->getMember() && I->getInit())
        bind(I->getMember(), I->getInit());
    return true;
  }

  std::vector<const FunctionDecl *> Functions;

private:
  Engine &E;
  Engine::Impl &P;

  void bindLHS(const Expr *LHS, const Expr *RHS) {
    LHS = strip(LHS);
    if (const auto *DR = dyn_cast<DeclRefExpr>(LHS))
      bind(DR->getDecl(), RHS);
    else if (const auto *M = dyn_cast<MemberExpr>(LHS))
      bind(M->getMemberDecl(), RHS);
  }
  /// Remembers what a callable variable runs and what an object's dynamic
  /// class is.
  void bind(const ValueDecl *D, const Expr *Init) {
    const Expr *X = strip(Init);
    if (const auto *L = dyn_cast<LambdaExpr>(X)) {
      P.Bindings[D] = L->getCallOperator();
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(X);
        U && U->getOpcode() == UO_AddrOf)
      X = strip(U->getSubExpr());
    if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DR->getDecl())) {
        P.Bindings[D] = FD;
        return;
      }
      if (auto It = P.Bindings.find(DR->getDecl()); It != P.Bindings.end()) {
        P.Bindings[D] = It->second;
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
              (F->getName() == "make_shared" || F->getName() == "make_unique" ||
               F->getName() == "make_intrusive"))
            T = TA->get(0).getAsType();
    } else if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
      if (const auto *Src = dyn_cast<VarDecl>(DR->getDecl()))
        if (!Src->getType()->isReferenceType() &&
            !Src->getType()->isPointerType())
          T = Src->getType();
    }
    if (!T.isNull())
      if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
        P.DynTypes[VD] = RD;
  }
};
} // namespace

void Engine::Impl::collect() {
  Collector C(E, *this);
  for (Decl *D : E.Ctx.getTranslationUnitDecl()->decls())
    if (E.isUserCode(D))
      C.TraverseDecl(D);
  UserFunctions = std::move(C.Functions);
  // Globals initialized from rank sources.
  for (Decl *D : E.Ctx.getTranslationUnitDecl()->decls())
    if (auto *VD = dyn_cast<VarDecl>(D))
      if (E.isUserCode(VD) && VD->getInit()) {
        FunctionResult Dummy;
        UniformityAnalysis U(E, nullptr, Dummy);
        (void)U;
      }
}

const FunctionDecl *Engine::Impl::owningFunction(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  while (DC && !isa<FunctionDecl>(DC))
    DC = DC->getParent();
  return dyn_cast_or_null<FunctionDecl>(DC);
}

void Engine::Impl::prepare() {
  if (Prepared || Preparing)
    return;
  Preparing = true;
  collect();
  for (int Round = 0; Round < 4; ++Round) {
    unsigned Stamp = GrowthStamp;
    Results.clear();
    for (const FunctionDecl *FD : UserFunctions)
      analyze(FD);
    // Globals initialized from a rank source (static int r = get_rank()).
    for (Decl *D : E.Ctx.getTranslationUnitDecl()->decls())
      if (auto *VD = dyn_cast<VarDecl>(D))
        if (E.isUserCode(VD) && VD->getInit() && !GlobalVary.count(VD)) {
          FunctionResult Scratch;
          UniformityAnalysis U(E, nullptr, Scratch);
          Taint T = U.eval(VD->getInit(), {});
          if (T.Vary) {
            GlobalVary[VD] = T;
            ++GrowthStamp;
          }
        }
    if (Stamp == GrowthStamp)
      break;
  }
  Preparing = false;
  Prepared = true;
}

FunctionResult *Engine::Impl::analyze(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  auto It = Results.find(FD);
  if (It != Results.end())
    return It->second.get(); // Done, or in progress (recursion cut).
  auto &Slot = Results[FD];
  Slot = std::make_unique<FunctionResult>();
  FunctionResult *R = Slot.get();
  if (!E.isUserCode(FD))
    return R;
  R->Facts = FunctionFacts::build(FD, E.Ctx);
  if (!R->Facts)
    return R;
  computeDoomed(FD, *R);
  if (!E.Api.reportErrorPaths())
    R->ErrorPaths = errorPathBlocks(E, *R->Facts);
  UniformityAnalysis U(E, FD, *R);
  U.run();
  const CFGBlock *ExitBlock = &R->Facts->cfg().getExit();
  for (const CFGBlock *B : R->Facts->reversePostOrder())
    if (throwLeavesFunction(B, ExitBlock))
      R->ThrowTaint.addControl(U.controlTaint(B, true));

  FunctionSummary &Sum = R->Summary;
  if (R->ReturnTaint.Vary)
    Sum.ReturnVaries = R->ReturnTaint.Origin;
  for (unsigned I = 0; I < FD->getNumParams() && I < 64; ++I)
    if (R->ReturnTaint.Params & (uint64_t(1) << I))
      Sum.ParamsToReturn.push_back(I);
  // Out-parameters written with rank-varying values.
  const CFGBlock &Exit = R->Facts->cfg().getExit();
  VarState AtExit = R->In.lookup(&Exit);
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *PD = FD->getParamDecl(I);
    QualType T = PD->getType();
    if (!T->isPointerType() && !T->isReferenceType())
      continue;
    auto A = AtExit.find(PD);
    if (A != AtExit.end() && A->second.Vary)
      Sum.VaryingOutParams.push_back({I, A->second.Origin});
  }
  // No-return: the exit is unreachable from the entry except through
  // fail-stop blocks.
  R->Done = true;
  return R;
}

bool Engine::Impl::neverReturns(const FunctionDecl *FD) {
  if (!FD || FD->isMain())
    return false;
  if (FD->isNoReturn() || E.Api.has(FD, Role::FailStop))
    return true;
  if (!FD->hasBody() || !E.isUserCode(FD))
    return false;
  FunctionResult *R = analyze(FD);
  if (!R || !R->Facts)
    return false;
  computeDoomed(FD, *R);
  if (R->DoomedState != FunctionResult::DoomedDone)
    return false; // Recursion: assume it returns.
  return R->Doomed.count(&R->Facts->cfg().getEntry()) > 0;
}

bool Engine::Impl::failStopCall(const CallExpr *Call) {
  return neverReturns(E.resolveCallee(Call));
}

/// Least fixpoint: a block is doomed when it ends the job itself, or when
/// it has successors and all of them are doomed (an endless loop is not).
void Engine::Impl::computeDoomed(const FunctionDecl *FD, FunctionResult &R) {
  if (R.DoomedState != FunctionResult::DoomedNotStarted || !R.Facts)
    return;
  R.DoomedState = FunctionResult::DoomedInProgress;
  CFG &G = R.Facts->cfg();
  const CFGBlock *Exit = &G.getExit();
  llvm::SmallPtrSet<const CFGBlock *, 8> Doomed;
  for (const CFGBlock *B : G) {
    if (B == Exit)
      continue;
    bool Stops = B->hasNoReturnElement();
    for (const CFGElement &El : *B) {
      if (Stops)
        break;
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          Stops = failStopCall(Call);
    }
    // A throw that leaves the function: the job ends unless a caller
    // catches it (callers check that through ThrowTaint).
    Stops = Stops || throwLeavesFunction(B, Exit);
    if (Stops)
      Doomed.insert(B);
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : G) {
      if (B == Exit || Doomed.count(B))
        continue;
      bool Any = false, All = true;
      for (const CFGBlock *Succ : B->succs())
        if (Succ) {
          Any = true;
          All = All && Doomed.count(Succ);
        }
      if (Any && All) {
        Doomed.insert(B);
        Changed = true;
      }
    }
  }
  (void)FD;
  R.Doomed = std::move(Doomed);
  R.DoomedState = FunctionResult::DoomedDone;
}

//===----------------------------------------------------------------------===//
// Engine
//===----------------------------------------------------------------------===//

Engine::Engine(ASTContext &Ctx, const api::ApiIndex &Api)
    : Ctx(Ctx), Api(Api), P(std::make_unique<Impl>(*this)) {}
Engine::~Engine() = default;

bool Engine::isUserCode(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  return Loc.isValid() && !SM.isInSystemHeader(Loc);
}

bool Engine::isUserCode(const Decl *D) const {
  // Declarations in the APIs' own namespaces (c10d, torch, at, std...) are
  // library code even when their headers are not system headers (a vendored
  // copy, the project's test declarations).
  return D && isUserCode(D->getLocation()) &&
         !isLibraryDecl(const_cast<Engine &>(*this), D);
}

const std::vector<const FunctionDecl *> &Engine::userFunctions() {
  P->prepare();
  return P->UserFunctions;
}

const FunctionDecl *Engine::resolveCallee(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const Expr *CalleeExpr = strip(Call->getCallee());
  // Calls through std::function objects or function pointers.
  const ValueDecl *Holder = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
      OC && OC->getOperator() == OO_Call && OC->getNumArgs() >= 1) {
    const Expr *Obj = strip(OC->getArg(0));
    if (const auto *DR = dyn_cast<DeclRefExpr>(Obj))
      Holder = DR->getDecl();
    else if (const auto *M = dyn_cast<MemberExpr>(Obj))
      Holder = M->getMemberDecl();
  } else if (!FD) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(CalleeExpr))
      Holder = DR->getDecl();
    else if (const auto *M = dyn_cast<MemberExpr>(CalleeExpr))
      Holder = M->getMemberDecl();
    else if (const auto *U = dyn_cast<UnaryOperator>(CalleeExpr))
      if (const auto *DR = dyn_cast<DeclRefExpr>(strip(U->getSubExpr())))
        Holder = DR->getDecl();
  }
  if (Holder) {
    auto It = P->Bindings.find(Holder);
    if (It != P->Bindings.end())
      return It->second;
  }
  // Virtual calls: use the dynamic class when the object's is known.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (MD && MD->isVirtual()) {
      if (const VarDecl *Obj = baseVar(MC->getImplicitObjectArgument())) {
        auto It = P->DynTypes.find(Obj);
        if (It != P->DynTypes.end())
          if (const CXXMethodDecl *Over =
                  MD->getCorrespondingMethodInClass(It->second))
            return Over;
      }
    }
  }
  return FD;
}

const api::ApiEntry *Engine::apiRole(const CallExpr *Call, api::Role R) {
  return Api.find(resolveCallee(Call), R);
}

const FunctionDecl *Engine::enclosingFunction(const Stmt *S) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    if (const auto *FD = Node.get<FunctionDecl>())
      return FD;
    if (const auto *L = Node.get<LambdaExpr>())
      return L->getCallOperator();
  }
  return nullptr;
}

FunctionFacts *Engine::facts(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  P->prepare();
  if (FunctionResult *R = P->analyze(FD); R && R->Facts)
    return R->Facts.get();
  auto &Slot = P->FactsCache[FD];
  if (!Slot)
    Slot = FunctionFacts::build(FD, Ctx);
  return Slot.get();
}

const Stmt *Engine::parentStmt(const Stmt *S) {
  auto Parents = Ctx.getParents(*S);
  if (Parents.empty())
    return nullptr;
  return Parents[0].get<Stmt>();
}

std::vector<const Stmt *> Engine::controllingBranches(const Stmt *S) {
  std::vector<const Stmt *> Out;
  const FunctionDecl *FD = enclosingFunction(S);
  FunctionFacts *F = facts(FD);
  if (!F)
    return Out;
  for (const CFGBlock *B : F->allControlDependencies(F->blockOf(S)))
    if (const Stmt *T = B->getTerminatorStmt())
      Out.push_back(T);
  return Out;
}

/// The abstract value of X where it stands in its function.
static std::optional<Taint> taintAt(Engine &E, Engine::Impl &P, const Expr *X) {
  const FunctionDecl *FD = E.enclosingFunction(X);
  if (!FD)
    return std::nullopt;
  P.prepare();
  FunctionResult *R = P.analyze(FD);
  if (!R || !R->Facts)
    return std::nullopt;
  const CFGBlock *B = R->Facts->blockOf(X);
  if (!B)
    return std::nullopt;
  UniformityAnalysis U(E, FD, *R);
  VarState S = U.stateBefore(B, X);
  return U.eval(X, S);
}

UniformityAnswer Engine::uniformity(const Expr *X) {
  UniformityAnswer A;
  std::optional<Taint> T = taintAt(*this, *P, X);
  if (T && T->Vary) {
    A.Uniform = false;
    A.Origin = T->Origin;
  }
  return A;
}

std::optional<VaryOrigin> Engine::shapeVaries(const Expr *X) {
  std::optional<Taint> T = taintAt(*this, *P, X);
  if (T && T->Vary && !T->ContentOnly)
    return T->Origin;
  return std::nullopt;
}

UniformityAnswer Engine::branchUniformity(const Stmt *Terminator) {
  UniformityAnswer A;
  const FunctionDecl *FD = enclosingFunction(Terminator);
  if (!FD)
    return A;
  P->prepare();
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->Facts)
    return A;
  for (const CFGBlock *B : R->Facts->reversePostOrder())
    if (B->getTerminatorStmt() == Terminator) {
      auto It = R->BranchTaint.find(B);
      if (It != R->BranchTaint.end() && It->second.Vary) {
        A.Uniform = false;
        A.Origin = It->second.Origin;
      }
      break;
    }
  return A;
}

} // namespace distlint

//===----------------------------------------------------------------------===//
// Collectives, sequences and divergence
//===----------------------------------------------------------------------===//

namespace distlint {

namespace {
std::string sourceText(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return "";
  E = strip(E);
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = SM.getExpansionRange(E->getSourceRange());
  std::string Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
  std::string Out;
  for (char C : Text)
    if (!isspace(static_cast<unsigned char>(C)))
      Out += C;
  llvm::StringRef R(Out);
  R.consume_front("this->");
  R.consume_front("*");
  return R.str();
}

const char *shortName(const char *Qualified) {
  llvm::StringRef N(Qualified);
  size_t Pos = N.rfind("::");
  return Pos == llvm::StringRef::npos ? Qualified : Qualified + Pos + 2;
}

bool isLoopStmt(const Stmt *S) {
  return S && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}
} // namespace

/// The communicator a direct API collective runs on.
static const Expr *commExpr(const CallExpr *Call, const api::ApiEntry *Entry) {
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  if (Entry->Args.Comm >= 0 && Entry->Args.Comm < (int)Args.size())
    return Args[Entry->Args.Comm];
  return nullptr;
}

class SequenceBuilder {
public:
  SequenceBuilder(Engine &E, FunctionFacts &F) : E(E), F(F) {}
  /// Collective tokens from B until Stop; nullopt when every path ends the
  /// job (fail-stop).
  std::optional<std::string> walk(const CFGBlock *B, const CFGBlock *Stop);
  llvm::SmallPtrSet<const CFGBlock *, 32> OnPath;

private:
  Engine &E;
  FunctionFacts &F;
  int Budget = 4000;
  bool failStop(const CallExpr *Call);
};

bool SequenceBuilder::failStop(const CallExpr *Call) {
  const FunctionDecl *FD = E.resolveCallee(Call);
  if (!FD)
    return false;
  if (FD->isNoReturn() || E.api().has(FD, api::Role::FailStop))
    return true;
  if (FD->hasBody() && E.isUserCode(FD))
    return E.summary(FD).NoReturn;
  return false;
}

std::optional<std::string> SequenceBuilder::walk(const CFGBlock *B,
                                                 const CFGBlock *Stop) {
  std::string Out;
  llvm::SmallVector<const CFGBlock *, 16> Added;
  auto Cleanup = [&] {
    for (const CFGBlock *A : Added)
      OnPath.erase(A);
  };
  const CFGBlock *Exit = &F.cfg().getExit();
  while (B && B != Stop) {
    if (--Budget < 0 || OnPath.count(B))
      break;
    OnPath.insert(B);
    Added.push_back(B);
    if (B->hasNoReturnElement()) {
      Cleanup();
      return std::nullopt;
    }
    for (const CFGElement &El : *B) {
      auto CS = El.getAs<CFGStmt>();
      if (!CS)
        continue;
      const auto *Call = dyn_cast<CallExpr>(CS->getStmt());
      if (!Call)
        continue;
      if (failStop(Call)) {
        Cleanup();
        return std::nullopt;
      }
      Out += E.collectiveToken(Call);
    }
    if (B == Exit)
      break;
    // A throw that leaves the function ends the job (or is someone
    // else's divergence); inside a try it is an ordinary branch.
    if (throwLeavesFunction(B, Exit)) {
      Cleanup();
      return std::nullopt;
    }
    llvm::SmallVector<const CFGBlock *, 4> Succs;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && !llvm::is_contained(Succs, Succ))
        Succs.push_back(Succ);
    if (Succs.empty())
      break;
    if (Succs.size() == 1) {
      B = Succs.front();
      continue;
    }
    const CFGBlock *Join = F.immediatePostDominator(B);
    std::vector<std::string> Alts;
    for (const CFGBlock *Succ : Succs)
      if (auto A = walk(Succ, Join))
        if (!llvm::is_contained(Alts, *A))
          Alts.push_back(*A);
    if (Alts.empty()) {
      Cleanup();
      return std::nullopt;
    }
    if (Alts.size() == 1) {
      Out += Alts.front();
    } else {
      Out += "{";
      for (size_t I = 0; I < Alts.size(); ++I)
        Out += (I ? "|" : "") + Alts[I];
      Out += "}";
    }
    B = Join;
  }
  Cleanup();
  return Out;
}

std::string Engine::collectiveToken(const CallExpr *Call) {
  auto Site = collectiveAt(Call);
  if (!Site)
    return "";
  if (Site->Entry) {
    if (isOnSubCommunicator(Call))
      return "";
    std::string Token = shortName(Site->Entry->Name);
    Token += "@" + sourceText(commExpr(Call, Site->Entry), Ctx);
    int Root = Site->Entry->Args.Root;
    if (Root >= 0 && Root < (int)Call->getNumArgs() &&
        !isa<CXXOperatorCallExpr>(Call))
      Token += "/root=" + sourceText(Call->getArg(Root), Ctx);
    return Token + ";";
  }
  if (Site->Callee)
    return summary(Site->Callee).Sequence; // Inlined: wrappers compare equal.
  return "";
}

bool Engine::isOnSubCommunicator(const CallExpr *Call) {
  const api::ApiEntry *Entry = apiRole(Call, api::Role::Collective);
  if (!Entry)
    return false;
  P->prepare();
  const Expr *Comm = commExpr(Call, Entry);
  if (!Comm)
    return false;
  if (const VarDecl *VD = baseVar(Comm))
    if (P->SubComms.count(VD))
      return true;
  if (const auto *Inner = dyn_cast<CallExpr>(strip(Comm)))
    return apiRole(Inner, api::Role::CommSplit) != nullptr;
  return false;
}

std::optional<CollectiveSite> Engine::collectiveAt(const CallExpr *Call) {
  const FunctionDecl *FD = resolveCallee(Call);
  if (!FD)
    return std::nullopt;
  if (const api::ApiEntry *E = Api.find(FD, api::Role::Collective))
    if (!Api.has(FD, api::Role::PointToPoint))
      return CollectiveSite{Call, E, nullptr, Call};
  if (FD->hasBody() && isUserCode(FD)) {
    const FunctionDecl *Def = FD->getDefinition();
    const FunctionSummary &S = summary(Def ? Def : FD);
    if (S.IssuesCollective)
      return CollectiveSite{Call, nullptr, Def ? Def : FD, S.FirstCollective};
  }
  return std::nullopt;
}

std::string Engine::sequenceOf(const FunctionDecl *FD) {
  return summary(FD).Sequence;
}

void Engine::fillCollectiveFacts(const FunctionDecl *FD) {
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->Facts || R->CollectiveState != FunctionResult::NotStarted)
    return;
  R->CollectiveState = FunctionResult::InProgress;
  FunctionSummary &Sum = R->Summary;
  for (const CFGBlock *B : R->Facts->reversePostOrder())
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          if (auto Site = collectiveAt(Call)) {
            if (Site->Entry && isOnSubCommunicator(Call))
              continue;
            if (!Sum.IssuesCollective) {
              Sum.IssuesCollective = true;
              Sum.FirstCollective = Site->InnerCollective;
            }
          }
  SequenceBuilder SB(*this, *R->Facts);
  auto Seq = SB.walk(&R->Facts->cfg().getEntry(), nullptr);
  Sum.NoReturn = !Seq.has_value() && !FD->isMain();
  Sum.Sequence = Seq ? *Seq : "";
  R->CollectiveState = FunctionResult::Finished;
}

const FunctionSummary &Engine::summary(const FunctionDecl *FD) {
  static const FunctionSummary Empty;
  if (!FD)
    return Empty;
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  P->prepare();
  FunctionResult *R = P->analyze(FD);
  if (!R)
    return Empty;
  fillCollectiveFacts(FD);
  return R->Summary;
}

std::vector<CollectiveSite> Engine::collectiveSites(const FunctionDecl *FD) {
  std::vector<CollectiveSite> Out;
  FunctionResult *R = (P->prepare(), P->analyze(FD));
  if (!R || !R->Facts)
    return Out;
  llvm::SmallPtrSet<const CallExpr *, 16> Seen;
  for (const CFGBlock *B : R->Facts->reversePostOrder())
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          if (Seen.insert(Call).second)
            if (auto Site = collectiveAt(Call))
              if (!(Site->Entry && isOnSubCommunicator(Call)))
                Out.push_back(*Site);
  std::sort(Out.begin(), Out.end(),
            [](const CollectiveSite &A, const CollectiveSite &B) {
              return A.Call->getBeginLoc() < B.Call->getBeginLoc();
            });
  return Out;
}

static size_t countOccurrences(llvm::StringRef Haystack,
                               llvm::StringRef Needle) {
  size_t N = 0;
  for (size_t Pos = Haystack.find(Needle); Pos != llvm::StringRef::npos;
       Pos = Haystack.find(Needle, Pos + Needle.size()))
    ++N;
  return N;
}

bool Engine::armsDiffer(const FunctionDecl *FD, const CFGBlock *Branch,
                        const CallExpr *Collective) {
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->Facts)
    return false;
  auto It = R->Arms.find(Branch);
  if (It == R->Arms.end())
    It = R->Arms.try_emplace(Branch, computeArms(FD, Branch)).first;
  const std::vector<std::string> &Alts = It->second;
  if (Alts.size() < 2)
    return false;
  // The arms differ; this collective is part of the difference only if the
  // arms issue it a different number of times (matched broadcasts in both
  // arms are fine even when one arm adds a barrier).
  std::string Token = collectiveToken(Collective);
  if (Token.empty())
    return true;
  size_t First = countOccurrences(Alts.front(), Token);
  for (const std::string &A : Alts)
    if (countOccurrences(A, Token) != First)
      return true;
  return false;
}

std::vector<std::string> Engine::computeArms(const FunctionDecl *FD,
                                             const CFGBlock *Branch) {
  FunctionResult *R = P->analyze(FD);
  SequenceBuilder SB(*this, *R->Facts);
  SB.OnPath.insert(Branch);
  const CFGBlock *Join = R->Facts->immediatePostDominator(Branch);
  std::vector<std::string> Alts;
  for (const CFGBlock *Succ : Branch->succs())
    if (Succ)
      if (auto A = SB.walk(Succ, Join))
        if (!llvm::is_contained(Alts, *A))
          Alts.push_back(*A);
  return Alts;
}

/// Call sites of FD in user code (for parameter-carried divergence).
std::vector<const CallExpr *> Engine::callersOf(const FunctionDecl *FD) {
  P->prepare();
  if (!CallSitesBuilt) {
    CallSitesBuilt = true;
    for (const FunctionDecl *F : P->UserFunctions) {
      FunctionResult *R = P->analyze(F);
      if (!R || !R->Facts)
        continue;
      for (const CFGBlock *B : R->Facts->reversePostOrder())
        for (const CFGElement &El : *B)
          if (auto CS = El.getAs<CFGStmt>())
            if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
              if (const FunctionDecl *Callee = resolveCallee(Call)) {
                const FunctionDecl *Def = Callee->getDefinition();
                CallSites[Def ? Def : Callee].push_back(Call);
              }
    }
  }
  auto It = CallSites.find(FD);
  return It == CallSites.end() ? std::vector<const CallExpr *>{} : It->second;
}

/// Does parameter set Mask of FD receive a rank-varying argument at some
/// call site? Follows parameters through up to Depth callers.
std::optional<std::pair<VaryOrigin, const CallExpr *>>
Engine::paramVaries(const FunctionDecl *FD, uint64_t Mask, int Depth,
                    bool ShapeOnly) {
  if (Depth > 3)
    return std::nullopt;
  for (const CallExpr *Call : callersOf(FD)) {
    const FunctionDecl *Caller = enclosingFunction(Call);
    FunctionResult *R = Caller ? P->analyze(Caller) : nullptr;
    if (!R || !R->Facts)
      continue;
    const CFGBlock *B = R->Facts->blockOf(Call);
    if (!B)
      continue;
    UniformityAnalysis U(*this, Caller, *R);
    VarState S = U.stateBefore(B, Call);
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) &&
                             Call->getNumArgs() > 0
                         ? 1
                         : 0;
    uint64_t CallerMask = 0;
    for (unsigned I = 0; I + Shift < Call->getNumArgs() && I < 64; ++I) {
      if (!(Mask & (uint64_t(1) << I)))
        continue;
      // Only the argument's value counts: whether the call itself is
      // reached by every rank is the caller's own divergence, reported there.
      Taint T = U.eval(Call->getArg(I + Shift), S);
      if (T.Vary && !(ShapeOnly && T.ContentOnly))
        return std::make_pair(T.Origin, Call);
      CallerMask |= T.Params;
    }
    if (CallerMask)
      if (auto Found = paramVaries(Caller, CallerMask, Depth + 1, ShapeOnly))
        return std::make_pair(Found->first, Call);
  }
  return std::nullopt;
}

std::optional<Engine::Divergence>
Engine::divergenceAt(const CallExpr *Collective) {
  const FunctionDecl *FD = enclosingFunction(Collective);
  if (!FD)
    return std::nullopt;
  P->prepare();
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->Facts)
    return std::nullopt;
  const CFGBlock *B = R->Facts->blockOf(Collective);
  if (!B)
    return std::nullopt;
  std::optional<Divergence> ByParam;
  // Branches whose other arms only end the job (`if (err) exit(1);`) do not
  // make later collectives divergent. (A copy: the cache may grow below.)
  const std::vector<const CFGBlock *> Deps = R->liveControlDependencies(B);
  for (const CFGBlock *Dep : Deps) {
    auto It = R->BranchTaint.find(Dep);
    if (It == R->BranchTaint.end() || !It->second.depends())
      continue;
    if (!armsDiffer(FD, Dep, Collective))
      continue;
    Divergence D;
    D.Branch = Dep->getTerminatorStmt();
    D.Condition = dyn_cast_or_null<Expr>(
        const_cast<CFGBlock *>(Dep)->getTerminatorCondition(true));
    D.IsLoop = isLoopStmt(D.Branch);
    if (It->second.Vary) {
      D.Origin = It->second.Origin;
      return D;
    }
    if (!ByParam)
      if (auto Found = paramVaries(FD, It->second.Params, 0,
                                   /*ShapeOnly=*/It->second.ContentOnly)) {
        D.Origin = Found->first;
        D.PassedAt = Found->second;
        ByParam = D;
      }
  }
  if (ByParam)
    return ByParam;
  return thrownPast(Collective);
}

/// A call earlier in the same try block may throw on some ranks only: the
/// catch handler then skips this collective on those ranks.
std::optional<Engine::Divergence>
Engine::thrownPast(const CallExpr *Collective) {
  const CXXTryStmt *Try = nullptr;
  for (const Stmt *Cur = parentStmt(Collective); Cur; Cur = parentStmt(Cur))
    if ((Try = dyn_cast<CXXTryStmt>(Cur)))
      break;
  if (!Try)
    return std::nullopt;
  std::vector<const CallExpr *> Calls;
  std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (C->getBeginLoc() < Collective->getBeginLoc())
        Calls.push_back(C);
    for (const Stmt *Child : S->children())
      Collect(Child);
  };
  Collect(Try->getTryBlock());
  for (const CallExpr *Call : Calls) {
    const FunctionDecl *Callee = resolveCallee(Call);
    if (!Callee || !Callee->hasBody() || !isUserCode(Callee))
      continue;
    FunctionResult *CR = P->analyze(Callee->getDefinition());
    if (!CR || !CR->ThrowTaint.depends())
      continue;
    Divergence D;
    D.Branch = Call;
    if (CR->ThrowTaint.Vary) {
      D.Origin = CR->ThrowTaint.Origin;
      return D;
    }
    for (unsigned I = 0; I < Call->getNumArgs() && I < 64; ++I)
      if (CR->ThrowTaint.Params & (uint64_t(1) << I)) {
        UniformityAnswer A = uniformity(Call->getArg(I));
        if (!A.Uniform && A.Origin) {
          D.Origin = *A.Origin;
          D.PassedAt = Call;
          return D;
        }
      }
  }
  return std::nullopt;
}

std::vector<Engine::ArgumentMismatch>
Engine::mismatchedArguments(const CallExpr *Collective) {
  std::vector<ArgumentMismatch> Out;
  const api::ApiEntry *Entry = apiRole(Collective, api::Role::Collective);
  if (!Entry || isa<CXXOperatorCallExpr>(Collective))
    return Out;
  std::pair<const char *, int> Roles[] = {{"count", Entry->Args.Count},
                                          {"root", Entry->Args.Root},
                                          {"reduction op", Entry->Args.Op},
                                          {"datatype", Entry->Args.DType},
                                          {"options", Entry->Args.Options}};
  for (auto [Name, Idx] : Roles) {
    if (Idx < 0 || Idx >= (int)Collective->getNumArgs())
      continue;
    const Expr *Arg = Collective->getArg(Idx);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    UniformityAnswer A = uniformity(Arg);
    if (!A.Uniform && A.Origin)
      Out.push_back({Name, Arg, *A.Origin});
  }
  // Tensors (c10d): the shapes each rank contributes must agree.
  int Send = Entry->Args.Send;
  if (Send >= 0 && Send < (int)Collective->getNumArgs() &&
      isTensorLike(Collective->getArg(Send)->getType()))
    if (auto Origin = shapeVaries(Collective->getArg(Send)))
      Out.push_back({"tensor shape", Collective->getArg(Send), *Origin});
  return Out;
}

} // namespace distlint
