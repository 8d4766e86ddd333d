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

#include "engine/cfg/FixedConditions.h"

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
  const FixedConditionSides Arms(E, FD->getBody(),
                                 R.Body->liveControlDependencies(Block), Block);
  const CFGBlock *Exit = &R.Body->Facts->cfg().getExit();
  llvm::SmallVector<const CFGBlock *, 16> Work(Block->succ_begin(),
                                               Block->succ_end());
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  bool Agrees = false, LeftOnSomeRanks = false;
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!B || !Seen.insert(B).second || R.Body->Doomed.count(B) ||
        R.Body->ErrorPaths.count(B))
      continue; // The job ends there: nothing reads the field.
    // The writers leave while the others wait in a collective: a hang.
    if (R.Body->HangArms.count(B)) {
      LeftOnSomeRanks = true;
      continue;
    }
    if (B == Exit)
      return false;
    if (auto Here = Decides(B, 0)) {
      if (!*Here)
        return false;
      Agrees = true;
      continue;
    }
    std::optional<unsigned> Arm = Arms.sideAt(B);
    if (Arm)
      Work.push_back(B->succ_begin()[*Arm]);
    else
      Work.append(B->succ_begin(), B->succ_end());
  }
  // Left on some ranks only: if an agreement waits for them (else nobody
  // hangs, and the writers' value is seen after the return).
  return Agrees || !LeftOnSomeRanks;
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
