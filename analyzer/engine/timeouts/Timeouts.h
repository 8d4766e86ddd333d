//===- Timeouts.h - Where a timeout is set, and whether it is usable -*- C++ -*-===//
//
// Which classes are process groups and stores, which fields and arguments
// set a timeout, which named values mean "no timeout", and which NCCL calls
// let a program detect a hung communicator all come from the API tables
// (ProcessGroupType, StoreType, TimeoutKnob, TimeoutConstant, CommInit,
// AsyncErrorCheck rows). Whether options get their timeout on every path to
// the construction is the ObjectFlow data-flow; these questions follow the
// options back to where they are created (through helpers that return
// them) and the object a factory builds forward to the calls that get it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace distlint {

/// Why a timeout value is unusable ("kNoTimeout (wait forever)", "zero,
/// which means no timeout", "48 hours"), if it is.
std::optional<std::string> unusableTimeout(Engine &E, const clang::Expr *Value);

/// The timeout a process group of Class gets when nothing sets one: the
/// first default constant (TimeoutConstant rows with TimeoutValue::Default)
/// of its backend, else of every backend, that the headers declare; and
/// the LibTorch release of those headers (ProcessGroupType rows' SinceMajor).
struct LibraryDefault {
  std::optional<double> Ms; ///< The constant's value, when it evaluates.
  std::string Constant;     ///< Its qualified name; empty: none declared.
  int HeadersMajor = 1;
};
LibraryDefault libraryDefaultTimeout(Engine &E,
                                     const clang::CXXRecordDecl *Class);

/// Does the creation of X (options, or any value assigned to the options
/// variable) already set the timeout on every path: a factory or
/// constructor argument, options whose timeout is set before they are
/// passed or returned, a user helper whose every return does so?
bool creationSetsTimeout(Engine &E, const clang::Expr *X);

/// Where options passed as Options come from, for notes: the creation
/// (innermost first) and the calls of helpers that returned them.
struct OptionsOrigin {
  clang::SourceLocation Created;
  llvm::SmallVector<const clang::CallExpr *, 2> ReturnedBy;
  /// The call of a function another TU defines that made them without a
  /// timeout (an UntimedOptions row), if that is where they come from.
  const clang::CallExpr *MadeElsewhere = nullptr;
};

/// A user function returning options whose timeout is not set on every
/// path (what another TU's call of it gets: an UntimedOptions fact): where
/// those options are created.
std::optional<clang::SourceLocation>
untimedOptionsCreated(Engine &E, const clang::FunctionDecl *FD);
std::optional<OptionsOrigin> optionsOrigin(Engine &E,
                                           const clang::Expr *Options);

/// The calls of user factories that hand out the object created at Site
/// (returned, or written through an out-parameter), transitively: where
/// `make_group(store, rank, world)` is called for a group built inside it.
/// Created: the variable the creation writes (NCCL's out-parameter), if any.
llvm::SmallVector<const clang::CallExpr *, 2>
factoryCalls(Engine &E, const clang::Expr *Site,
             const clang::VarDecl *Created = nullptr);

/// Is the field or member a store's timeout (rather than a process
/// group's)?
bool isStoreTimeout(Engine &E, const clang::NamedDecl *Knob);

/// An environment variable written by setenv / putenv.
struct EnvSetting {
  std::string Name, Value;
  /// Does it switch off the NCCL watchdog's abort (a TimeoutKnob env row
  /// whose disabling value it writes)?
  bool DisablesAbort = false;
};
std::optional<EnvSetting> envSettingAt(Engine &E, const clang::CallExpr *Call,
                                       const clang::FunctionDecl *Callee);

/// Can anything in the TU detect or abort a hung NCCL communicator
/// (ncclCommGetAsyncError, ncclCommAbort...)?
bool ncclAbortPath(Engine &E);

/// The first host wait on a stream that carries NCCL work (or on the whole
/// device) after the first NCCL collective, or null.
const clang::Expr *firstNcclHostWait(Engine &E);

} // namespace distlint
