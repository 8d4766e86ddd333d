//===- SequenceBuilder.cpp - Collective sequences from the CFG ------------===//
//
// What each call issues (tokens and their argument keys) and the tree a
// function's CFG makes of them; what names a choice (a branch or a loop's
// trip count) so that the same choice is recognized on both sides is
// Choices.cpp.
//
//===----------------------------------------------------------------------===//
#include "engine/collectives/SequenceBuilder.h"
#include "engine/AnalysisManager.h"

#include "engine/Engine.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/ast/AstHelpers.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/cfg/FailStop.h"
#include "engine/loops/Loops.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

#include <algorithm>
#include <optional>
#include <functional>
#include <utility>

using namespace clang;

namespace distlint {
namespace collectives {

const Expr *communicatorOf(const CallExpr *Call, const api::ApiEntry *Entry) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  if (Entry && Entry->Args.Comm >= 0 &&
      Entry->Args.Comm < (int)Call->getNumArgs())
    return Call->getArg(Entry->Args.Comm);
  return nullptr;
}

namespace {

const Expr *peel(const Expr *X) {
  while (X) {
    const Expr *Next = stripValue(X)->IgnoreParenCasts();
    if (Next == X)
      return X;
    X = Next;
  }
  return X;
}

/// A number the function takes by value and never changes: the callers'
/// arguments decide it, each where the function's tree is inlined.
ArgKey paramKey(Engine &E, const ParmVarDecl *PD) {
  QualType T = PD->getType();
  const auto *FD = dyn_cast<FunctionDecl>(PD->getDeclContext());
  if (!FD || !FD->getBody() || T->isReferenceType() ||
      !(T->isIntegralOrEnumerationType()) || isWrittenIn(E, PD, FD->getBody()))
    return {};
  return ArgKey::param(FD->getCanonicalDecl(), PD->getFunctionScopeIndex());
}

/// What an argument names, following locals to their only definition.
/// Communicators: a local handle that is written (by a split, a dup, an
/// init) names its own communicator object.
ArgKey argKey(Engine &E, const Expr *X, bool IsComm, int Depth = 0) {
  if (!X || Depth > 4)
    return {};
  X = peel(X);
  if (isa<CXXDefaultArgExpr>(X))
    return {};
  if (!IsComm)
    if (auto V = evaluateInt(E, X))
      return ArgKey::integer(V->getExtValue());
  // `c ? 2 : 1` with c the same on every rank: one of two values.
  if (const auto *C = dyn_cast<ConditionalOperator>(X); C && !IsComm) {
    auto T = evaluateInt(E, C->getTrueExpr());
    auto F = evaluateInt(E, C->getFalseExpr());
    if (T && F && E.uniformity(C->getCond()).Uniform)
      return T->getExtValue() == F->getExtValue()
                 ? ArgKey::integer(T->getExtValue())
                 : ArgKey::choice(C, T->getExtValue(), F->getExtValue());
  }
  // `rows * kDim`: a key times a constant (a parameter's, where each call
  // decides it).
  if (const auto *B = dyn_cast<BinaryOperator>(X);
      B && B->getOpcode() == BO_Mul && !IsComm)
    for (auto [Factor, Other] : {std::pair(B->getRHS(), B->getLHS()),
                                 std::pair(B->getLHS(), B->getRHS())})
      if (auto V = evaluateInt(E, Factor))
        return argKey(E, Other, IsComm, Depth + 1).times(V->getExtValue());
  if (const auto *U = dyn_cast<UnaryOperator>(X);
      U && U->getOpcode() == UO_AddrOf)
    X = peel(U->getSubExpr());
  const auto *DR = dyn_cast<DeclRefExpr>(X);
  if (!DR)
    return {};
  if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
    return EC->getInitVal().isRepresentableByInt64()
               ? ArgKey::integer(EC->getInitVal().getExtValue())
               : ArgKey();
  const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
  if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(VD))
    return IsComm ? ArgKey() : paramKey(E, PD);
  if (!VD)
    return {};
  if (const Expr *Init = soleDefinition(E, VD)) {
    ArgKey K = argKey(E, Init, IsComm, Depth + 1);
    if (K.known())
      return K;
  }
  if (VD->hasGlobalStorage() && !VD->isStaticLocal() &&
      !VD->getType()->isReferenceType())
    return ArgKey::symbol(VD->getCanonicalDecl());
  if (IsComm && VD->isLocalVarDecl() && !VD->getType()->isReferenceType() &&
      !VD->getType()->isRecordType())
    return ArgKey::symbol(VD);
  return {};
}

/// The keys of what Call passes to Callee's parameters, in their order.
llvm::SmallVector<ArgKey, 4> callArgKeys(Engine &E, const CallExpr *Call,
                                         const FunctionDecl *Callee) {
  llvm::SmallVector<ArgKey, 4> Keys;
  for (const Expr *Arg : splitCall(Call, Callee).second)
    Keys.push_back(argKey(E, Arg, /*IsComm=*/false));
  return Keys;
}

ArgKey argAt(Engine &E, const CallExpr *Call, int Index) {
  if (Index < 0 || Index >= (int)Call->getNumArgs() ||
      isa<CXXOperatorCallExpr>(Call))
    return {};
  return argKey(E, Call->getArg(Index), /*IsComm=*/false);
}

} // namespace

void noteBudgetHit(Engine &E, const char *Which, const FunctionDecl *FD) {
  std::string Where = FD ? FD->getQualifiedNameAsString() : "<global>";
  E.limits().hit(Which, Where);
  if (std::getenv("DISTLINT_DEBUG_BUDGETS"))
    llvm::errs() << "distlint: debug: " << Which << " budget hit in " << Where
                 << "; the branch is not compared\n";
}

SequenceBuilder::SequenceBuilder(Engine &E, FunctionFacts &F,
                                 CalleeTrees &Callees)
    : E(E), F(F), Callees(Callees), Budget(E.limits().SequenceBlocks) {}

std::optional<Token> tokenAt(Engine &E, const CallExpr *Call) {
  const FunctionDecl *FD = E.resolveCallee(Call);
  if (!FD)
    return std::nullopt;
  Token T;
  T.Call = Call;
  if (const api::ApiEntry *P2P = E.api().find(FD, api::Role::PointToPoint)) {
    // Calls that hand back a request return at once; the wait blocks, but
    // on a request whose peer is a matching question. A buffered send
    // returns at once too.
    T.Kind = P2P->Args.Request >= 0 || P2P->Facts.CompletesLocally
                 ? TokenKind::PostedPointToPoint
                 : TokenKind::PointToPoint;
    T.Op = P2P;
    T.Comm = argKey(E, communicatorOf(Call, P2P), /*IsComm=*/true);
    return T;
  }
  const api::ApiEntry *Coll = E.api().find(FD, api::Role::Collective);
  if (!Coll || E.isOnSubCommunicator(Call))
    return std::nullopt;
  T.Op = Coll;
  T.Comm = argKey(E, communicatorOf(Call, Coll), /*IsComm=*/true);
  T.Root = argAt(E, Call, Coll->Args.Root);
  T.ReduceOp = argAt(E, Call, Coll->Args.Op);
  T.DType = argAt(E, Call, Coll->Args.DType);
  T.Count = argAt(E, Call, Coll->Args.Count);
  // A rank that passes the in-place marker does not read its own count and
  // type: they cannot disagree with the others'.
  if (passesInPlace(E, Call, Coll))
    T.DType = T.Count = ArgKey();
  if (passesInterRoot(E, Call, Coll))
    T.Root = ArgKey();
  return T;
}

bool passesInPlace(Engine &E, const CallExpr *Call,
                   const api::ApiEntry *Entry) {
  int I = Entry ? Entry->Args.InPlace : -1;
  return I >= 0 && I < (int)Call->getNumArgs() &&
         mayExpandMacro(Call->getArg(I), api::inPlaceMarkerName(), E.context());
}

namespace {
bool isInterRootMarker(Engine &E, const Expr *X) {
  for (llvm::StringRef Name : api::interRootMarkerNames())
    if (mayExpandMacro(X, Name, E.context()))
      return true;
  return false;
}

/// Does X hold an inter-communicator root marker: the marker, a choice
/// between markers (`rank == 0 ? MPI_ROOT : MPI_PROC_NULL`), or a parameter
/// some caller passes one for (a wrapper such as `MTest_Reduce(..., root,
/// comm)`)?
bool holdsInterRootMarker(Engine &E, const Expr *X, int Depth) {
  X = X->IgnoreParenImpCasts();
  if (isInterRootMarker(E, X))
    return true;
  if (const auto *C = dyn_cast<ConditionalOperator>(X))
    return holdsInterRootMarker(E, C->getTrueExpr(), Depth) ||
           holdsInterRootMarker(E, C->getFalseExpr(), Depth);
  const auto *Ref = dyn_cast<DeclRefExpr>(X);
  const auto *PD = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  const auto *FD = PD ? dyn_cast<FunctionDecl>(PD->getDeclContext()) : nullptr;
  if (!FD || Depth > 3)
    return false;
  unsigned Index = PD->getFunctionScopeIndex();
  for (const CallExpr *Site : callSitesOf(E, FD)) {
    llvm::ArrayRef<const Expr *> Args =
        splitCall(Site, E.resolveCallee(Site)).second;
    if (Index < Args.size() && holdsInterRootMarker(E, Args[Index], Depth + 1))
      return true;
  }
  return false;
}
} // namespace

bool passesInterRoot(Engine &E, const CallExpr *Call,
                     const api::ApiEntry *Entry) {
  int I = Entry ? Entry->Args.Root : -1;
  if (I < 0 || I >= (int)Call->getNumArgs())
    return false;
  auto IsMarker = [&](const Expr *X) { return isInterRootMarker(E, X); };
  const Expr *Root = Call->getArg(I);
  if (holdsInterRootMarker(E, Root, 0))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(Root->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const FunctionDecl *FD = E.enclosingFunction(Call);
  if (!V || !FD || !FD->getBody())
    return false;
  if (V->getInit() && IsMarker(V->getInit()))
    return true;
  // `root = MPI_ROOT;` anywhere in the function.
  bool Found = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && B->getOpcode() == BO_Assign && designatedVar(B->getLHS()) == V &&
        IsMarker(B->getRHS()))
      Found = true;
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return Found;
}

bool endsJob(Engine &E, const CallExpr *Call) {
  const FunctionDecl *FD = E.resolveCallee(Call);
  if (!FD || E.endsProgramNormally(Call))
    return false;
  if (FD->isNoReturn() || E.api().has(FD, api::Role::FailStop))
    return true;
  if (FD->hasBody() && isTaughtDecl(E, FD))
    return E.summary(FD).NoReturn;
  return false;
}

NodeRef SequenceBuilder::elements(const CFGBlock *B, bool &EndsJob) {
  std::vector<NodeRef> Parts;
  bool NormalEnd = false;
  for (const CFGElement &El : *B) {
    auto CS = El.getAs<CFGStmt>();
    const auto *Call = CS ? dyn_cast<CallExpr>(CS->getStmt()) : nullptr;
    if (!Call)
      continue;
    if (E.endsProgramNormally(Call)) {
      NormalEnd = true; // On to the function's exit, issuing nothing more.
      break;
    }
    if (endsJob(E, Call)) {
      EndsJob = true;
      break;
    }
    if (auto T = tokenAt(E, Call)) {
      Parts.push_back(Node::token(*T));
      continue;
    }
    const FunctionDecl *Callee = E.resolveCallee(Call);
    if (Callee && Callee->hasBody() && isTaughtDecl(E, Callee)) {
      NodeRef Tree = functionSequence(E, Callee, Callees);
      // Given sub-communicators, its collectives involve their members
      // only (like a direct collective on one); what else it does counts.
      if (onlyCollectives(Tree) && E.isOnSubCommunicator(Call))
        continue;
      if (Tree && Tree->HasParamKeys)
        Tree = substituteParams(Tree, Callee->getCanonicalDecl(),
                                callArgKeys(E, Call, Callee));
      Parts.push_back(Node::call(Call, std::move(Tree)));
    }
  }
  if (B->hasNoReturnElement() && !NormalEnd)
    EndsJob = true;
  if (EndsJob)
    Parts.push_back(Node::failStop());
  return Node::seq(std::move(Parts));
}

SequenceBuilder::Walk
SequenceBuilder::walk(const CFGBlock *B,
                      llvm::ArrayRef<const CFGBlock *> Stops) {
  std::vector<NodeRef> Parts;
  llvm::SmallVector<const CFGBlock *, 16> Added;
  const CFGBlock *Exit = &F.cfg().getExit();
  const CFGBlock *Ended = nullptr;
  while (B) {
    if (llvm::is_contained(Stops, B)) {
      Ended = B;
      break;
    }
    if (--Budget < 0) {
      BudgetHit = true;
      break;
    }
    // A cycle that is not a loop statement (goto): its first pass only.
    if (!OnPath.insert(B).second) {
      // `while (true) { MPI_Allreduce(..); if (rank > 0) break; }`: the arm
      // that stays in the loop issues the collective before the test again.
      if (B == ArmsOf) {
        bool Ends = false;
        Parts.push_back(elements(B, Ends));
      }
      break;
    }
    Added.push_back(B);
    bool Ends = false;
    Parts.push_back(elements(B, Ends));
    if (Ends || B == Exit)
      break;
    // A throw that leaves the function ends the job (or is a caller's
    // divergence, see thrownPast); inside a try it is an ordinary branch.
    if (const Stmt *T = B->getTerminatorStmt(); T && isa<CXXThrowExpr>(T)) {
      bool Leaves = true;
      for (const CFGBlock *Succ : B->succs())
        Leaves = Leaves && (!Succ || Succ == Exit);
      if (Leaves) {
        Parts.push_back(Node::failStop());
        break;
      }
    }
    llvm::SmallVector<const CFGBlock *, 4> Succs;
    ChoiceSource Source;
    Source.Term = B->getTerminatorStmt();
    Source.NumSuccs = B->succ_size();
    unsigned Index = 0;
    for (const CFGBlock *Succ : B->succs()) {
      // An exception none of the handlers catches leaves the function: it
      // ends the job like a throw outside any try (callers: thrownPast).
      if (escapesTry(B, Succ)) {
        ++Index;
        continue;
      }
      if (Succ && !llvm::is_contained(Succs, Succ)) {
        Succs.push_back(Succ);
        Source.Succ.push_back(Index);
        Source.Label.push_back(Succ->getLabel());
      }
      ++Index;
    }
    if (Succs.empty())
      break;
    const Stmt *Term = B->getTerminatorStmt();
    if (isLoopStmt(Term)) {
      const CFGBlock *After = E.liveJoin(F.function(), B);
      llvm::SmallVector<const CFGBlock *, 8> Inner(Stops.begin(), Stops.end());
      Inner.push_back(B);
      if (After)
        Inner.push_back(After);
      Walk Body =
          walk(*B->succ_begin() ? *B->succ_begin() : Succs.front(), Inner);
      if (oneExchangePerPeer(E, Term, Body.N)) {
        Parts.push_back(Body.N);
        B = After;
        continue;
      }
      NodeRef Loop = Node::loop(choiceKey(E, Term), Body.N, Source);
      // A counted loop that constants make run at least once: its first
      // iteration is not a choice.
      if (atLeastOnce(E, Term))
        Loop = Node::seq({Body.N, std::move(Loop)});
      Parts.push_back(std::move(Loop));
      B = After;
      continue;
    }
    if (Succs.size() == 1) {
      B = Succs.front();
      continue;
    }
    // A condition on a value known to be one constant takes one arm.
    if (Source.NumSuccs == 2 && Succs.size() == 2)
      if (auto Taken = decidedCondition(E, Term)) {
        unsigned Want = *Taken ? 0 : 1;
        B = Source.Succ[0] == Want ? Succs[0] : Succs[1];
        continue;
      }
    const CFGBlock *Join = E.liveJoin(F.function(), B);
    llvm::SmallVector<const CFGBlock *, 8> Inner(Stops.begin(), Stops.end());
    if (Join)
      Inner.push_back(Join);
    std::vector<NodeRef> Options;
    const CFGBlock *LeftAt = nullptr;
    for (const CFGBlock *Succ : Succs) {
      Walk W = walk(Succ, Inner);
      Options.push_back(W.N);
      if (W.EndedAt && W.EndedAt != Join &&
          llvm::is_contained(Stops, W.EndedAt))
        LeftAt = W.EndedAt;
    }
    Parts.push_back(
        Node::alt(choiceKey(E, Term), std::move(Options), std::move(Source)));
    // An arm left the enclosing region (break, continue, return out of a
    // loop body): the join lies beyond it.
    if (LeftAt) {
      Ended = LeftAt;
      break;
    }
    B = Join;
  }
  for (const CFGBlock *A : Added)
    OnPath.erase(A);
  return {Node::seq(std::move(Parts)), Ended};
}

/// Accounts for Tree, inlined into the tree being built.
static NodeRef useTree(CalleeTrees &Callees, const CalleeTrees::Built &Tree) {
  Callees.CalleeHeight = std::max(Callees.CalleeHeight, Tree.Height);
  Callees.Cut |= !Tree.Complete;
  return Tree.Tree;
}

NodeRef functionSequence(Engine &E, const FunctionDecl *FD,
                         CalleeTrees &Callees) {
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  auto It = Callees.Done.find(FD);
  if (It != Callees.Done.end())
    return useTree(Callees, It->second);
  AnalysisManager &P = *E.P;
  unsigned Limit = E.limits().SequenceInlineDepth;
  // A complete tree of an earlier question, where it fits the depth: its
  // body may have been dropped since, and every caller would rebuild it.
  auto Known = P.CompleteTrees.find(FD);
  if (Known != P.CompleteTrees.end() &&
      Callees.InProgress.size() + Known->second.Height <= Limit)
    return useTree(Callees, Callees.Done[FD] = Known->second);
  FactsRef F = E.facts(FD); // Held while the builder walks its blocks.
  if (!F)
    return Node::empty(); // No CFG.
  if (!Callees.InProgress.insert(FD).second) {
    Callees.Cut = true; // Recursion.
    return Node::empty();
  }
  if (Callees.InProgress.size() > Limit) {
    Callees.InProgress.erase(FD);
    Callees.Cut = true;
    noteBudgetHit(E, "collective-sequence inlining depth", FD);
    return Node::empty();
  }
  bool OuterCut = std::exchange(Callees.Cut, false);
  unsigned OuterHeight = std::exchange(Callees.CalleeHeight, 0);
  unsigned HitsBefore = E.limits().HitCount;
  CalleeTrees::Built Tree;
  Tree.Tree = SequenceBuilder(E, *F, Callees).function();
  Tree.Height = Callees.CalleeHeight + 1;
  Tree.Complete = !Callees.Cut && E.limits().HitCount == HitsBefore;
  Callees.Cut = OuterCut;
  Callees.CalleeHeight = OuterHeight;
  Callees.InProgress.erase(FD);
  Callees.Done[FD] = Tree;
  // Kept for the TU only once its facts are final, and only for callees
  // (the trees of 60,000 functions nobody calls would cost memory).
  if (Tree.Complete && P.Prepared)
    if (FunctionResult *R = P.analyze(FD); R && R->Called)
      P.CompleteTrees[FD] = Tree;
  return useTree(Callees, Tree);
}

NodeRef SequenceBuilder::function() { return walk(&F.cfg().getEntry(), {}).N; }

std::vector<NodeRef> SequenceBuilder::arms(const CFGBlock *Branch,
                                           bool WholeJoin) {
  std::vector<NodeRef> Out;
  bool Fresh = OnPath.insert(Branch).second;
  const CFGBlock *OuterArms = ArmsOf;
  ArmsOf = Branch;
  const CFGBlock *Join = WholeJoin ? F.immediatePostDominator(Branch)
                                   : E.liveJoin(F.function(), Branch);
  llvm::SmallVector<const CFGBlock *, 1> Stops;
  if (Join)
    Stops.push_back(Join);
  llvm::SmallVector<const CFGBlock *, 4> Seen;
  for (const CFGBlock *Succ : Branch->succs())
    if (Succ && !llvm::is_contained(Seen, Succ)) {
      Seen.push_back(Succ);
      Out.push_back(walk(Succ, Stops).N);
    }
  if (Fresh)
    OnPath.erase(Branch);
  ArmsOf = OuterArms;
  return Out;
}

} // namespace collectives
} // namespace distlint
