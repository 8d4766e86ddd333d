//===- ApiModel.h - What each API role does to values -----------*- C++ -*-===//
//
// The semantics of the API tables for the rank-uniformity data-flow, as one
// table keyed by api::Role (like the matcher -> transfer table of Clang's
// UncheckedOptionalAccessModel): for every role, how a call with such a row
// computes its return value, and what it does to its out-parameters and
// buffers. The data-flow (uniformity/Calls.cpp) looks the row up and runs
// it; it no longer knows what any role means.
//
// A transfer sees the call through CallModelContext (receiver and explicit
// arguments, the table row, the control taint) and the analysis through the
// small ModelEnv interface, so the table can be tested on its own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "api/ApiTable.h"
#include "engine/lattice/Taint.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace distlint {
namespace model {

/// The analysis as the transfers see it, at the program point of one call.
class ModelEnv {
public:
  virtual ~ModelEnv() = default;
  /// The abstract value of an expression before the call.
  virtual Taint eval(const clang::Expr *X) = 0;
  /// The call writes T into the object LValue designates (through a
  /// pointer or a reference: `&rank`, `m->inputs`, `buf`).
  virtual void assign(const clang::Expr *LValue, const Taint &T) = 0;
  /// The objects Buffer designates hold the same value on every rank now.
  virtual void markUniform(const clang::Expr *Buffer) = 0;
  /// The dimensions of the call's result whose extent differs between
  /// ranks (the objects and size arguments it is computed from; Taint's
  /// VaryingDims); 0 when its shape is uniform.
  virtual uint8_t resultVaryingDims() = 0;
  /// A name of the result's shape when the call fixes it (a constant size
  /// argument, a SameShape row's input); 0 otherwise.
  virtual uint64_t resultShapeKey() = 0;
  /// The communicator Out designates is a sub-communicator from here on.
  virtual void noteSubCommunicator(const clang::Expr *Out) = 0;
  /// Out designates a communicator with the members of the whole job (or
  /// of a parameter): a field written one holds no sub-communicator.
  virtual void noteOtherCommunicator(const clang::Expr *) {}
  /// Is Comm a sub-communicator (split, created for a subset of ranks)?
  virtual bool isSubCommunicator(const clang::Expr *Comm) = 0;
  /// Is Comm the caller's own communicator (one member: rank 0 of size 1)?
  virtual bool isSelfCommunicator(const clang::Expr *) { return false; }
  /// Is X an object of a module class (api::Role::ModuleType), or a
  /// pointer to one?
  virtual bool isModuleObject(const clang::Expr *) { return false; }
  /// The call is a broadcast (Row: its table row): the receive buffer holds
  /// the root's message, which names its values (uniformity/Broadcasts).
  virtual void receiveBroadcast(const api::ApiEntry &Row) = 0;
};

/// One call with one of its callee's rows.
struct CallModelContext {
  const clang::CallExpr *Call;
  const api::ApiEntry &Row;
  /// The object of a method call (also of a member operator), or null.
  const clang::Expr *Receiver;
  /// The explicit arguments (without the object of a member operator).
  llvm::ArrayRef<const clang::Expr *> Args;
  /// Control taint of the call's block (effects under a varying branch
  /// vary with it).
  Taint Control;

  /// Argument I, or null when the row names none or the call has fewer.
  const clang::Expr *arg(int I) const {
    return I >= 0 && I < (int)Args.size() ? Args[I] : nullptr;
  }
  clang::SourceLocation loc() const { return Call->getBeginLoc(); }
};

/// The call's return value, or nullopt when the row does not decide it (the
/// next row, the callee's body or the unknown-function rule answers).
using ReturnTransfer = std::optional<Taint> (*)(const CallModelContext &,
                                                ModelEnv &);
/// What the call writes through its arguments.
using EffectsTransfer = void (*)(const CallModelContext &, ModelEnv &);

struct RoleModel {
  api::Role TheRole;
  ReturnTransfer Return = nullptr;   ///< Null: says nothing of the result.
  EffectsTransfer Effects = nullptr; ///< Null: writes nothing we track.
};

/// The table: one row per api::Role, in the enum's order.
llvm::ArrayRef<RoleModel> apiModel();
/// The row of R.
const RoleModel &modelOf(api::Role R);

/// Does a copy with this kind argument read device memory? (The kind's
/// enumerator, api::cudaCopyKinds(); unknown kinds: yes.)
bool copiesFromDevice(const clang::Expr *Kind);

/// Does a communicator created under Control with Size members hold only
/// the ranks that created it? Created under a branch that differs between
/// ranks, it does, unless Size is the job's size (then every rank created
/// it, each on its own arm). Size is null when the call names none.
bool createdByMembersOnly(const Taint &Control, const Taint *Size);

} // namespace model
} // namespace distlint
