//===- CrossOrder.cpp - Two communicators taken in opposite orders --------===//
//
// The world's rank classes are compared on the world's collectives; a
// collective on a sub-communicator waits for that communicator's members
// only, so it is left out of them. Two arms of a branch that differs between
// ranks can then issue the same collectives in another order across two
// communicators:
//
//   if (g.col == 0) { MPI_Allreduce(..., g.row); MPI_Allreduce(..., world); }
//   else            { MPI_Allreduce(..., world); MPI_Allreduce(..., g.row); }
//
// Where one row holds ranks of both arms, the first waits in the row's
// all-reduce for the others, which wait in the world's for it. The arms are
// compared as flat lists of what they issue (their own calls and those of
// the project functions they call, in order); an arm whose collectives sit
// under a branch or loop of its own is not compared. A branch that only
// separates whole groups of the split (its condition reads nothing but what
// the colour reads) keeps each group in one arm: no shared member, no hang.
//
//===----------------------------------------------------------------------===//
#include "engine/Engine.h"
#include "engine/EngineInternals.h"
#include "engine/collectives/SequenceBuilder.h"

#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace distlint {

namespace {

/// One collective an arm issues: the API call and its communicator.
struct Issued {
  const CallExpr *Call = nullptr;  ///< The API collective.
  const CallExpr *Outer = nullptr; ///< The arm's own call that leads to it.
  const api::ApiEntry *Entry = nullptr;
  const Decl *Comm = nullptr;
  bool Sub = false;
  bool sameOperation(const Issued &O) const {
    return Entry == O.Entry && Comm == O.Comm;
  }
};

/// Flattens what a statement issues, in source order, through project
/// functions (up to Depth calls deep). False when it cannot say: a
/// collective or point-to-point call under a branch or loop of its own, a
/// communicator it cannot name, or too deep a call chain.
class Flattener {
public:
  Flattener(Engine &E) : E(E) {}
  bool flatten(const Stmt *S, std::vector<Issued> &Out, const CallExpr *Outer,
               bool Conditional, int Depth) {
    if (!S)
      return true;
    if (isa<LambdaExpr>(S))
      return true; // Runs where it is called, not here.
    bool Nested =
        Conditional || isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt,
                           CXXForRangeStmt, ConditionalOperator, CXXTryStmt>(S);
    // Children first: arguments run before the call.
    for (const Stmt *Child : S->children()) {
      bool ChildNested =
          Nested && !(isa<IfStmt>(S) && Child == cast<IfStmt>(S)->getCond());
      if (!flatten(Child, Out, Outer, ChildNested, Depth))
        return false;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return true;
    const CallExpr *Leading = Outer ? Outer : Call;
    if (E.apiRole(Call, api::Role::PointToPoint))
      return false;
    if (const api::ApiEntry *Entry = E.apiRole(Call, api::Role::Collective)) {
      if (Conditional)
        return false;
      Issued I;
      I.Call = Call;
      I.Outer = Leading;
      I.Entry = Entry;
      I.Comm = communicatorDecl(collectives::communicatorOf(Call, Entry));
      I.Sub = E.isOnSubCommunicator(Call);
      if (!I.Comm)
        return false;
      Out.push_back(I);
      return true;
    }
    if (!E.issuesCollective(Call))
      return true;
    if (Conditional || Depth <= 0)
      return false;
    const FunctionDecl *Callee = E.resolveCallee(Call);
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || !E.isUserCode(Def) ||
        !Seen.insert(Def).second)
      return false;
    bool Ok = flatten(Def->getBody(), Out, Leading, false, Depth - 1);
    Seen.erase(Def);
    return Ok;
  }

private:
  Engine &E;
  llvm::SmallPtrSet<const FunctionDecl *, 4> Seen;
};

/// The declarations an expression reads, through the initializers of the
/// local variables it reads (one level).
void readDecls(const Stmt *S, llvm::SmallPtrSetImpl<const Decl *> &Out,
               bool FollowLocals = true) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (FollowLocals && VD && VD->hasLocalStorage() && VD->getInit() &&
        !isa<ParmVarDecl>(VD))
      readDecls(VD->getInit(), Out, false);
    else
      Out.insert(DR->getDecl());
  } else if (const auto *M = dyn_cast<MemberExpr>(S)) {
    Out.insert(M->getMemberDecl());
    return; // `g.prow` and `t.prow` read one field.
  }
  for (const Stmt *Child : S->children())
    readDecls(Child, Out, FollowLocals);
}

} // namespace

std::vector<Engine::CrossOrder>
Engine::crossCommunicatorOrders(const FunctionDecl *FD) {
  std::vector<CrossOrder> Found;
  P->prepare();
  ResidentResult R = P->resident(FD);
  if (!R)
    return Found;
  for (const CFGBlock *B : R.facts().reversePostOrder()) {
    const auto *If = dyn_cast_or_null<IfStmt>(B->getTerminatorStmt());
    if (!If || !If->getElse() || If->getConditionVariable())
      continue;
    auto It = R.body().BranchTaint.find(B);
    if (It == R.body().BranchTaint.end() || !It->second.Vary)
      continue;
    std::vector<Issued> Arms[2];
    Flattener F(*this);
    if (!F.flatten(If->getThen(), Arms[0], nullptr, false, 3) ||
        !F.flatten(If->getElse(), Arms[1], nullptr, false, 3))
      continue;
    if (Arms[0].size() != Arms[1].size() || Arms[0].size() < 2)
      continue;
    // The same collectives (as many of each), and in the same order on the
    // world's communicators: the world's comparison finds nothing here.
    auto Count = [](const std::vector<Issued> &L, const Issued &I) {
      return llvm::count_if(
          L, [&](const Issued &X) { return X.sameOperation(I); });
    };
    bool SameMultiset = llvm::all_of(Arms[0], [&](const Issued &I) {
      return Count(Arms[0], I) == Count(Arms[1], I);
    });
    if (!SameMultiset)
      continue;
    std::vector<const Issued *> World[2];
    for (int A = 0; A < 2; ++A)
      for (const Issued &I : Arms[A])
        if (!I.Sub)
          World[A].push_back(&I);
    if (!llvm::equal(World[0], World[1], [](const Issued *X, const Issued *Y) {
          return X->sameOperation(*Y);
        }))
      continue;
    size_t At = 0;
    while (At < Arms[0].size() && Arms[0][At].sameOperation(Arms[1][At]))
      ++At;
    if (At == Arms[0].size())
      continue;
    const Issued &Here = Arms[0][At], &There = Arms[1][At];
    if (Here.Comm == There.Comm)
      continue;
    // The sub-communicator both arms wait in: who are its members?
    const Issued &Sub = Here.Sub ? Here : There;
    if (!Sub.Sub)
      continue;
    const CallExpr *Split = splitWriting(Sub.Comm);
    const api::ApiEntry *SplitRow =
        Split ? apiRole(Split, api::Role::CommSplit) : nullptr;
    if (!SplitRow || SplitRow->Args.Color < 0 ||
        unsigned(SplitRow->Args.Color) >= Split->getNumArgs())
      continue;
    llvm::SmallPtrSet<const Decl *, 8> ColorReads, CondReads;
    readDecls(Split->getArg(SplitRow->Args.Color), ColorReads);
    readDecls(If->getCond(), CondReads);
    if (llvm::all_of(CondReads,
                     [&](const Decl *D) { return ColorReads.count(D); }))
      continue; // The branch keeps each group of the split in one arm.
    CrossOrder C;
    C.Here = Here.Outer;
    C.HereCollective = Here.Call;
    C.Other = There.Outer;
    C.OtherCollective = There.Call;
    C.Condition = If->getCond();
    C.Origin = It->second.Origin;
    C.Split = Split;
    Found.push_back(C);
  }
  return Found;
}

const CallExpr *Engine::splitWriting(const Decl *Comm) {
  if (!Comm)
    return nullptr;
  if (!SplitsByComm) {
    P->prepare();
    SplitsByComm.emplace();
    llvm::SmallVector<const CallExpr *, 32> Calls;
    for (const FunctionDecl *FD : P->UserFunctions) {
      const FunctionDecl *Def = FD->getDefinition();
      Calls.clear();
      collectBodyCalls(Def ? Def : FD, Calls);
      for (const CallExpr *Call : Calls) {
        const api::ApiEntry *Split = apiRole(Call, api::Role::CommSplit);
        if (!Split || Split->Args.Out < 0 ||
            unsigned(Split->Args.Out) >= Call->getNumArgs())
          continue;
        const Expr *Out = Call->getArg(Split->Args.Out)->IgnoreParenImpCasts();
        if (const auto *U = dyn_cast<UnaryOperator>(Out);
            U && U->getOpcode() == UO_AddrOf)
          Out = U->getSubExpr();
        if (const Decl *Written = communicatorDecl(Out))
          SplitsByComm->try_emplace(Written, Call);
      }
    }
  }
  auto It = SplitsByComm->find(Comm);
  return It == SplitsByComm->end() ? nullptr : It->second;
}

} // namespace distlint
