//===- SequenceCompare.cpp - Two collective sequences side by side --------===//
//
// firstDifference(): runs two sequence trees as the ranks of two classes
// would issue them, choice by choice under one valuation of the uniform
// choices, and reports the first position where they differ (a different
// collective, one side done, a blocking point-to-point facing a collective
// no third class can complete).
//
//===----------------------------------------------------------------------===//
#include "engine/collectives/Sequence.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace distlint {
namespace collectives {

namespace {

/// Where one side stands: the nodes still to issue (top = next), each with
/// the outermost call of the compared code that leads to it.
struct Cursor {
  struct Frame {
    const Node *N;
    const clang::CallExpr *Site;
  };
  llvm::SmallVector<Frame, 16> Stack;
  unsigned Position = 0;
  /// Sends and receives this side posted that no blocking call of the
  /// other side has used yet.
  unsigned Posted = 0;
  /// This side passed a choice whose other option posts one (a loop over
  /// peers run zero times, say): on some runs it did post.
  bool MayHavePosted = false;
};

/// Does the subtree post a send or receive (memoized: trees share nodes)?
bool postsAny(const Node *N, llvm::DenseMap<const Node *, bool> &Memo) {
  if (!N)
    return false;
  if (N->Kind == NodeKind::Token)
    return N->Tok.Kind == TokenKind::PostedPointToPoint;
  auto [It, New] = Memo.try_emplace(N, false);
  if (!New)
    return It->second;
  bool Any = false;
  for (const NodeRef &K : N->Kids)
    Any = Any || postsAny(K.get(), Memo);
  Memo[N] = Any;
  return Any;
}

/// Choices made so far: (key, option). Uniform and per-statement keys live
/// in separate spaces.
using Valuation = llvm::SmallVector<std::pair<uint64_t, unsigned>, 8>;

uint64_t slot(ChoiceKey K) { return K.Id * 2 + (K.Uniform ? 1 : 0); }

/// Set once a test of Subject against a constant holds.
uint64_t equalitySlot(uint64_t Subject) {
  return uint64_t(size_t(llvm::hash_combine(Subject, 0x5eed))) * 2 + 1;
}

/// The option of K's node taken under V (the key's option, swapped for a
/// negated two-way branch).
std::optional<unsigned> chosen(const Valuation &V, ChoiceKey K) {
  std::optional<unsigned> Option;
  for (const auto &[Key, O] : V)
    if (Key == slot(K))
      Option = O;
  // The value equals another constant: this test fails.
  if (!Option && K.Subject)
    for (const auto &[Key, O] : V)
      if (Key == equalitySlot(K.Subject))
        Option = 1;
  if (Option && K.Negated && *Option < 2)
    return 1 - *Option;
  return Option;
}

struct Pending {
  ChoiceKey Key;
  unsigned Options;
};

/// Expands the top of C until it is a token, a fail-stop or nothing; stops
/// at a choice not made yet.
std::optional<Pending> normalize(Cursor &C, const Valuation &V,
                                 llvm::DenseMap<const Node *, bool> &Posts) {
  while (!C.Stack.empty()) {
    Cursor::Frame F = C.Stack.back();
    switch (F.N->Kind) {
    case NodeKind::Token:
    case NodeKind::FailStop:
      return std::nullopt;
    case NodeKind::Empty:
      C.Stack.pop_back();
      break;
    case NodeKind::Seq:
      C.Stack.pop_back();
      for (auto It = F.N->Kids.rbegin(); It != F.N->Kids.rend(); ++It)
        C.Stack.push_back({It->get(), F.Site});
      break;
    case NodeKind::Call:
      C.Stack.pop_back();
      C.Stack.push_back({F.N->Kids.front().get(), F.Site ? F.Site : F.N->Site});
      break;
    case NodeKind::Alt: {
      auto Option = chosen(V, F.N->Key);
      if (!Option)
        return Pending{F.N->Key, (unsigned)F.N->Kids.size()};
      C.Stack.pop_back();
      C.Stack.push_back({F.N->Kids[*Option].get(), F.Site});
      for (unsigned I = 0; I < F.N->Kids.size() && !C.MayHavePosted; ++I)
        C.MayHavePosted = I != *Option && postsAny(F.N->Kids[I].get(), Posts);
      break;
    }
    case NodeKind::Loop: {
      // Zero or one more iteration; the same choice on both sides pairs
      // the bodies of loops with the same trip count.
      auto Option = chosen(V, F.N->Key);
      if (!Option)
        return Pending{F.N->Key, 2};
      C.Stack.pop_back();
      if (*Option == 1)
        C.Stack.push_back({F.N->Kids.front().get(), F.Site});
      else if (postsAny(F.N->Kids.front().get(), Posts))
        C.MayHavePosted = true;
      break;
    }
    }
  }
  return std::nullopt;
}

/// Every call a subtree may issue, with the outermost site it is seen
/// through.
void collectSites(const Node *N, const clang::CallExpr *Site,
                  llvm::SmallPtrSetImpl<const clang::CallExpr *> &Out,
                  llvm::SmallPtrSetImpl<const Node *> &Seen) {
  if (!N)
    return;
  if (N->Kind == NodeKind::Token) {
    if (const clang::CallExpr *C = Site ? Site : N->Tok.Call)
      Out.insert(C);
    return;
  }
  if (Site && !Seen.insert(N).second)
    return;
  const clang::CallExpr *Inner =
      Site ? Site : (N->Kind == NodeKind::Call ? N->Site : nullptr);
  for (const NodeRef &K : N->Kids)
    collectSites(K.get(), Inner, Out, Seen);
}

class Comparison {
public:
  Comparison(CompareBudget &Budget, CompareTrace *Trace, bool OthersTalk)
      : Budget(Budget), Trace(Trace), OthersTalk(OthersTalk) {}
  std::optional<FirstDifference> run(Cursor A, Cursor B, Valuation V);

private:
  CompareBudget &Budget;
  CompareTrace *Trace;
  /// A class of ranks other than the two compared issues sends or
  /// receives: a blocking one of either side may complete against those.
  bool OthersTalk;
  llvm::DenseMap<const Node *, bool> Posts;
  void noteRest(const Cursor &C) {
    llvm::SmallPtrSet<const Node *, 16> Seen;
    for (const Cursor::Frame &F : C.Stack)
      collectSites(F.N, F.Site, Trace->AfterDifference, Seen);
  }
  /// After the first difference, the other valuations are still compared
  /// for the trace (what else matches, under other choices), with a share
  /// of the steps left that ends the search quietly: it is the first
  /// difference that answers the question.
  void noteNamedArguments(const Token &A, const Token &B) {
    if (!A.Op || !B.Op)
      return;
    auto Note = [&](const ArgKey &KA, int RA, const ArgKey &KB, int RB) {
      bool Alike = KA.K == ArgKey::Kind::Named && KA == KB;
      for (auto Key : {std::make_pair(A.Call, RA), std::make_pair(B.Call, RB)})
        if (Key.first && Key.second >= 0) {
          auto [It, New] = Trace->NamedAlike.try_emplace(Key, Alike);
          if (!New)
            It->second = It->second && Alike;
        }
    };
    Note(A.Count, A.Op->Args.Count, B.Count, B.Op->Args.Count);
    Note(A.Root, A.Op->Args.Root, B.Root, B.Op->Args.Root);
  }
  std::optional<FirstDifference> First;
  unsigned QuietStop = 0;
  bool Stopped = false;
  llvm::SmallPtrSet<const clang::CallExpr *, 8> LaterMatched;

public:
  /// The calls matched after the first difference join the trace when no
  /// valuation was left out.
  void finish() {
    if (Trace && !Stopped && !Budget.Exhausted)
      Trace->Matched.insert(LaterMatched.begin(), LaterMatched.end());
  }

private:
  std::optional<FirstDifference> fork(const Cursor &A, const Cursor &B,
                                      const Valuation &V, Pending P) {
    for (unsigned I = 0; I < P.Options && !Stopped; ++I) {
      // The node's own options in order (a negated branch's key options
      // backwards): which difference is found first does not depend on
      // how a condition is spelled.
      unsigned KeyOption = P.Key.Negated && P.Options == 2 ? 1 - I : I;
      Valuation W = V;
      W.push_back({slot(P.Key), KeyOption});
      if (P.Key.Subject && KeyOption == 0)
        W.push_back({equalitySlot(P.Key.Subject), 0});
      if (auto D = run(A, B, std::move(W))) {
        if (!First) {
          First = D;
          QuietStop = Budget.Steps - Budget.Steps / 4;
        }
        if (!Trace)
          return D;
      }
      if (Budget.Exhausted)
        break;
    }
    return First;
  }
};

Side sideOf(const Cursor &C) {
  Side S;
  S.Position = C.Position;
  if (C.Stack.empty())
    return S;
  const Cursor::Frame &F = C.Stack.back();
  S.Tok = F.N->Tok;
  S.Site = F.Site ? F.Site : F.N->Tok.Call;
  return S;
}

std::optional<FirstDifference> Comparison::run(Cursor A, Cursor B,
                                               Valuation V) {
  while (true) {
    if (First && Budget.Steps <= QuietStop) {
      Stopped = true;
      return std::nullopt;
    }
    if (Budget.Steps == 0) {
      Budget.Exhausted = true;
      return std::nullopt;
    }
    --Budget.Steps;
    if (auto P = normalize(A, V, Posts))
      return fork(A, B, V, *P);
    if (auto P = normalize(B, V, Posts))
      return fork(A, B, V, *P);
    const Node *HA = A.Stack.empty() ? nullptr : A.Stack.back().N;
    const Node *HB = B.Stack.empty() ? nullptr : B.Stack.back().N;
    // A path that ends the job cannot leave the other side waiting.
    if ((HA && HA->Kind == NodeKind::FailStop) ||
        (HB && HB->Kind == NodeKind::FailStop))
      return std::nullopt;
    if (!HA && !HB)
      return std::nullopt;
    // A posted send or receive never blocks: remember it, and go on.
    bool Stepped = false;
    for (Cursor *C : {&A, &B}) {
      const Node *H = C->Stack.empty() ? nullptr : C->Stack.back().N;
      if (H && H->Kind == NodeKind::Token &&
          H->Tok.Kind == TokenKind::PostedPointToPoint) {
        C->Stack.pop_back();
        ++C->Posted;
        Stepped = true;
      }
    }
    if (Stepped)
      continue;
    auto IsP2P = [](const Node *N) {
      return N && N->Tok.Kind == TokenKind::PointToPoint;
    };
    // A blocking send or receive facing a collective can complete against
    // what the other side posted before it (MPI_Isend, then MPI_Bcast,
    // while the peer does MPI_Recv, then MPI_Bcast) or may have posted on
    // another path, or against a third class of ranks (the root posts an
    // MPI_Isend to the last rank, which receives it while the ranks between
    // wait in the barrier): only a side that surely posted nothing, facing
    // a pair of classes that issue no other send or receive, deadlocks.
    if (IsP2P(HA) && !IsP2P(HB) &&
        (B.Posted || B.MayHavePosted || OthersTalk)) {
      B.Posted -= B.Posted > 0;
      A.Stack.pop_back();
      continue;
    }
    if (IsP2P(HB) && !IsP2P(HA) &&
        (A.Posted || A.MayHavePosted || OthersTalk)) {
      A.Posted -= A.Posted > 0;
      B.Stack.pop_back();
      continue;
    }
    // A send or receive with nothing opposite is a matching question,
    // not an ordering one: step over it.
    if (IsP2P(HA) && !IsP2P(HB) &&
        (!HB || HA->Tok.Comm.surelyDiffers(HB->Tok.Comm))) {
      A.Stack.pop_back();
      continue;
    }
    if (IsP2P(HB) && !IsP2P(HA) &&
        (!HA || HB->Tok.Comm.surelyDiffers(HA->Tok.Comm))) {
      B.Stack.pop_back();
      continue;
    }
    Mismatch Why = (!HA || !HB) ? Mismatch::MissingOnOneSide
                                : compareTokens(HA->Tok, HB->Tok);
    if (Why != Mismatch::None) {
      FirstDifference D;
      D.A = sideOf(A);
      D.B = sideOf(B);
      D.Why = Why;
      if (Trace) {
        noteRest(A);
        noteRest(B);
      }
      return D;
    }
    if (Trace) {
      // After the first difference, what matches counts only if every
      // valuation is compared (finish()).
      for (const Side &S : {sideOf(A), sideOf(B)})
        if (S.Site)
          (First ? LaterMatched : Trace->Matched).insert(S.Site);
      noteNamedArguments(HA->Tok, HB->Tok);
    }
    A.Stack.pop_back();
    B.Stack.pop_back();
    ++A.Position;
    ++B.Position;
  }
}

} // namespace

bool issuesPointToPoint(const NodeRef &Tree) {
  llvm::DenseMap<const Node *, bool> Memo;
  std::function<bool(const Node *)> Any = [&](const Node *N) {
    if (!N)
      return false;
    if (N->Kind == NodeKind::Token)
      return N->Tok.Kind != TokenKind::Collective;
    auto [It, New] = Memo.try_emplace(N, false);
    if (!New)
      return It->second;
    bool Found =
        llvm::any_of(N->Kids, [&](const NodeRef &K) { return Any(K.get()); });
    Memo[N] = Found;
    return Found;
  };
  return Any(Tree.get());
}

std::optional<FirstDifference>
firstDifference(const NodeRef &A, const NodeRef &B, CompareBudget &Budget,
                CompareTrace *Trace, bool OthersTalk) {
  Cursor CA, CB;
  if (A)
    CA.Stack.push_back({A.get(), nullptr});
  if (B)
    CB.Stack.push_back({B.get(), nullptr});
  Comparison C(Budget, Trace, OthersTalk);
  auto D = C.run(std::move(CA), std::move(CB), {});
  C.finish();
  return D;
}

} // namespace collectives
} // namespace distlint
