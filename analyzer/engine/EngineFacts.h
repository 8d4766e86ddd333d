//===- EngineFacts.h - The engine's shared vocabulary -----------*- C++ -*-===//
//
// The small types the engine's answers are made of (why a value varies,
// a uniformity answer, a collective site, a function's summary). They sit
// below everything: the lattices, the analyses and the facade (Engine.h)
// include this header, so none of them needs the facade.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace clang {
class Decl;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace distlint {
namespace api {
struct ApiEntry;
} // namespace api

class Engine; // The facade (Engine.h): analyses take it by reference.

/// Why a value may differ between ranks.
enum class VaryKind : uint8_t {
  Rank,      ///< Derived from the rank id.
  LocalData, ///< Rank-local data: tensor values, clocks, random, files.
};

/// Where a varying value comes from, for "note: rank comes from here".
struct VaryOrigin {
  VaryKind Kind = VaryKind::Rank;
  clang::SourceLocation Loc;
  /// e.g. "rank", "local tensor value", "local clock"; text from
  /// internOriginText (origins are copied with every abstract value, so
  /// they hold no string of their own).
  llvm::StringRef What;
  /// A rank read from a known sub-communicator: that communicator's
  /// variable or field (communicatorDecl), whose members the value tells
  /// apart. Null otherwise.
  const clang::Decl *Comm = nullptr;
};

/// A copy of What that lives as long as the process. The texts are few:
/// fixed descriptions, API table details and launcher variable names.
llvm::StringRef internOriginText(llvm::StringRef What);

/// A lower bound PerWorld * W + Constant on an integer, W the world size.
struct WorldLinearBound {
  int64_t PerWorld = 0;
  int64_t Constant = 0;
};

/// Answer to "is this value the same on every rank?".
struct UniformityAnswer {
  bool Uniform = true;
  std::optional<VaryOrigin> Origin; ///< Set when !Uniform.
  /// For a variable read: a name of the value it holds there when one is
  /// known (its number, or the expression it was assigned from:
  /// Taint::ValueKey); 0 otherwise.
  uint64_t ValueName = 0;
  /// The smallest value it can have, when known (`size`: W).
  std::optional<WorldLinearBound> AtLeast;
  /// The largest, when known (`size`: W too, so it is the world size).
  std::optional<WorldLinearBound> AtMost;
  /// Its value, when it is one integer whatever the world size.
  std::optional<int64_t> Constant;
  /// Bit I: it depends on parameter I of the enclosing function (what the
  /// callers pass decides whether it agrees).
  uint64_t Params = 0;
};

/// What every rank must pass alike to a collective (an argument by its role,
/// or the shape of the tensors it contributes).
enum class AgreedArgument : uint8_t {
  Communicator,
  Count,
  Root,
  ReductionOp,
  Datatype,
  Options,
  TensorShape,
};

/// How messages name it ("argument 'root' of ...").
inline const char *agreedArgumentName(AgreedArgument A) {
  switch (A) {
  case AgreedArgument::Communicator:
    return "communicator";
  case AgreedArgument::Count:
    return "count";
  case AgreedArgument::Root:
    return "root";
  case AgreedArgument::ReductionOp:
    return "reduction op";
  case AgreedArgument::Datatype:
    return "datatype";
  case AgreedArgument::Options:
    return "options";
  case AgreedArgument::TensorShape:
    return "tensor shape";
  }
  return "argument";
}

/// One collective (or call that issues collectives) as issued at a site.
struct CollectiveSite {
  const clang::CallExpr *Call = nullptr;
  const api::ApiEntry *Entry = nullptr;        ///< Set for a direct API call.
  const clang::FunctionDecl *Callee = nullptr; ///< Set for a user function.
  /// For calls of user functions: the API collective inside it (transitively).
  const clang::CallExpr *InnerCollective = nullptr;
};

/// A callable handed to a container of callables (`hooks.push_back([&] {
/// ... })`): what a later call of one of its elements may run, and where it
/// was registered.
struct CallableRegistration {
  const clang::FunctionDecl *Target = nullptr;
  const clang::CallExpr *Site = nullptr;
};

/// Per-function facts computed once and reused by every rule.
struct FunctionSummary {
  bool IssuesCollective = false;
  /// The first API collective reached (transitively), for notes.
  const clang::CallExpr *FirstCollective = nullptr;
  /// Return value varies across ranks even with uniform arguments.
  std::optional<VaryOrigin> ReturnVaries;
  /// Parameters whose value flows into the return value.
  llvm::SmallVector<unsigned, 4> ParamsToReturn;
  /// Pointer/reference parameters written with a rank-varying value.
  struct VaryingOutParam {
    unsigned Index = 0;
    VaryOrigin Origin;
    /// Only the elements differ: the body gives the sequence a length that
    /// is the same on every rank (`g.assign(n_params, 0)`, then a local
    /// loop accumulates into it).
    bool ContentOnly = false;
  };
  llvm::SmallVector<VaryingOutParam, 2> VaryingOutParams;
  /// Every collective it issues (transitively) is on a communicator one of
  /// these parameters gives it (bit i: parameter i): called with
  /// sub-communicators there, it involves only their members.
  uint64_t CollectiveCommParams = 0;
  bool CollectivesOnParamComms = false;
  /// Never returns normally (exit/abort/MPI_Abort on every path).
  bool NoReturn = false;
  /// Training-step reachability: backward, optimizer step, forward, collective.
  bool ReachesTrainingStep = false;
};

} // namespace distlint
