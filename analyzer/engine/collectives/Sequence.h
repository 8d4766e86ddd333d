//===- Sequence.h - What a rank issues, in order ----------------*- C++ -*-===//
//
// The collectives (and blocking point-to-point calls) a piece of code issues,
// as a small regular-expression-like tree: Seq, Alt (a choice), Loop, Token,
// FailStop (the job ends here) and Call (a user function's own tree, inlined
// at its call site). Tokens are typed: the API operation, the communicator
// and the arguments every rank must pass alike.
//
// firstDifference() runs two trees side by side, as the ranks of two classes
// would, and returns the first position where they issue different things.
// Choices with the same key are made alike on both sides (a uniform
// condition evaluates the same on every rank), so both sides are compared
// under one valuation at a time; a count is not an order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "api/ApiTable.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CallExpr;
class Stmt;
} // namespace clang

namespace distlint {
namespace collectives {

/// An argument every rank must pass alike, as far as the analyzer can name
/// it: an integer constant, or a named entity (a global constant, an
/// enumerator, a communicator variable). Unknown matches anything.
struct ArgKey {
  /// Choice: one of two integers, picked by a condition that is the same on
  /// every rank but not known here (`argc == 1 ? 2 : 1`); Symbol is the
  /// choosing expression, Int and Other the two values.
  /// Named: a value every rank of the compared classes holds alike, known
  /// by its name only (a broadcast's element, RankClasses.cpp): equal names
  /// are one value; different names may still be equal.
  /// Param: the value of a parameter of the function Symbol (Int: its
  /// index) that the body never writes, times the constant Other (`rows *
  /// kDim`); where the function's tree is inlined at a call, the caller's
  /// argument (times Other) replaces it.
  enum class Kind : uint8_t { Unknown, Int, Symbol, Choice, Named, Param };
  Kind K = Kind::Unknown;
  int64_t Int = 0;
  const void *Symbol = nullptr;
  int64_t Other = 0;

  static ArgKey integer(int64_t V) { return {Kind::Int, V, nullptr}; }
  static ArgKey symbol(const void *S) { return {Kind::Symbol, 0, S}; }
  static ArgKey choice(const void *By, int64_t A, int64_t B) {
    return {Kind::Choice, A, By, B};
  }
  static ArgKey named(uint64_t Name) {
    return {Kind::Named, static_cast<int64_t>(Name), nullptr};
  }
  static ArgKey param(const void *Function, unsigned Index, int64_t Scale = 1) {
    return {Kind::Param, Index, Function, Scale};
  }
  /// This value times Factor, where the key can say it (unknown otherwise).
  ArgKey times(int64_t Factor) const;
  bool known() const { return K != Kind::Unknown; }
  /// Both sides are known and, for some value of the uniform inputs, name
  /// different values (a choice against a constant it may not take).
  bool surelyDiffers(const ArgKey &O) const;
  bool operator==(const ArgKey &O) const {
    return K == O.K && Int == O.Int && Symbol == O.Symbol && Other == O.Other;
  }
};

enum class TokenKind : uint8_t {
  Collective,   ///< Every member of the communicator must issue it.
  PointToPoint, ///< Blocks until a peer answers (send / recv).
  /// A send or receive posted with a request (MPI_Isend, MPI_Irecv): it
  /// returns at once, and a peer's blocking call can complete against it
  /// while this rank goes on to its next call.
  PostedPointToPoint,
};

struct Token {
  TokenKind Kind = TokenKind::Collective;
  const api::ApiEntry *Op = nullptr; ///< The operation (its table row).
  ArgKey Comm, Root, ReduceOp, DType, Count;
  const clang::CallExpr *Call = nullptr; ///< The API call, for notes.

  /// Unqualified operation name ("MPI_Allreduce", "allreduce").
  std::string name() const;
};

/// Why the tokens at one position disagree.
enum class Mismatch : uint8_t {
  None,
  Operation,        ///< Different operations.
  Communicator,     ///< Same operation on different communicators.
  Root,             ///< Different root ranks.
  ReduceOp,         ///< Different reduction operations.
  DType,            ///< Different datatypes.
  Count,            ///< Different element counts.
  PointToPointWait, ///< One side blocks in send/recv, the other in a
                    ///< collective.
  MissingOnOneSide, ///< One side issues nothing more.
};

/// How tokens at the same position compare (None: they match).
Mismatch compareTokens(const Token &A, const Token &B);
const char *mismatchName(Mismatch M);

/// Identity of a choice (branch or loop trip count). Uniform choices with
/// equal ids are made alike wherever they appear; a choice that may differ
/// between ranks is keyed by its own statement, so it only pairs with
/// itself.
struct ChoiceKey {
  uint64_t Id = 0;
  bool Uniform = false;
  /// A two-way branch on the negation of the keyed condition (`if (!u)`
  /// beside `if (u)`): its options are the key's options swapped, so the
  /// valuation that takes `if (u)`'s then-arm takes this one's else-arm.
  bool Negated = false;
  /// For a test of a value against a constant (`mode == FLUSH_ALL`): the
  /// value's name, 0 otherwise. Once one such test of a value holds, its
  /// tests against other constants fail (an `if` chain and a later `if` on
  /// the same value are one choice of that value).
  uint64_t Subject = 0;
};

/// The branch behind a choice and the CFG successor each option starts at,
/// so that a rank class can decide it (RankClasses.h). AST nodes only: the
/// tree outlives the CFG it was built from.
struct ChoiceSource {
  const clang::Stmt *Term = nullptr; ///< The branch or loop statement.
  unsigned NumSuccs = 0;             ///< Successors of its CFG block.
  /// Per option: its successor's index (if / loop: 0 = condition true).
  llvm::SmallVector<unsigned, 2> Succ;
  /// Per option of a switch: its case label (null: none, i.e. the default
  /// path past the switch).
  llvm::SmallVector<const clang::Stmt *, 2> Label;
};

struct Node;
using NodeRef = std::shared_ptr<const Node>;

enum class NodeKind : uint8_t { Empty, Token, Seq, Alt, Loop, FailStop, Call };

struct Node {
  NodeKind Kind = NodeKind::Empty;
  Token Tok;                 ///< Token.
  std::vector<NodeRef> Kids; ///< Seq: in order; Alt: the options; Loop:
                             ///< {body}; Call: {callee's tree}.
  ChoiceKey Key;             ///< Alt, Loop.
  ChoiceSource Source;       ///< Alt, Loop (when built from a CFG).
  const clang::CallExpr *Site = nullptr; ///< Call: the user call.
  /// Some token in the tree has a Param argument key.
  bool HasParamKeys = false;

  static NodeRef empty();
  static NodeRef token(Token T);
  static NodeRef failStop();
  /// Flattens nested sequences and drops empty parts.
  static NodeRef seq(std::vector<NodeRef> Parts);
  /// A choice. Options that issue nothing make no choice, except where an
  /// option ends the job on a uniform condition (`if (size != 4)
  /// MPI_Abort(...)`): a rank class that knows the world size decides it.
  static NodeRef alt(ChoiceKey K, std::vector<NodeRef> Options,
                     ChoiceSource Source = {});
  static NodeRef loop(ChoiceKey K, NodeRef Body, ChoiceSource Source = {});
  static NodeRef call(const clang::CallExpr *Site, NodeRef Callee);
};

/// The tree of Function with its parameters' keys (ArgKey::Param) replaced
/// by Args, the keys of the arguments one call passes (by parameter index;
/// Unknown where the index is past them). Subtrees without them are shared.
NodeRef substituteParams(const NodeRef &Tree, const void *Function,
                         llvm::ArrayRef<ArgKey> Args);

/// Does the tree issue any token on some path?
bool issuesAnything(const NodeRef &N);
/// Does every path through the tree end the job?
bool alwaysFailStops(const NodeRef &N);
/// Does some path through the tree end the job?
bool mayFailStop(const NodeRef &N);
/// The tree without its point-to-point calls: the collectives it issues.
NodeRef collectivesOnly(const NodeRef &N);
/// Does the tree issue collectives only (no point-to-point, no job end)?
bool onlyCollectives(const NodeRef &N);
/// Compact text for tests and debugging: "MPI_Barrier MPI_Allreduce",
/// "{a|b}", "(body)*", "!" for fail-stop.
std::string print(const NodeRef &N);

/// One side at the first difference.
struct Side {
  std::optional<Token> Tok; ///< Empty: this side issues nothing more here.
  /// The outermost call in the compared code that leads to the token: the
  /// API call itself, or the user call whose inlined tree issues it.
  const clang::CallExpr *Site = nullptr;
  unsigned Position = 0; ///< Tokens matched before this one.
};

struct FirstDifference {
  Side A, B;
  Mismatch Why = Mismatch::None;
};

/// Limits the number of steps of one comparison (choices multiply); the
/// engine starts it at Budget::SequenceSteps.
struct CompareBudget {
  unsigned Steps = 20000;
  bool Exhausted = false;
};

/// What a comparison saw of the outermost calls (Side::Site) it compared.
struct CompareTrace {
  /// Issued at the same position on both sides on some path compared.
  llvm::SmallPtrSet<const clang::CallExpr *, 8> Matched;
  /// At or after a first difference found: their positions are unknown.
  llvm::SmallPtrSet<const clang::CallExpr *, 8> AfterDifference;
  /// Per API call and argument role (ApiTable's ArgRoles index): did every
  /// pair matched there pass values of the same name (Kind::Named)?
  llvm::DenseMap<std::pair<const clang::CallExpr *, int>, bool> NamedAlike;
};

/// The first position where A and B differ under some valuation of their
/// choices; nullopt when they issue the same ordered sequence under every
/// valuation (paths that end the job never differ). Trace, when given,
/// collects the calls compared. OthersTalk: a third class of ranks issues
/// sends or receives (issuesPointToPoint) that a blocking one of A or B may
/// complete against.
std::optional<FirstDifference>
firstDifference(const NodeRef &A, const NodeRef &B, CompareBudget &Budget,
                CompareTrace *Trace = nullptr, bool OthersTalk = false);

/// Does the tree issue a send or receive on some path?
bool issuesPointToPoint(const NodeRef &Tree);

} // namespace collectives
} // namespace distlint
