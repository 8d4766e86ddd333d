//===- WriterAgreement.cpp - A root's write agreed before it is seen ------===//
//
// `if (rank == 0 && tune) d->cut = 3 * avg;` then `if (tune)
// MPI_Bcast(&d->cut, ...)`: the value differs between ranks only until the
// broadcast, which every path from the write reaches before the function
// returns or hands the object to another call. Such a write leaves the field
// agreed for every later reader (TuFacts::noteFieldVaries). The paths are
// followed on the CFG; a branch on the same condition that the write sits
// under, whose inputs the function never writes, takes the write's arm (the
// ranks that wrote took it: the broadcast under `if (tune)` is theirs).
//
//===----------------------------------------------------------------------===//
#include "engine/uniformity/UniformityAnalysis.h"

#include "engine/Values.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/FoldingSet.h"

using namespace clang;

namespace distlint {

void UniformityAnalysis::noteAgreedHere(const FieldDecl *F) {
  P.Tu.noteFieldAgreed(F, FD);
  if (RecordingFieldEvents && CurrentBlock)
    FieldEvents.push_back({CurrentBlock, CurrentElement, F, nullptr});
}

void UniformityAnalysis::noteObjectSeen(const RecordDecl *Object) {
  if (RecordingFieldEvents && CurrentBlock)
    FieldEvents.push_back({CurrentBlock, CurrentElement, nullptr, Object});
}

namespace {
/// Does Body change what Cond reads: a variable it names, or a field it
/// reads (assigned, incremented, its address taken)?
class ChangesCondition : public RecursiveASTVisitor<ChangesCondition> {
public:
  ChangesCondition(Engine &E, const Stmt *Body) : E(E), Body(Body) {}
  bool changes(const Expr *Cond) {
    Vars.clear();
    Fields.clear();
    Reads(*this).TraverseStmt(const_cast<Expr *>(Cond));
    for (const VarDecl *VD : Vars)
      if (isWrittenIn(E, VD, Body))
        return true;
    Found = false;
    if (!Fields.empty())
      TraverseStmt(const_cast<Stmt *>(Body));
    return Found;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      noteWrite(B->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      noteWrite(U->getSubExpr());
    return !Found;
  }

private:
  struct Reads : RecursiveASTVisitor<Reads> {
    ChangesCondition &Outer;
    explicit Reads(ChangesCondition &Outer) : Outer(Outer) {}
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Outer.Vars.push_back(VD);
      return true;
    }
    bool VisitMemberExpr(MemberExpr *M) {
      if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
        Outer.Fields.push_back(F);
      return true;
    }
  };
  void noteWrite(const Expr *X) {
    const auto *M = dyn_cast<MemberExpr>(X->IgnoreParenImpCasts());
    Found |= M && llvm::is_contained(Fields, M->getMemberDecl());
  }
  Engine &E;
  const Stmt *Body;
  llvm::SmallVector<const VarDecl *, 4> Vars;
  llvm::SmallVector<const Decl *, 4> Fields;
  bool Found = false;
};

/// The condition B's last element tests (`b` of `a && b`: its block ends
/// the `if`, whose own condition is the whole `a && b`).
const Expr *branchCondition(const CFGBlock *B) {
  if (B->succ_size() != 2)
    return nullptr;
  const Expr *Cond = B->getLastCondition();
  if (!Cond)
    Cond = dyn_cast_or_null<Expr>(B->getTerminatorCondition(/*Strip=*/true));
  return Cond ? Cond->IgnoreParenImpCasts() : nullptr;
}

/// Can To be reached from From without passing Avoid?
bool reachesAvoiding(const CFGBlock *From, const CFGBlock *To,
                     const CFGBlock *Avoid) {
  llvm::SmallVector<const CFGBlock *, 16> Work{From};
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!B || B == Avoid || !Seen.insert(B).second)
      continue;
    if (B == To)
      return true;
    Work.append(B->succ_begin(), B->succ_end());
  }
  return false;
}
} // namespace

bool UniformityAnalysis::agreedBeforeSeen(const FieldDecl *F,
                                          const CFGBlock *Block,
                                          unsigned Element,
                                          const EventsByBlock &EventsOf) {
  // The first event of the block at or after Element that decides: an
  // agreement of F, or an object of F's class handed to a call.
  auto Decides = [&](const CFGBlock *B, unsigned From) -> std::optional<bool> {
    const FieldEvent *First = nullptr;
    auto Events = EventsOf.find(B);
    if (Events == EventsOf.end())
      return std::nullopt;
    const Decl *Class = F->getParent()->getCanonicalDecl();
    for (const FieldEvent *X : Events->second) {
      bool Relevant =
          X->Agreed ? X->Agreed == F
                    : !X->Object || X->Object->getCanonicalDecl() == Class;
      if (Relevant && X->Element >= From &&
          (!First || X->Element < First->Element))
        First = X;
    }
    if (!First)
      return std::nullopt;
    return First->Agreed == F;
  };
  if (auto Here = Decides(Block, Element))
    return *Here;
  // The arms the write sits under, on conditions the function never changes.
  llvm::SmallVector<std::pair<llvm::FoldingSetNodeID, unsigned>, 4> Arms;
  ChangesCondition Changes(E, FD->getBody());
  for (const CFGBlock *Dep : R.Body->liveControlDependencies(Block)) {
    const Expr *Cond = branchCondition(Dep);
    if (!Cond || Changes.changes(Cond))
      continue;
    const CFGBlock *Taken = Dep->succ_begin()[0];
    const CFGBlock *Other = Dep->succ_begin()[1];
    bool ToTaken = Taken && reachesAvoiding(Taken, Block, Dep);
    bool ToOther = Other && reachesAvoiding(Other, Block, Dep);
    if (ToTaken == ToOther)
      continue;
    llvm::FoldingSetNodeID Id;
    Cond->Profile(Id, E.context(), /*Canonical=*/true);
    Arms.push_back({Id, ToTaken ? 0u : 1u});
  }
  const CFGBlock *Exit = &R.Body->Facts->cfg().getExit();
  llvm::SmallVector<const CFGBlock *, 16> Work(Block->succ_begin(),
                                               Block->succ_end());
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!B || !Seen.insert(B).second || R.Body->Doomed.count(B) ||
        R.Body->ErrorPaths.count(B))
      continue; // The job ends there: nothing reads the field.
    if (B == Exit)
      return false;
    if (auto Here = Decides(B, 0)) {
      if (!*Here)
        return false;
      continue;
    }
    std::optional<unsigned> Arm;
    if (const Expr *Cond = Arms.empty() ? nullptr : branchCondition(B)) {
      llvm::FoldingSetNodeID Id;
      Cond->Profile(Id, E.context(), /*Canonical=*/true);
      for (const auto &[Known, Taken] : Arms)
        if (Known == Id)
          Arm = Taken;
    }
    if (Arm)
      Work.push_back(B->succ_begin()[*Arm]);
    else
      Work.append(B->succ_begin(), B->succ_end());
  }
  return true;
}

void UniformityAnalysis::decideWriterAgreement() {
  EventsByBlock EventsOf;
  for (const FieldEvent &X : FieldEvents)
    EventsOf[X.Block].push_back(&X);
  llvm::DenseMap<unsigned, const CFGBlock *> BlockById;
  for (const CFGBlock *B : R.Body->Facts->cfg())
    BlockById[B->getBlockID()] = B;
  for (auto &[Site, W] : RoundFieldWrites) {
    W.AgreedHere = false;
    if (!W.SomeRanksOnly || Site.second == ~0u)
      continue;
    const CFGBlock *Block = BlockById.lookup(Site.second);
    W.AgreedHere =
        Block && agreedBeforeSeen(Site.first, Block, W.Element, EventsOf);
  }
}

} // namespace distlint
