//===- TuFactsTest.cpp - Laws of the TU-wide facts ------------------------===//
//
// TuFacts (engine/lattice/TuFacts.h) grows in rounds: joins must be
// commutative, associative and idempotent, and an upper bound; noting the
// same writes in any order must give the same facts; every note says whether
// it grew the facts, and the stamp moves exactly then; and the height is
// finite (a field whose range keeps changing widens once, to unknown).
//
//===----------------------------------------------------------------------===//
#include "engine/lattice/TuFacts.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace distlint;

namespace {

// Stand-ins for declarations: the facts key on their addresses only.
const clang::FieldDecl *field(unsigned I) {
  return reinterpret_cast<const clang::FieldDecl *>(
      uintptr_t(0x10000 + 64 * I));
}
const clang::VarDecl *var(unsigned I) {
  return reinterpret_cast<const clang::VarDecl *>(uintptr_t(0x20000 + 64 * I));
}
const clang::FunctionDecl *function(unsigned I) {
  return reinterpret_cast<const clang::FunctionDecl *>(
      uintptr_t(0x30000 + 64 * I));
}

Taint rankValue() {
  Taint T = Taint::varying(VaryKind::Rank, {}, "rank");
  T.IsRank = true;
  return T;
}
Taint localValue() { return Taint::varying(VaryKind::LocalData, {}, "clock"); }
/// Rank-dependent values of a uniform length (`v.push_back(rank)`).
Taint contentOnly() {
  Taint T = rankValue();
  T.IsRank = false;
  T.ContentOnly = true;
  return T;
}
Taint constant(int64_t V) { return Taint::constant(V); }

/// One write the data-flow may note.
struct Write {
  enum Kind {
    Global,
    FieldVaries,
    FieldValue,
    SubComm,
    SubCommField,
    FieldPending,
    FieldAgreed,
    FieldSiteVaries
  } K;
  unsigned Target;
  Taint Value;
  bool Sub = false; ///< SubCommField: a sub-communicator written.
  bool applyTo(TuFacts &F) const {
    switch (K) {
    case Global:
      return F.noteGlobalWrite(var(Target), Value);
    case FieldVaries:
      return F.noteFieldVaries(field(Target), Value);
    case FieldValue:
      return F.noteFieldValue(field(Target), Value);
    case SubComm:
      return F.noteSubCommunicator(var(Target + 8));
    case SubCommField:
      return F.noteFieldCommunicator(field(Target + 8), Sub);
    case FieldPending:
      return F.noteFieldPendingVary(field(Target + 16), Value);
    case FieldAgreed:
      return F.noteFieldAgreed(field(Target + 16), function(Target));
    case FieldSiteVaries: // Site Target % 2 of function 0, on some ranks
                          // only when Sub.
      return F.noteFieldVaries(field(16), Value, function(0), Target % 2, Sub);
    }
    return false;
  }
};

std::vector<Write> writes() {
  std::vector<Write> Out;
  const Taint Values[] = {contentOnly(), rankValue(), localValue(),
                          constant(0),   constant(4), Taint()};
  for (unsigned T = 0; T < 2; ++T)
    for (const Taint &V : Values) {
      Out.push_back({Write::Global, T, V});
      Out.push_back({Write::FieldVaries, T, V});
      Out.push_back({Write::FieldValue, T, V});
    }
  Out.push_back({Write::SubComm, 0, Taint()});
  Out.push_back({Write::SubComm, 1, Taint()});
  for (unsigned T = 0; T < 2; ++T)
    for (bool Sub : {true, false, true})
      Out.push_back({Write::SubCommField, T, Taint(), Sub});
  for (unsigned T = 0; T < 2; ++T) {
    Out.push_back({Write::FieldPending, T, rankValue()});
    Out.push_back({Write::FieldAgreed, T, Taint()});
  }
  for (unsigned T = 0; T < 2; ++T)
    for (bool Some : {false, true})
      Out.push_back({Write::FieldSiteVaries, T, localValue(), Some});
  return Out;
}

/// Facts from a slice of the writes, for the join laws.
std::vector<TuFacts> samples() {
  std::vector<Write> W = writes();
  std::vector<TuFacts> Out(1); // The empty facts: bottom.
  for (size_t Start = 0; Start < W.size(); Start += 3)
    for (size_t Len : {size_t(1), size_t(4), size_t(9)}) {
      TuFacts F;
      for (size_t I = Start; I < std::min(W.size(), Start + Len); ++I)
        W[I].applyTo(F);
      Out.push_back(F);
    }
  return Out;
}

TuFacts joined(TuFacts A, const TuFacts &B) {
  A.join(B);
  return A;
}

TEST(TuFacts, JoinIsCommutativeAssociativeIdempotentAndAnUpperBound) {
  std::vector<TuFacts> S = samples();
  ASSERT_GT(S.size(), 10u);
  for (const TuFacts &A : S) {
    EXPECT_TRUE(joined(A, A) == A);
    EXPECT_TRUE(joined(A, TuFacts()) == A); // The empty facts are bottom.
    for (const TuFacts &B : S) {
      TuFacts AB = joined(A, B);
      EXPECT_TRUE(AB == joined(B, A));
      EXPECT_TRUE(joined(AB, A) == AB); // A <= A join B.
      EXPECT_TRUE(joined(AB, B) == AB);
      for (size_t K = 0; K < S.size(); K += 5)
        EXPECT_TRUE(joined(AB, S[K]) == joined(A, joined(B, S[K])));
    }
  }
}

TEST(TuFacts, TheOrderOfTheWritesDoesNotMatter) {
  std::vector<Write> W = writes();
  TuFacts Forward, Backward, Interleaved;
  for (const Write &X : W)
    X.applyTo(Forward);
  for (auto It = W.rbegin(); It != W.rend(); ++It)
    It->applyTo(Backward);
  for (size_t I = 0; I < W.size(); I += 2)
    W[I].applyTo(Interleaved);
  for (size_t I = 1; I < W.size(); I += 2)
    W[I].applyTo(Interleaved);
  EXPECT_TRUE(Forward == Backward);
  EXPECT_TRUE(Forward == Interleaved);
  // Every write noted separately and joined gives the same facts.
  TuFacts Joined;
  for (const Write &X : W) {
    TuFacts One;
    X.applyTo(One);
    Joined.join(One);
  }
  EXPECT_TRUE(Joined == Forward);
}

TEST(TuFacts, TheStampMovesExactlyWhenANoteGrowsTheFacts) {
  TuFacts F;
  for (const Write &X : writes()) {
    unsigned Before = F.stamp();
    TuFacts Copy = F;
    bool Grew = X.applyTo(F);
    EXPECT_EQ(Grew, F.stamp() != Before);
    EXPECT_EQ(Grew, !(Copy == F));
    // The same write again changes nothing.
    unsigned After = F.stamp();
    EXPECT_FALSE(X.applyTo(F));
    EXPECT_EQ(F.stamp(), After);
  }
  EXPECT_TRUE(F.globalVary(var(0)));
  EXPECT_FALSE(F.globalIsRank(var(0))); // A local value was written too.
  EXPECT_TRUE(F.isSubCommunicator(var(8)));
  EXPECT_FALSE(F.isSubCommunicator(var(0)));
}

TEST(TuFacts, AFieldWrittenOnlyTheRankHoldsTheRank) {
  TuFacts F;
  EXPECT_TRUE(F.noteFieldVaries(field(3), rankValue()));
  F.noteFieldValue(field(3), rankValue());
  EXPECT_TRUE(F.fieldIsRank(field(3)));
  EXPECT_TRUE(F.noteFieldValue(field(3), constant(2))); // Falls, once.
  EXPECT_FALSE(F.fieldIsRank(field(3)));
  EXPECT_FALSE(F.noteFieldValue(field(3), rankValue()));
  EXPECT_FALSE(F.fieldIsRank(field(3)));
  EXPECT_FALSE(F.noteFieldVaries(field(4), constant(1))); // Not varying.
  EXPECT_EQ(F.fieldVary(field(4)), nullptr);
}

TEST(TuFacts, AFieldHoldsASubCommunicatorOnlyIfEveryWriteIsOne) {
  TuFacts F, G;
  EXPECT_FALSE(F.isSubCommunicatorField(field(7))); // Nothing written.
  EXPECT_TRUE(F.noteFieldCommunicator(field(7), true));
  EXPECT_TRUE(F.isSubCommunicatorField(field(7)));
  EXPECT_FALSE(F.noteFieldCommunicator(field(7), true));
  EXPECT_TRUE(F.noteFieldCommunicator(field(7), false)); // Falls, once.
  EXPECT_FALSE(F.isSubCommunicatorField(field(7)));
  EXPECT_FALSE(F.noteFieldCommunicator(field(7), true));
  EXPECT_FALSE(F.isSubCommunicatorField(field(7)));
  // The world written first: a later split does not make it one.
  G.noteFieldCommunicator(field(7), false);
  G.noteFieldCommunicator(field(7), true);
  EXPECT_FALSE(G.isSubCommunicatorField(field(7)));
  EXPECT_TRUE(F == G);
}

TEST(TuFacts, ACounterFieldWidensOnceToUnknown) {
  TuFacts F;
  EXPECT_TRUE(F.noteFieldValue(field(5), constant(0)));
  ASSERT_TRUE(F.fieldRange(field(5)).has_value());
  EXPECT_FALSE(F.noteFieldValue(field(5), constant(0)));
  EXPECT_TRUE(F.noteFieldValue(field(5), constant(1)));
  EXPECT_FALSE(F.fieldRange(field(5)).has_value());
  unsigned Stamp = F.stamp();
  for (int64_t V = 2; V < 50; ++V)
    EXPECT_FALSE(F.noteFieldValue(field(5), constant(V)));
  EXPECT_EQ(F.stamp(), Stamp);
}

TEST(TuFacts, ALaterWriteWidensWhatVaries) {
  // Pushed rank values first (the length agrees), then pushes under a
  // rank-dependent loop: the length varies too, whichever comes first.
  TuFacts F, G;
  EXPECT_TRUE(F.noteFieldVaries(field(6), contentOnly()));
  ASSERT_TRUE(F.fieldVary(field(6)));
  EXPECT_TRUE(F.fieldVary(field(6))->ContentOnly);
  EXPECT_TRUE(F.noteFieldVaries(field(6), localValue()));
  EXPECT_FALSE(F.fieldVary(field(6))->ContentOnly);
  EXPECT_FALSE(F.noteFieldVaries(field(6), contentOnly())); // Never narrows.
  EXPECT_FALSE(F.fieldVary(field(6))->ContentOnly);
  G.noteFieldVaries(field(6), localValue());
  G.noteFieldVaries(field(6), contentOnly());
  EXPECT_TRUE(F == G);
}

} // namespace

namespace {
// `if (rank == 0) cfg.every = 5;`: the field differs between ranks, until
// some collective writes it (then the reads get what the paths agreed on),
// whichever of the two the rounds see first.
TEST(TuFacts, AValueWrittenOnSomeRanksVariesUnlessACollectiveAgreesOnIt) {
  TuFacts PendingFirst, AgreedFirst, NotAgreed;
  ASSERT_TRUE(PendingFirst.noteFieldPendingVary(field(40), rankValue()));
  EXPECT_NE(PendingFirst.fieldVary(field(40)), nullptr);
  EXPECT_TRUE(PendingFirst.noteFieldAgreed(field(40)));
  EXPECT_EQ(PendingFirst.fieldVary(field(40)), nullptr);
  EXPECT_FALSE(PendingFirst.noteFieldAgreed(field(40)));

  AgreedFirst.noteFieldAgreed(field(40));
  AgreedFirst.noteFieldPendingVary(field(40), rankValue());
  EXPECT_EQ(AgreedFirst.fieldVary(field(40)), nullptr);
  EXPECT_TRUE(AgreedFirst == PendingFirst);

  // Only a varying (settled) value is noted; another field stays apart.
  EXPECT_FALSE(NotAgreed.noteFieldPendingVary(field(41), constant(5)));
  NotAgreed.noteFieldPendingVary(field(41), rankValue());
  NotAgreed.noteFieldAgreed(field(40));
  EXPECT_NE(NotAgreed.fieldVary(field(41)), nullptr);
  // A varying write proper is not undone by an agreement.
  NotAgreed.noteFieldVaries(field(40), rankValue());
  EXPECT_NE(NotAgreed.fieldVary(field(40)), nullptr);
}
} // namespace

namespace {
// A function that writes a field on some ranks and agrees it (a parse on the
// root, then its broadcast) agrees its own write only: another function's
// write on some ranks (a reset on the root alone) still varies, until a
// function that does not write the field agrees it (a sync() method, a
// caller that broadcasts after the writer returns).
TEST(TuFacts, AWritersOwnAgreementCoversItsOwnWriteOnly) {
  const clang::FieldDecl *Sweeps = field(50);
  const clang::FunctionDecl *Init = function(1), *Reset = function(2),
                            *Sync = function(3);
  TuFacts F;
  F.noteFieldPendingVary(Sweeps, rankValue());
  F.noteFieldVaryWriter(Sweeps, Init);
  F.noteFieldAgreed(Sweeps, Init);
  EXPECT_EQ(F.fieldVary(Sweeps), nullptr);
  EXPECT_TRUE(F.noteFieldVaryWriter(Sweeps, Reset));
  EXPECT_NE(F.fieldVary(Sweeps), nullptr);
  // The writer agreeing too settles it again.
  TuFacts BothAgree = F;
  BothAgree.noteFieldAgreed(Sweeps, Reset);
  EXPECT_EQ(BothAgree.fieldVary(Sweeps), nullptr);
  // So does an agreement by a function that writes nothing there.
  EXPECT_TRUE(F.noteFieldAgreed(Sweeps, Sync));
  EXPECT_EQ(F.fieldVary(Sweeps), nullptr);
  EXPECT_FALSE(F.noteFieldAgreed(Sweeps, Sync));
  // Joins keep who agreed: the join of the two is the union.
  TuFacts J;
  J.join(BothAgree);
  EXPECT_FALSE(J == F);
  J.join(F);
  TuFacts K = F;
  K.join(BothAgree);
  EXPECT_TRUE(J == K);
}
} // namespace

namespace {
// `if (rank == 0) d->cut = 3 * avg;` followed on every path by
// `MPI_Bcast(&d->cut, ...)` in the same tuning call: the field is agreed for
// every reader. A site the first rounds saw as varying (its branch not yet
// known to differ) becomes agreed once, for good.
TEST(TuFacts, AVaryingValueItsWriterAgreesLeavesTheFieldAgreed) {
  TuFacts F;
  const clang::FieldDecl *Cut = field(50);
  EXPECT_TRUE(F.noteFieldVaries(Cut, localValue(), function(1), 7, false));
  EXPECT_NE(F.fieldVary(Cut), nullptr);
  EXPECT_TRUE(F.noteFieldVaries(Cut, localValue(), function(1), 7, true));
  EXPECT_EQ(F.fieldVary(Cut), nullptr);
  EXPECT_FALSE(F.noteFieldVaries(Cut, localValue(), function(1), 7, false));
  EXPECT_EQ(F.fieldVary(Cut), nullptr); // Never back.
  // Another site that its writer does not agree: varies.
  EXPECT_TRUE(F.noteFieldVaries(Cut, localValue(), function(2), 7, false));
  EXPECT_NE(F.fieldVary(Cut), nullptr);
  EXPECT_FALSE(F.fieldVariesByBranchOnly(Cut));
  // The same notes in the other order give the same facts.
  TuFacts G;
  G.noteFieldVaries(Cut, localValue(), function(2), 7, false);
  G.noteFieldVaries(Cut, localValue(), function(1), 7, true);
  G.noteFieldVaries(Cut, localValue(), function(1), 7, false);
  EXPECT_TRUE(F == G);
}
} // namespace
