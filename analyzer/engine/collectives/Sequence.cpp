//===- Sequence.cpp - Collective sequences -------------------------------===//
//
// The sequence trees (tokens, sequences, choices, loops, calls, fail-stops)
// and what callers ask of one; running two of them side by side is
// SequenceCompare.cpp.
//
//===----------------------------------------------------------------------===//
#include "engine/collectives/Sequence.h"

#include "llvm/Support/MathExtras.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace distlint {
namespace collectives {

bool ArgKey::surelyDiffers(const ArgKey &O) const {
  if (!known() || !O.known() || *this == O)
    return false;
  if (K == Kind::Named || O.K == Kind::Named)
    return false; // Another name may be the same value.
  if (K == Kind::Param || O.K == Kind::Param)
    return false; // Whatever the callers pass: not known here.
  auto Values = [](const ArgKey &K) {
    return llvm::SmallVector<int64_t, 2>{K.Int,
                                         K.K == Kind::Choice ? K.Other : K.Int};
  };
  if (K == Kind::Symbol || O.K == Kind::Symbol)
    return true; // Distinct named entities (or a name against a number).
  // Integers and choices: a valuation of the choices gives different
  // values unless both always give the same one.
  if (K == Kind::Choice && O.K == Kind::Choice && Symbol == O.Symbol)
    return false; // One choice: made alike on every rank.
  for (int64_t A : Values(*this))
    for (int64_t B : Values(O))
      if (A != B)
        return true;
  return false;
}

ArgKey ArgKey::times(int64_t Factor) const {
  if (Factor == 1)
    return *this;
  auto Mul = [&](int64_t V, int64_t &Out) {
    return !llvm::MulOverflow(V, Factor, Out);
  };
  int64_t A = 0, B = 0;
  switch (K) {
  case Kind::Int:
    return Mul(Int, A) ? integer(A) : ArgKey();
  case Kind::Choice:
    return Mul(Int, A) && Mul(Other, B) ? choice(Symbol, A, B) : ArgKey();
  case Kind::Param:
    return Mul(Other, B) ? param(Symbol, unsigned(Int), B) : ArgKey();
  default:
    return {}; // A name times a number has no name of its own.
  }
}

std::string Token::name() const {
  if (!Op)
    return "collective";
  llvm::StringRef N(Op->Name);
  size_t Pos = N.rfind("::");
  return (Pos == llvm::StringRef::npos ? N : N.substr(Pos + 2)).str();
}

Mismatch compareTokens(const Token &A, const Token &B) {
  if (A.Kind != B.Kind)
    return Mismatch::PointToPointWait;
  // Matching sends with receives is another rule's job: two blocking
  // point-to-point calls at the same position are fine here.
  if (A.Kind == TokenKind::PointToPoint)
    return Mismatch::None;
  // Rows of different classes (ProcessGroup::allreduce, Backend::allreduce)
  // name the same operation.
  if (A.Op != B.Op && A.name() != B.name())
    return Mismatch::Operation;
  if (A.Comm.surelyDiffers(B.Comm))
    return Mismatch::Communicator;
  if (A.Root.surelyDiffers(B.Root))
    return Mismatch::Root;
  if (A.ReduceOp.surelyDiffers(B.ReduceOp))
    return Mismatch::ReduceOp;
  if (A.DType.surelyDiffers(B.DType))
    return Mismatch::DType;
  if (A.Count.surelyDiffers(B.Count))
    return Mismatch::Count;
  return Mismatch::None;
}

const char *mismatchName(Mismatch M) {
  switch (M) {
  case Mismatch::None:
    return "none";
  case Mismatch::Operation:
    return "operation";
  case Mismatch::Communicator:
    return "communicator";
  case Mismatch::Root:
    return "root";
  case Mismatch::ReduceOp:
    return "reduction op";
  case Mismatch::DType:
    return "datatype";
  case Mismatch::Count:
    return "count";
  case Mismatch::PointToPointWait:
    return "point-to-point";
  case Mismatch::MissingOnOneSide:
    return "missing";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

static NodeRef make(NodeKind K) {
  auto N = std::make_shared<Node>();
  N->Kind = K;
  return N;
}

NodeRef Node::empty() {
  static const NodeRef E = make(NodeKind::Empty);
  return E;
}

static bool hasParamKey(const Token &T) {
  for (const ArgKey *K : {&T.Root, &T.ReduceOp, &T.DType, &T.Count})
    if (K->K == ArgKey::Kind::Param)
      return true;
  return false;
}

static bool anyHasParamKeys(const std::vector<NodeRef> &Kids) {
  for (const NodeRef &K : Kids)
    if (K && K->HasParamKeys)
      return true;
  return false;
}

NodeRef Node::token(Token T) {
  auto N = std::make_shared<Node>();
  N->Kind = NodeKind::Token;
  N->Tok = T;
  N->HasParamKeys = hasParamKey(N->Tok);
  return N;
}

NodeRef Node::failStop() {
  static const NodeRef F = make(NodeKind::FailStop);
  return F;
}

NodeRef Node::seq(std::vector<NodeRef> Parts) {
  std::vector<NodeRef> Flat;
  for (NodeRef &P : Parts) {
    if (!P || P->Kind == NodeKind::Empty)
      continue;
    if (P->Kind == NodeKind::Seq)
      Flat.insert(Flat.end(), P->Kids.begin(), P->Kids.end());
    else
      Flat.push_back(std::move(P));
    // Nothing after a fail-stop is issued.
    if (Flat.back()->Kind == NodeKind::FailStop)
      break;
  }
  if (Flat.empty())
    return empty();
  if (Flat.size() == 1)
    return Flat.front();
  auto N = std::make_shared<Node>();
  N->Kind = NodeKind::Seq;
  N->Kids = std::move(Flat);
  N->HasParamKeys = anyHasParamKeys(N->Kids);
  return N;
}

NodeRef Node::alt(ChoiceKey K, std::vector<NodeRef> Options,
                  ChoiceSource Source) {
  bool AllFail = !Options.empty(), Any = false, MayFail = false;
  for (const NodeRef &O : Options) {
    AllFail = AllFail && alwaysFailStops(O);
    MayFail = MayFail || mayFailStop(O);
    Any = Any || issuesAnything(O);
  }
  if (AllFail)
    return failStop();
  // A choice between paths that issue nothing (or end the job) cannot make
  // ranks disagree; one that may end the job on a uniform condition still
  // bounds what the ranks that go on can be (the world size, a mode checked
  // by `if (m != A && m != B) abort()`, one operand a choice).
  if (!Any && !(MayFail && K.Uniform && Source.Term))
    return empty();
  auto N = std::make_shared<Node>();
  N->Kind = NodeKind::Alt;
  N->Key = K;
  N->Source = std::move(Source);
  N->Kids = std::move(Options);
  N->HasParamKeys = anyHasParamKeys(N->Kids);
  return N;
}

NodeRef Node::loop(ChoiceKey K, NodeRef Body, ChoiceSource Source) {
  if (!issuesAnything(Body))
    return empty();
  auto N = std::make_shared<Node>();
  N->Kind = NodeKind::Loop;
  N->Key = K;
  N->Source = std::move(Source);
  N->Kids = {std::move(Body)};
  N->HasParamKeys = anyHasParamKeys(N->Kids);
  return N;
}

NodeRef Node::call(const clang::CallExpr *Site, NodeRef Callee) {
  if (!Callee || (!issuesAnything(Callee) && !alwaysFailStops(Callee)))
    return empty();
  auto N = std::make_shared<Node>();
  N->Kind = NodeKind::Call;
  N->Site = Site;
  N->Kids = {std::move(Callee)};
  N->HasParamKeys = anyHasParamKeys(N->Kids);
  return N;
}

static NodeRef substitute(const NodeRef &N, const void *Function,
                          llvm::ArrayRef<ArgKey> Args,
                          llvm::DenseMap<const Node *, NodeRef> &Memo) {
  if (!N || !N->HasParamKeys)
    return N;
  auto Known = Memo.find(N.get());
  if (Known != Memo.end())
    return Known->second;
  auto Copy = std::make_shared<Node>(*N);
  if (N->Kind == NodeKind::Token) {
    for (ArgKey *K : {&Copy->Tok.Root, &Copy->Tok.ReduceOp, &Copy->Tok.DType,
                      &Copy->Tok.Count})
      if (K->K == ArgKey::Kind::Param && K->Symbol == Function)
        *K = K->Int < (int64_t)Args.size() ? Args[K->Int].times(K->Other)
                                           : ArgKey();
    Copy->HasParamKeys = hasParamKey(Copy->Tok);
  } else {
    for (NodeRef &Kid : Copy->Kids)
      Kid = substitute(Kid, Function, Args, Memo);
    Copy->HasParamKeys = anyHasParamKeys(Copy->Kids);
  }
  NodeRef Out = std::move(Copy);
  Memo[N.get()] = Out;
  return Out;
}

NodeRef substituteParams(const NodeRef &Tree, const void *Function,
                         llvm::ArrayRef<ArgKey> Args) {
  llvm::DenseMap<const Node *, NodeRef> Memo;
  return substitute(Tree, Function, Args, Memo);
}

bool issuesAnything(const NodeRef &N) {
  if (!N)
    return false;
  switch (N->Kind) {
  case NodeKind::Token:
    return true;
  case NodeKind::Empty:
  case NodeKind::FailStop:
    return false;
  default:
    for (const NodeRef &K : N->Kids)
      if (issuesAnything(K))
        return true;
    return false;
  }
}

bool alwaysFailStops(const NodeRef &N) {
  if (!N)
    return false;
  switch (N->Kind) {
  case NodeKind::FailStop:
    return true;
  case NodeKind::Seq:
  case NodeKind::Call:
    for (const NodeRef &K : N->Kids)
      if (alwaysFailStops(K))
        return true;
    return false;
  case NodeKind::Alt:
    for (const NodeRef &K : N->Kids)
      if (!alwaysFailStops(K))
        return false;
    return !N->Kids.empty();
  default: // A loop may run zero times.
    return false;
  }
}

bool mayFailStop(const NodeRef &N) {
  if (!N)
    return false;
  if (N->Kind == NodeKind::FailStop)
    return true;
  for (const NodeRef &K : N->Kids)
    if (mayFailStop(K))
      return true;
  return false;
}

NodeRef collectivesOnly(const NodeRef &N) {
  if (!N)
    return N;
  switch (N->Kind) {
  case NodeKind::Empty:
  case NodeKind::FailStop:
    return N;
  case NodeKind::Token:
    return N->Tok.Kind == TokenKind::Collective ? N : Node::empty();
  case NodeKind::Seq: {
    std::vector<NodeRef> Parts;
    for (const NodeRef &K : N->Kids)
      Parts.push_back(collectivesOnly(K));
    return Node::seq(std::move(Parts));
  }
  case NodeKind::Alt: {
    std::vector<NodeRef> Options;
    for (const NodeRef &K : N->Kids)
      Options.push_back(collectivesOnly(K));
    return Node::alt(N->Key, std::move(Options), N->Source);
  }
  case NodeKind::Loop:
    return Node::loop(N->Key, collectivesOnly(N->Kids.front()), N->Source);
  case NodeKind::Call:
    return Node::call(N->Site, collectivesOnly(N->Kids.front()));
  }
  return N;
}

bool onlyCollectives(const NodeRef &N) {
  if (!N)
    return true;
  switch (N->Kind) {
  case NodeKind::FailStop:
    return false;
  case NodeKind::Token:
    return N->Tok.Kind == TokenKind::Collective;
  default:
    return llvm::all_of(N->Kids,
                        [](const NodeRef &K) { return onlyCollectives(K); });
  }
}

std::string print(const NodeRef &N) {
  if (!N)
    return "";
  std::string Out;
  switch (N->Kind) {
  case NodeKind::Empty:
    return "";
  case NodeKind::Token:
    return N->Tok.name();
  case NodeKind::FailStop:
    return "!";
  case NodeKind::Call:
    return print(N->Kids.front());
  case NodeKind::Loop:
    return "(" + print(N->Kids.front()) + ")*";
  case NodeKind::Seq:
    for (const NodeRef &K : N->Kids) {
      std::string S = print(K);
      if (!S.empty())
        Out += (Out.empty() ? "" : " ") + S;
    }
    return Out;
  case NodeKind::Alt:
    // A choice that only ends the job on some paths issues nothing.
    if (!issuesAnything(N))
      return "";
    for (size_t I = 0; I < N->Kids.size(); ++I)
      Out += (I ? "|" : "") + print(N->Kids[I]);
    return "{" + Out + "}";
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

} // namespace collectives
} // namespace distlint
