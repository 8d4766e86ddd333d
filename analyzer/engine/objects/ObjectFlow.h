//===- ObjectFlow.h - Must-happen facts about one object -------*- C++ -*-===//
//
// A small forward must-problem over a function's CFG (Engine::facts), run by
// the one solver (engine/solver/Solver.h): "on every
// path from the object's creation to this statement, did event X happen to
// it?". Used for "is the timeout field of these options assigned before the
// process group is built" and "is set_epoch called on the sampler in every
// epoch before the loader copies it". Aliases (references, pointers and
// smart-pointer copies of the object) count as the object; helpers that
// receive the object by reference or pointer count when they do the event
// on every path through their body.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h" // class Engine (the facade), by reference
#include "clang/AST/Decl.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace distlint {

using VarSet = llvm::SmallPtrSet<const clang::VarDecl *, 4>;

/// Root and the variables of FD that refer to the same object: references
/// bound to it, pointers and smart pointers copied from it (`auto &o =
/// *opts`, `auto *p = opts.get()`, `auto copy = opts`), transitively.
VarSet aliasesOf(const clang::VarDecl *Root, const clang::FunctionDecl *FD);

struct MustHappenQuery {
  /// A CFG statement that makes the fact true.
  llvm::function_ref<bool(const clang::Stmt *)> IsEvent;
  /// A CFG statement that makes it false again (null: none).
  llvm::function_ref<bool(const clang::Stmt *)> IsReset = nullptr;
  /// A block after which the fact is false again (e.g. a loop header: each
  /// iteration starts afresh). Null: none.
  llvm::function_ref<bool(const clang::CFGBlock *)> ResetAfter = nullptr;
  /// Does the fact hold when the function is entered?
  bool EntryHolds = false;
};

/// Does the fact hold on every path from FD's entry to At (to FD's exit
/// when At is null)? Unknown (no CFG): returns std::nullopt.
std::optional<bool> holdsOnEveryPath(Engine &E, const clang::FunctionDecl *FD,
                                     const clang::Stmt *At,
                                     const MustHappenQuery &Q);

/// Field assignments of an object, for options structs.
struct FieldQuery {
  /// The fields that count (e.g. TimeoutKnob rows).
  llvm::function_ref<bool(const clang::FieldDecl *)> IsField;
  /// Does this creation / assigned value of the whole object already set
  /// the field (a constructor or factory argument)?
  llvm::function_ref<bool(const clang::Expr *)> CreationSets;
};

enum class Tri { No, Yes, Unknown };

/// Is a matching field of the object Root holds assigned on every path to
/// At (a statement in Root's function)? Parameters are judged at the call
/// sites of their function; helpers that assign the field through a
/// reference or pointer parameter count; unknown external functions that
/// receive the object by non-const reference or pointer count as setting it.
Tri fieldSetOnEveryPath(Engine &E, const clang::VarDecl *Root,
                        const clang::Stmt *At, const FieldQuery &Q);

/// Is S an assignment (built-in or operator=) to a field of an object; sets
/// Field, Object (the expression designating the object) and Value.
bool isFieldAssignment(const clang::Stmt *S, const clang::FieldDecl *&Field,
                       const clang::Expr *&Object, const clang::Expr *&Value);

} // namespace distlint
