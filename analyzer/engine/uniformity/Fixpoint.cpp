//===- Fixpoint.cpp - The uniformity data-flow over a function's CFG ------===//
//
// The data-flow as a problem for the one solver (solver/Solver.h): states
// are VarStates, a block's transfer replays its elements under the block's
// control taint, loops widen value ranges. Rounds repeat it while branch
// taints learned in one round change the control of the next.
//
//===----------------------------------------------------------------------===//
#include "engine/uniformity/UniformityAnalysis.h"

#include "engine/solver/Solver.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;

namespace distlint {

Taint UniformityAnalysis::controlTaint(const CFGBlock *B,
                                       bool WithFailStopGuards) {
  Taint Ctl;
  Ctl.UniformContent = true;
  for (const CFGBlock *Dep : WithFailStopGuards
                                 ? R.Body->Facts->allControlDependencies(B)
                                 : R.Body->valueControlDependencies(B)) {
    auto It = R.Body->BranchTaint.find(Dep);
    if (It != R.Body->BranchTaint.end())
      Ctl.addControl(It->second);
  }
  return Ctl;
}

llvm::SmallPtrSet<const CFGBlock *, 8> UniformityAnalysis::hangArms() {
  llvm::SmallPtrSet<const CFGBlock *, 8> Out;
  for (const ExitArm &Arm : R.Body->exitArms(E)) {
    // Left on some ranks only: under a branch that differs between ranks.
    bool SomeRanks = false;
    for (const CFGBlock *Dep :
         R.Body->liveControlDependencies(Arm.Blocks.front())) {
      auto It = R.Body->BranchTaint.find(Dep);
      SomeRanks |= It != R.Body->BranchTaint.end() && It->second.Vary;
    }
    if (SomeRanks)
      Out.insert(Arm.Blocks.begin(), Arm.Blocks.end());
  }
  return Out;
}

Taint UniformityAnalysis::controlSinceDeclaration(const VarDecl *VD,
                                                  const Taint &Ctl) {
  if (!CurrentBlock || !Ctl.depends() || !isLocal(VD) || VD->isStaticLocal())
    return Ctl;
  if (!DeclBlocksBuilt) {
    DeclBlocksBuilt = true;
    for (const CFGBlock *B : R.Body->Facts->reversePostOrder())
      for (const CFGElement &El : *B)
        if (auto CS = El.getAs<CFGStmt>())
          if (const auto *DS = dyn_cast<DeclStmt>(CS->getStmt()))
            for (const Decl *D : DS->decls())
              if (const auto *V = dyn_cast<VarDecl>(D))
                DeclBlocks[V] = B;
  }
  auto Home = DeclBlocks.find(VD);
  if (Home == DeclBlocks.end())
    return Ctl;
  // Every path to this write passed the declaration: the branches that
  // decide whether the declaration runs decide nothing about which value
  // the variable holds (`size_t i = 1; ... ++i;` in rank 0's arm).
  const auto &Deps = R.Body->liveControlDependencies(Home->second);
  llvm::SmallVector<const CFGBlock *, 8> Around(Deps.begin(), Deps.end());
  Taint Since;
  Since.UniformContent = true;
  for (const CFGBlock *Dep : R.Body->liveControlDependencies(CurrentBlock))
    if (!llvm::is_contained(Around, Dep))
      if (auto It = R.Body->BranchTaint.find(Dep);
          It != R.Body->BranchTaint.end())
        Since.addControl(It->second);
  return Since;
}

void UniformityAnalysis::noteObjectEscape(const VarState &S) {
  if (!CountingEscapes || !CurrentBlock)
    return;
  Escape &X = Escapes.emplace_back();
  for (const auto &[Key, T] : S)
    if (!Key.Var && Key.Field && Key.Index == -1 && !T.Vary && !T.PendingVary &&
        !T.PendingParams && !T.Params)
      X.Agreed.insert(Key.Field);
  X.WrittenBefore.insert(VaryWrittenFields.begin(), VaryWrittenFields.end());
  // In a cycle: a later block's write may reach it.
  llvm::SmallVector<const CFGBlock *, 16> Work(CurrentBlock->succ_begin(),
                                               CurrentBlock->succ_end());
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  while (!Work.empty() && !X.InLoop) {
    const CFGBlock *B = Work.pop_back_val();
    if (!B || !Seen.insert(B).second)
      continue;
    X.InLoop = B == CurrentBlock;
    Work.append(B->succ_begin(), B->succ_end());
  }
}

/// A method that runs on an object of its class (a constructor included;
/// not a lambda's call operator, whose fields are its captures).
static const CXXMethodDecl *ownObjectMethod(const FunctionDecl *FD) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  return MD && MD->isInstance() && !MD->getParent()->isLambda() ? MD : nullptr;
}

void UniformityAnalysis::noteWriterAgreement(const VarState *End) {
  if (ObjectVaries)
    return;
  if (End)
    noteObjectEscape(*End);
  const CXXMethodDecl *Method = ownObjectMethod(FD);
  for (const FieldDecl *F : VaryWrittenFields) {
    bool Agreed =
        Method && End && F->getParent() == Method->getParent() &&
        llvm::all_of(Escapes, [&](const Escape &X) {
          return X.Agreed.count(F) || (!X.InLoop && !X.WrittenBefore.count(F));
        });
    P.Tu.noteWriterAgreement(F, Agreed);
  }
}

namespace {
/// Is the edge From -> To taken only when the world has one rank: From
/// branches on the world size compared with 1 (`size == 1`, `size < 2`,
/// `size > 1` on its false edge...), read from a variable or field?
bool singleRankEdge(UniformityAnalysis &U, const CFGBlock *From,
                    const CFGBlock *To, const VarState &S) {
  if (From->succ_size() != 2 || !From->getTerminatorStmt())
    return false;
  const auto *B = dyn_cast_or_null<BinaryOperator>(
      const_cast<CFGBlock *>(From)->getTerminatorCondition(true));
  if (!B || !B->isComparisonOp())
    return false;
  const Expr *Size = B->getLHS()->IgnoreParenImpCasts();
  const Expr *Bound = B->getRHS()->IgnoreParenImpCasts();
  BinaryOperatorKind Op = B->getOpcode();
  if (isa<IntegerLiteral>(Size)) {
    std::swap(Size, Bound);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  const auto *Lit = dyn_cast<IntegerLiteral>(Bound);
  if (!Lit || !isa<DeclRefExpr, MemberExpr>(Size))
    return false;
  Taint T = U.eval(Size, S);
  const IntRange World{{1, 0}, {1, 0}};
  if (T.depends() || !T.Range || !(T.Range->Lo == World.Lo) ||
      !(T.Range->Hi == World.Hi))
    return false;
  const uint64_t V = Lit->getValue().getLimitedValue();
  // Which edge holds exactly for W == 1 (W >= 1 always).
  std::optional<bool> OneRankOn;
  if ((Op == BO_EQ && V == 1) || (Op == BO_LT && V == 2) ||
      (Op == BO_LE && V == 1))
    OneRankOn = true;
  if ((Op == BO_NE && V == 1) || (Op == BO_GT && V == 1) ||
      (Op == BO_GE && V == 2))
    OneRankOn = false;
  if (!OneRankOn)
    return false;
  const CFGBlock *Edge = *(From->succ_begin() + (*OneRankOn ? 0 : 1));
  return Edge == To;
}

/// An edge out of a branch on the rank compared with one value (`rank ==
/// 0`, `rank != 0`, `!rank`, `rank`): the rank, and whether that rank alone
/// takes the edge (else every other rank does).
struct RankEdge {
  int64_t Rank;
  bool Only;
};
std::optional<RankEdge> rankEdge(UniformityAnalysis &U, const CFGBlock *From,
                                 const CFGBlock *To, const VarState &S) {
  if (From->succ_size() != 2 || !From->getTerminatorStmt() ||
      *From->succ_begin() == *(From->succ_begin() + 1))
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<Expr>(
      const_cast<CFGBlock *>(From)->getTerminatorCondition(true));
  auto Test = Cond ? U.rankTest(Cond, S) : std::nullopt;
  if (!Test)
    return std::nullopt;
  const CFGBlock *RankOnly =
      *(From->succ_begin() + (Test->TrueForRank ? 0 : 1));
  return RankEdge{Test->Rank, RankOnly == To};
}

/// Where a path only the root of a broadcast takes meets the others' (`if
/// (rank != 0) n = info[0];`): a variable the root copied into the message
/// (Taint::RootKey) and every other path read back from it holds one value
/// on every rank. The root's path takes the others' value before the merge
/// (copied into Marked first when it is not one of its copies).
void adoptRootValues(llvm::SmallVectorImpl<const VarState *> &Paths,
                     std::vector<VarState> &Marked) {
  if (Paths.size() < 2)
    return;
  for (const VarState *&Root : Paths) {
    std::optional<int64_t> Rank = rootOnlyRank(*Root);
    if (!Rank)
      continue;
    llvm::SmallVector<std::pair<StateKey, Taint>, 2> Adopted;
    for (const auto &[Key, T] : *Root) {
      if (Key.isPart() || !T.RootKey || T.RootRank != *Rank)
        continue;
      const Taint *Got = nullptr;
      bool Same = true;
      for (const VarState *Other : Paths) {
        if (Other == Root)
          continue;
        auto It = Other->find(Key);
        if (It == Other->end() || It->second.Vary || It->second.Params ||
            It->second.ValueKey != T.RootKey || rootOnlyRank(*Other) == Rank) {
          Same = false;
          break;
        }
        Got = &It->second;
      }
      if (Same && Got)
        Adopted.push_back({Key, *Got});
    }
    if (Adopted.empty())
      continue;
    // Marked holds its own copy (reserved: pointers into it stay valid).
    bool Owned = false;
    for (VarState &M : Marked)
      Owned |= &M == Root;
    if (!Owned) {
      Marked.push_back(*Root);
      Root = &Marked.back();
    }
    VarState &Writable = const_cast<VarState &>(*Root);
    for (auto &[Key, T] : Adopted)
      Writable[Key] = T;
  }
}

/// The uniformity data-flow as a solver problem: states are VarStates,
/// the transfer replays the block's elements under its control taint.
struct UniformityProblem {
  using Element = VarState;
  static constexpr solver::Direction Dir = solver::Direction::Forward;
  UniformityAnalysis &U;
  llvm::DenseMap<const CFGBlock *, Taint> &Ctl;
  /// Blocks whose Out has been computed. A predecessor not reached yet is
  /// bottom: skipped, not a path on which every variable is missing
  /// (mergePathStates settles pending implicit flows on such paths).
  llvm::DenseSet<const CFGBlock *> Reached;

  VarState bottom() const { return {}; }
  /// Out-parameters start with what the caller passed in, so that a path
  /// that does not write one keeps that value at the merge (a missing
  /// variable keeps the other path's value).
  VarState boundary() const { return U.entryState(); }
  VarState merge(const CFGBlock *B,
                 llvm::ArrayRef<solver::Neighbour<VarState>> Ns) const {
    VarState In;
    bool First = true;
    // Copies of the paths into B that need a mark of their own.
    std::vector<VarState> Marked;
    Marked.reserve(2 * Ns.size()); // A mark and an adoption per path.
    llvm::SmallVector<const VarState *, 4> Paths;
    for (const auto &Nb : Ns) {
      if (!Reached.count(Nb.Block))
        continue;
      const VarState *Out = Nb.Out;
      if (singleRankEdge(U, Nb.Block, B, *Nb.Out)) {
        Marked.push_back(*Nb.Out);
        makeSingleRank(Marked.back());
        Out = &Marked.back();
      } else if (auto Edge = rankEdge(U, Nb.Block, B, *Nb.Out)) {
        Marked.push_back(*Nb.Out);
        if (Edge->Only)
          markRootOnly(Marked.back(), Edge->Rank);
        else
          markExceptRank(Marked.back(), Edge->Rank);
        Out = &Marked.back();
      }
      Paths.push_back(Out);
    }
    adoptRootValues(Paths, Marked);
    for (const VarState *Out : Paths) {
      if (First)
        In = *Out;
      else
        mergePathStatesInto(In, *Out);
      First = false;
    }
    // Decided once all paths into the block are merged.
    auto It = Ctl.find(B);
    decidePendingStates(In, It != Ctl.end() ? It->second : Taint());
    return In;
  }
  void transfer(const CFGBlock *B, VarState &S) {
    Reached.insert(B);
    U.enterBlock(B);
    for (const CFGElement &El : *B)
      U.transfer(El, S, Ctl[B]);
  }
  bool equal(const VarState &A, const VarState &B) const {
    return sameState(A, B);
  }
  void widen(const CFGBlock *, const VarState &Old, VarState &New) {
    widenState(Old, New);
  }
};
} // namespace

void UniformityAnalysis::run() { runRounds(P.Limits.BranchRounds); }

void UniformityAnalysis::rerun(
    llvm::ArrayRef<FunctionResult::SeedBranch> ControlSeed) {
  // Block IDs name the same blocks in every CFG Clang builds of the body.
  const CFG &Graph = R.Body->Facts->cfg();
  std::vector<const CFGBlock *> ById(Graph.getNumBlockIDs());
  for (const CFGBlock *B : Graph)
    ById[B->getBlockID()] = B;
  R.Body->BranchTaint.clear();
  for (const FunctionResult::SeedBranch &Seed : ControlSeed)
    if (Seed.BlockId < ById.size() && ById[Seed.BlockId]) {
      Taint T;
      T.Vary = Seed.Vary;
      T.Origin = Seed.Origin;
      T.Params = Seed.Params;
      R.Body->BranchTaint[ById[Seed.BlockId]] = T;
    }
  runRounds(1);
}

void UniformityAnalysis::runRounds(int Rounds) {
  const auto &RPO = R.Body->Facts->reversePostOrder();
  llvm::SaveAndRestore<bool> Rounding(InRounds, true);
  // The writes of the round that returns (its control is the final one).
  auto Commit = llvm::make_scope_exit([this] { commitFieldWrites(); });
  for (int Outer = 0; Outer < Rounds; ++Outer) {
    RoundFieldWrites.clear();
    R.Body->In.clear();
    R.Body->Checkpoints.clear();
    R.ReturnTaint = Taint();
    R.ReturnTaint.UniformContent = true;
    R.ReturnsSeen = 0;
    R.ReturnFields.clear();
    R.ReturnFieldsUnknown = false;
    R.Body->setHangArms(hangArms());
    llvm::DenseMap<const CFGBlock *, Taint> Ctl;
    for (const CFGBlock *B : RPO)
      Ctl[B] = controlTaint(B);
    UniformityProblem Problem{*this, Ctl};
    auto Sol = solver::solve(R.Body->Facts->cfg(), Problem,
                             solver::SolverLimits{P.Limits.SolverVisitsPerBlock,
                                                  P.Limits.WidenAfter});
    if (Sol.BudgetHit)
      P.Limits.hit("solver visits", FD ? FD->getNameAsString() : "<global>");
    // The solution is this round's own: its states move, not copy.
    R.Body->In = llvm::DenseMap<const CFGBlock *, VarState>(RPO.size());
    for (const CFGBlock *B : RPO)
      R.Body->In[B] = std::move(Sol.In[B->getBlockID()]);
    auto Out = [&Sol](const CFGBlock *B) -> const VarState & {
      return Sol.out(B);
    };
    // Branch conditions at the end of their block.
    llvm::DenseMap<const CFGBlock *, Taint> NewBranch;
    for (const CFGBlock *B : RPO) {
      const Stmt *Cond = B->getTerminatorCondition(/*StripParens=*/true);
      if (!Cond || !isa<Expr>(Cond))
        continue;
      NewBranch[B] = eval(cast<Expr>(Cond), Out(B));
      // A range-for runs once per element: the same number of times on
      // every rank when only the elements differ, not the length.
      if (const auto *FR =
              dyn_cast_or_null<CXXForRangeStmt>(B->getTerminatorStmt()))
        if (const Expr *Range = FR->getRangeInit()) {
          Taint RT = eval(Range, Out(B));
          if (!RT.depends() || (RT.Vary && RT.ContentOnly && !RT.Params)) {
            Taint Same;
            Same.UniformContent = true;
            NewBranch[B] = Same;
          } else if (RT.Params && (!RT.Vary || RT.ContentOnly)) {
            // The trip count follows the length of what the callers pass
            // (elements that differ here do not change it): ContentOnly on
            // a parameter-only taint marks "shape only".
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
    R.ReturnFields.clear();
    R.ReturnFieldsUnknown = false;
    R.Body->AllPoints.clear();
    VaryWrittenFields.clear();
    Escapes.clear();
    // Only the escapes of a method of the object decide anything
    // (noteWriterAgreement).
    const bool OwnObject = ownObjectMethod(FD);
    CountingEscapes = OwnObject;
    FieldEvents.clear();
    RecordingFieldEvents = true;
    const CFGBlock *Exit = &R.Body->Facts->cfg().getExit();
    std::optional<VarState> Returned;
    for (const CFGBlock *B : RPO) {
      VarState S = R.Body->In[B];
      enterBlock(B);
      for (const CFGElement &El : *B)
        transfer(El, S, Ctl[B]);
      mergePathStatesInto(R.Body->AllPoints, S);
      // Where the function returns: the paths into its exit that do not
      // end the job (`exit(1)` after a failed parse also leads there).
      if (OwnObject && B != Exit && !R.Body->Doomed.count(B) &&
          llvm::is_contained(B->succs(), Exit)) {
        if (Returned)
          mergePathStatesInto(*Returned, S);
        else
          Returned = S;
      }
    }
    noteWriterAgreement(Returned ? &*Returned : nullptr);
    CountingEscapes = false;
    RecordingFieldEvents = false;
    decideWriterAgreement();
    bool Stable = NewBranch.size() == R.Body->BranchTaint.size();
    if (Stable)
      for (auto &[B, T] : NewBranch) {
        auto It = R.Body->BranchTaint.find(B);
        if (It == R.Body->BranchTaint.end() || !It->second.sameAs(T) ||
            It->second.Vary != T.Vary) {
          Stable = false;
          break;
        }
      }
    // The control this round ran under: one round from it gives this
    // round's states again (rerun). Branches that depend on nothing add
    // nothing to a control taint.
    R.ControlSeed.clear();
    R.ControlSeed.reserve(
        llvm::count_if(R.Body->BranchTaint,
                       [](const auto &BT) { return BT.second.depends(); }));
    for (const auto &[B, T] : R.Body->BranchTaint)
      if (T.depends())
        R.ControlSeed.push_back({B->getBlockID(), T.Vary, T.Origin, T.Params});
    // Sized to fit: a DenseMap that grows starts at 64 buckets.
    R.Body->BranchTaint = llvm::DenseMap<const CFGBlock *, Taint>(
        NewBranch.begin(), NewBranch.end());
    if (Stable)
      return;
  }
  P.Limits.hit("branch rounds", FD ? FD->getNameAsString() : "<global>");
}

VarState UniformityAnalysis::stateBefore(const CFGBlock *B,
                                         const Stmt *Target) {
  size_t Stop = R.Body->Facts->elementIndexOf(B, Target);
  // Checkpoints hold plain replays only: not those of a specialized or
  // rank-controlled analysis.
  constexpr size_t kReplayStride = 32;
  bool Cacheable = !BoundArgs && !ControlVaries;
  size_t Known = 0; // Checkpoints already saved for B.
  size_t From = 0;
  VarState S;
  if (Cacheable) {
    FunctionBody::ReplayCheckpoints &Saved = R.Body->Checkpoints[B];
    if (Saved.Stamp != P.growthStamp()) {
      Saved.States.clear();
      Saved.Stamp = P.growthStamp();
    }
    if (Saved.States.empty())
      Saved.States.push_back(R.Body->In.lookup(B));
    Known = Saved.States.size();
    size_t K = std::min(Stop / kReplayStride, Known - 1);
    From = K * kReplayStride;
    S = Saved.States[K];
  } else {
    S = R.Body->In.lookup(B);
  }
  unsigned Stamp = P.growthStamp();
  std::vector<VarState> Fresh; // Checkpoints past the saved ones.
  Taint Ctl = controlTaint(B);
  enterBlock(B);
  for (size_t I = From; I < Stop; ++I) {
    transfer((*B)[I], S, Ctl);
    if (Cacheable && (I + 1) % kReplayStride == 0 &&
        (I + 1) / kReplayStride == Known + Fresh.size())
      Fresh.push_back(S);
  }
  // A replay that grew the TU facts saw them change midway: keep nothing.
  if (Cacheable && !Fresh.empty() && Stamp == P.growthStamp()) {
    FunctionBody::ReplayCheckpoints &Saved = R.Body->Checkpoints[B];
    if (Saved.Stamp == Stamp && Saved.States.size() == Known)
      for (VarState &F : Fresh)
        Saved.States.push_back(std::move(F));
  }
  return S;
}

} // namespace distlint
