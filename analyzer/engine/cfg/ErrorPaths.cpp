//===- ErrorPaths.cpp -----------------------------------------------------===//
#include "engine/cfg/ErrorPaths.h"
#include "engine/Engine.h"
#include "engine/EngineCache.h"
#include "engine/ast/AstHelpers.h"
#include "engine/cfg/FixedConditions.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace distlint {

namespace {

enum class StatusKind : uint8_t { None, Code, Pointer, Flag };

/// Does S contain a call (other than through builtin operators)?
bool containsCall(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CallExpr, CXXConstructExpr>(S))
    return true;
  return llvm::any_of(S->children(), containsCall);
}

/// A const method that only reads its object's state (`bool is_chief()
/// const { return rank_ == 0; }`): what it answers is data, not whether an
/// operation failed.
bool readsStateOnly(const FunctionDecl *Callee) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
  const FunctionDecl *Def = MD ? MD->getDefinition() : nullptr;
  const auto *Body =
      Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body || !MD->isConst() || Body->size() != 1)
    return false;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret && Ret->getRetValue() && !containsCall(Ret->getRetValue());
}

/// Calls whose result is data the tables describe (a parsed number, the
/// rank, a size, a tensor value), or a method's reading of its object's
/// state: not a status.
bool returnsData(Engine &En, const CallExpr *Call) {
  using api::Role;
  const FunctionDecl *Callee = En.resolveCallee(Call);
  if (readsStateOnly(Callee))
    return true;
  // A project helper that computes the rank (`int r = get_rank();`).
  if (Callee && Callee->hasBody() &&
      (En.functionReaches(Callee, Role::RankSource) ||
       En.functionReaches(Callee, Role::EnvRead)))
    return true;
  for (const api::ApiEntry *Row : En.api().lookup(Callee))
    switch (Row->TheRole) {
    case Role::Parse:
    case Role::RankSource:
    case Role::WorldSizeSource:
    case Role::EnvRead:
    case Role::UniformValue:
    case Role::ShapeQuery:
    case Role::TensorRead:
    case Role::SizeArgument:
      return true;
    default:
      break;
    }
  return false;
}

/// A call's status: its result, `*call()` (errno), a local variable
/// initialized from one of those, or a field just assigned one. Codes are
/// signed integers and enums; unsigned results are sizes and counts, not
/// statuses.
StatusKind statusKind(Engine &En, const Expr *E) {
  const Expr *Value = strip(E);
  if (const auto *DR = dyn_cast<DeclRefExpr>(Value)) {
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit())
      return StatusKind::None;
    Value = strip(VD->getInit());
  }
  if (isa<MemberExpr, ArraySubscriptExpr>(Value))
    if (const Expr *Assigned = assignedJustBefore(En.context(), Value))
      Value = strip(Assigned);
  if (const auto *U = dyn_cast<UnaryOperator>(Value);
      U && U->getOpcode() == UO_Deref)
    Value = strip(U->getSubExpr());
  const auto *Call = dyn_cast<CallExpr>(Value);
  if (!Call || returnsData(En, Call))
    return StatusKind::None;
  QualType T = E->IgnoreParenImpCasts()->getType().getCanonicalType();
  if (T->isPointerType() || T->isNullPtrType())
    return StatusKind::Pointer;
  if (T->isBooleanType())
    return StatusKind::Flag;
  if (T->isEnumeralType() || T->isSignedIntegerType())
    return StatusKind::Code;
  return StatusKind::None;
}

std::optional<int64_t> constantValue(const Expr *E, ASTContext &Ctx) {
  if (E->isValueDependent())
    return std::nullopt;
  if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return 0;
  if (auto V = E->getIntegerConstantExpr(Ctx); V && V->isRepresentableByInt64())
    return V->getExtValue();
  return std::nullopt;
}

StatusFailure flip(StatusFailure F) {
  switch (F) {
  case StatusFailure::WhenTrue:
    return StatusFailure::WhenFalse;
  case StatusFailure::WhenFalse:
    return StatusFailure::WhenTrue;
  default:
    return F;
  }
}

/// `status OP constant`.
StatusFailure comparison(BinaryOperatorKind Op, StatusKind Kind, int64_t K) {
  bool ZeroIsSuccess = Kind == StatusKind::Code;
  switch (Op) {
  case BO_EQ:
    // == success (0 for codes) is the good outcome; == an error code, or
    // == null / false, is the failure.
    return (K == 0) == ZeroIsSuccess ? StatusFailure::WhenFalse
                                     : StatusFailure::WhenTrue;
  case BO_NE:
    return flip(comparison(BO_EQ, Kind, K));
  case BO_LT:
    return Kind == StatusKind::Code && K == 0 ? StatusFailure::WhenTrue
                                              : StatusFailure::NotAStatusTest;
  case BO_GE:
    return Kind == StatusKind::Code && K == 0 ? StatusFailure::WhenFalse
                                              : StatusFailure::NotAStatusTest;
  default:
    return StatusFailure::NotAStatusTest;
  }
}

BinaryOperatorKind mirrored(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT:
    return BO_GT;
  case BO_GT:
    return BO_LT;
  case BO_LE:
    return BO_GE;
  case BO_GE:
    return BO_LE;
  default:
    return Op;
  }
}

/// Does a call issue a collective, directly or through user bodies?
/// (A cheap syntactic scan: the error-path test runs inside the uniformity
/// analysis, before summaries exist.)
struct CollectiveScan : EngineExtension {
  explicit CollectiveScan(Engine &) {}
  llvm::DenseMap<const FunctionDecl *, bool> Memo;
};

bool stmtIssuesCollective(Engine &E, const Stmt *S, int Depth);

bool functionIssuesCollective(Engine &E, const FunctionDecl *FD, int Depth) {
  if (!FD)
    return false;
  if (E.api().has(FD, api::Role::Collective))
    return true;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody() || Depth > 4)
    return false;
  auto &Memo = engineExtension<CollectiveScan>(E).Memo;
  auto [It, New] = Memo.try_emplace(Def, false); // Recursion: none.
  if (!New)
    return It->second;
  bool Issues = stmtIssuesCollective(E, Def->getBody(), Depth + 1);
  engineExtension<CollectiveScan>(E).Memo[Def] = Issues;
  return Issues;
}

bool stmtIssuesCollective(Engine &E, const Stmt *S, int Depth) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (functionIssuesCollective(E, E.resolveCallee(Call), Depth))
      return true;
  for (const Stmt *Child : S->children())
    if (stmtIssuesCollective(E, Child, Depth))
      return true;
  return false;
}

bool hasReturn(const CFGBlock *B) {
  for (const CFGElement &El : *B)
    if (auto CS = El.getAs<CFGStmt>())
      if (isa<ReturnStmt>(CS->getStmt()))
        return true;
  return false;
}

/// The failure arm from First: straight-line blocks ending in a return,
/// goto or break, without collectives. Empty when it is not one.
llvm::SmallVector<const CFGBlock *, 4> exitArm(Engine &E, const CFGBlock *First,
                                               const CFGBlock *Exit) {
  llvm::SmallVector<const CFGBlock *, 4> Arm;
  for (const CFGBlock *B = First; B && B != Exit && Arm.size() < 8;) {
    Arm.push_back(B);
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (stmtIssuesCollective(E, CS->getStmt(), 0))
          return {};
    const Stmt *Term = B->getTerminatorStmt();
    if (hasReturn(B) || isa_and_nonnull<GotoStmt, BreakStmt>(Term))
      return Arm;
    if (B->succ_size() != 1 || Term)
      return {};
    B = *B->succ_begin();
  }
  return {};
}

struct ErrorPathOptions : EngineExtension {
  explicit ErrorPathOptions(Engine &) {}
  bool Report = false;
};

} // namespace

void setReportErrorPaths(Engine &E, bool Report) {
  engineExtension<ErrorPathOptions>(E).Report = Report;
}

bool reportErrorPaths(Engine &E) {
  return engineExtension<ErrorPathOptions>(E).Report;
}

const Expr *assignedJustBefore(ASTContext &Ctx, const Expr *Target) {
  DynTypedNode Node = DynTypedNode::create(*Target);
  const IfStmt *If = nullptr;
  for (int Depth = 0; Depth < 8 && !If; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    If = Node.get<IfStmt>();
  }
  auto Parents = If ? Ctx.getParents(*If) : DynTypedNodeList(DynTypedNode());
  const auto *Block =
      If && !Parents.empty() ? Parents[0].get<CompoundStmt>() : nullptr;
  if (!Block)
    return nullptr;
  const Stmt *Previous = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == If)
      break;
    Previous = S;
  }
  const auto *Assign = dyn_cast_or_null<BinaryOperator>(
      Previous && isa<Expr>(Previous)
          ? cast<Expr>(Previous)->IgnoreParenImpCasts()
          : nullptr);
  return Assign && Assign->getOpcode() == BO_Assign &&
                 sameExpr(Assign->getLHS(), Target)
             ? Assign->getRHS()
             : nullptr;
}

StatusFailure statusFailureOutcome(Engine &En, const Expr *Cond) {
  ASTContext &Ctx = En.context();
  if (!Cond)
    return StatusFailure::NotAStatusTest;
  Cond = Cond->IgnoreParens();
  if (const auto *C = dyn_cast<ExprWithCleanups>(Cond))
    Cond = C->getSubExpr()->IgnoreParens();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return flip(statusFailureOutcome(En, U->getSubExpr()));
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    StatusFailure L = statusFailureOutcome(En, B->getLHS());
    StatusFailure R = statusFailureOutcome(En, B->getRHS());
    switch (B->getOpcode()) {
    case BO_LAnd: // `mkdir(p) != 0 && errno != EEXIST`
      return L == StatusFailure::WhenTrue && R != StatusFailure::NotAStatusTest
                 ? StatusFailure::WhenTrue
                 : StatusFailure::NotAStatusTest;
    case BO_LOr:
      return L == StatusFailure::WhenTrue && R == StatusFailure::WhenTrue
                 ? StatusFailure::WhenTrue
                 : StatusFailure::NotAStatusTest;
    default:
      break;
    }
    if (!B->isComparisonOp())
      return StatusFailure::NotAStatusTest;
    BinaryOperatorKind Op = B->getOpcode();
    const Expr *Status = B->getLHS(), *Other = B->getRHS();
    std::optional<int64_t> K = constantValue(Other, Ctx);
    if (!K) {
      std::swap(Status, Other);
      Op = mirrored(Op);
      K = constantValue(Other, Ctx);
    }
    StatusKind Kind = K ? statusKind(En, Status) : StatusKind::None;
    if (Kind == StatusKind::None)
      return StatusFailure::NotAStatusTest;
    return comparison(Op, Kind, *K);
  }
  // Tested for truth: a nonzero code, a null pointer or false fails.
  switch (statusKind(En, Cond)) {
  case StatusKind::Code:
    return StatusFailure::WhenTrue;
  case StatusKind::Pointer:
  case StatusKind::Flag:
    return StatusFailure::WhenFalse;
  case StatusKind::None:
    break;
  }
  return StatusFailure::NotAStatusTest;
}

llvm::SmallPtrSet<const CFGBlock *, 8> errorPathBlocks(Engine &E,
                                                       const FunctionFacts &F) {
  llvm::SmallPtrSet<const CFGBlock *, 8> Out;
  if (reportErrorPaths(E))
    return Out;
  const CFGBlock *Exit = &F.cfg().getExit();
  for (const CFGBlock *B : F.cfg()) {
    const auto *If = dyn_cast_or_null<IfStmt>(B->getTerminatorStmt());
    if (!If || If->isConsteval() || B->succ_size() != 2)
      continue;
    StatusFailure Failure = statusFailureOutcome(E, If->getCond());
    // The failure outcome must enter an arm of the `if` (then, or an
    // else), not the code after it.
    if (Failure == StatusFailure::NotAStatusTest ||
        (Failure == StatusFailure::WhenFalse && !If->getElse()))
      continue;
    const CFGBlock *Arm =
        *(Failure == StatusFailure::WhenTrue ? B->succ_begin()
                                             : B->succ_begin() + 1);
    for (const CFGBlock *A : exitArm(E, Arm, Exit))
      Out.insert(A);
  }
  return Out;
}

std::vector<ExitArm> exitArmsBeforeCollectives(
    Engine &E, FunctionFacts &F,
    const llvm::SmallPtrSetImpl<const CFGBlock *> &Ended) {
  std::vector<ExitArm> Out;
  const CFGBlock *Exit = &F.cfg().getExit();
  llvm::DenseMap<const CFGBlock *, bool> Issues;
  auto IssuesCollective = [&](const CFGBlock *B) {
    auto [It, New] = Issues.try_emplace(B, false);
    if (New)
      for (const CFGElement &El : *B)
        if (auto CS = El.getAs<CFGStmt>())
          if (stmtIssuesCollective(E, CS->getStmt(), 0)) {
            It->second = true;
            break;
          }
    return It->second;
  };
  // Does every path from From issue a collective before the exit (or end
  // the job, or come back to Branch, where the rank decides again)? A
  // branch on a condition the arm sits under, which the function never
  // changes, takes the arm's side (`if (tune) { ... return; }` then `if
  // (tune) MPI_Bcast(...)`: the ranks that stay broadcast).
  const Stmt *Body = F.function() ? F.function()->getBody() : nullptr;
  Budget &Limits = E.limits();
  unsigned Steps = 0;
  auto CollectiveFirst = [&](const CFGBlock *From, const CFGBlock *Branch,
                             const CFGBlock *ArmStart) {
    const FixedConditionSides Sides(E, Body, F.allControlDependencies(ArmStart),
                                    ArmStart);
    llvm::SmallVector<const CFGBlock *, 16> Work{From};
    llvm::SmallPtrSet<const CFGBlock *, 32> Seen{Branch};
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (!B || !Seen.insert(B).second || Ended.count(B))
        continue;
      if (B == Exit || ++Steps > Limits.HangArmSteps)
        return false;
      if (IssuesCollective(B))
        continue;
      if (std::optional<unsigned> Side = Sides.sideAt(B))
        Work.push_back(B->succ_begin()[*Side]);
      else
        Work.append(B->succ_begin(), B->succ_end());
    }
    return true;
  };
  // The blocks from First that only it enters and that all run to the
  // exit (`if (!ok) { if (v) log(a); else log(b); return err; }`), without
  // a collective. Empty when it is not such an arm.
  auto LeavingArm = [&](const CFGBlock *First) {
    llvm::SmallVector<const CFGBlock *, 4> Arm;
    llvm::SmallPtrSet<const CFGBlock *, 16> In;
    llvm::SmallVector<const CFGBlock *, 8> Work{First};
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (!B || B == Exit || In.count(B) || Ended.count(B))
        continue;
      if (Arm.size() >= 32 || IssuesCollective(B))
        return llvm::SmallVector<const CFGBlock *, 4>();
      In.insert(B);
      Arm.push_back(B);
      Work.append(B->succ_begin(), B->succ_end());
    }
    for (const CFGBlock *B : Arm)
      if (B != First)
        for (const CFGBlock *Pred : B->preds())
          if (Pred && !In.count(Pred))
            return llvm::SmallVector<const CFGBlock *, 4>();
    return Arm;
  };
  // An `if` whose arm returns: not a loop's end, whose exit arm is the
  // normal way on (its trip count is the loop's question).
  for (const CFGBlock *B : F.cfg()) {
    if (Steps > Limits.HangArmSteps) {
      Limits.hit("hang arm steps", F.function()
                                       ? F.function()->getNameAsString()
                                       : std::string("<global>"));
      break;
    }
    if (B->succ_size() != 2 || !isa_and_nonnull<IfStmt>(B->getTerminatorStmt()))
      continue;
    for (unsigned Side : {0u, 1u}) {
      const CFGBlock *First = B->succ_begin()[Side];
      const CFGBlock *Other = B->succ_begin()[1 - Side];
      if (!First || !Other || First->pred_size() != 1 || Ended.count(First))
        continue;
      llvm::SmallVector<const CFGBlock *, 4> Arm = LeavingArm(First);
      if (Arm.empty() || !llvm::any_of(Arm, hasReturn) || !Body ||
          !CollectiveFirst(Other, B, First))
        continue;
      Out.push_back({B, std::move(Arm)});
    }
  }
  return Out;
}

} // namespace distlint
