//===- Divergence.cpp - Where two rank classes first disagree -------------===//
#include "engine/collectives/Divergence.h"

#include "engine/Engine.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/collectives/SequenceBuilder.h"

using namespace clang;

namespace distlint {
namespace collectives {

std::optional<OrderDifference> orderDifference(Engine &E,
                                               const FunctionDecl *FD,
                                               const CFGBlock *Branch,
                                               bool WholeJoin) {
  FactsRef F = FD ? E.facts(FD) : FactsRef();
  if (!F || !Branch)
    return std::nullopt;
  CalleeTrees Callees;
  SequenceBuilder SB(E, *F, Callees);
  std::vector<NodeRef> Arms = SB.arms(Branch, WholeJoin);
  CompareBudget Budget;
  Budget.Steps = E.limits().SequenceSteps;
  std::optional<FirstDifference> Found;
  // The first pair of arms (in successor order) that differs.
  for (size_t I = 0; I < Arms.size() && !Found && !Budget.Exhausted; ++I)
    for (size_t J = I + 1; J < Arms.size() && !Found; ++J)
      Found = firstDifference(Arms[I], Arms[J], Budget);
  if (Budget.Exhausted || SB.budgetHit())
    noteBudgetHit(E,
                  Budget.Exhausted ? "collective-sequence comparison steps"
                                   : "collective-sequence blocks",
                  FD);
  if (!Found)
    return std::nullopt;
  auto IsCollective = [](const Side &S) {
    return S.Tok && S.Tok->Kind == TokenKind::Collective;
  };
  OrderDifference D;
  D.Why = Found->Why;
  D.Here = Found->A;
  D.Other = Found->B;
  if (!IsCollective(D.Here))
    std::swap(D.Here, D.Other);
  if (!IsCollective(D.Here))
    return std::nullopt;
  return D;
}

std::optional<OrderDifference> orderDifference(Engine &E,
                                               const Stmt *Terminator) {
  const FunctionDecl *FD = E.enclosingFunction(Terminator);
  FactsRef F = FD ? E.facts(FD) : FactsRef();
  if (!F)
    return std::nullopt;
  for (const CFGBlock *B : F->reversePostOrder())
    if (B->getTerminatorStmt() == Terminator)
      return orderDifference(E, FD, B);
  return std::nullopt;
}

} // namespace collectives
} // namespace distlint
