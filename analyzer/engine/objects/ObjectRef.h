//===- ObjectRef.h - The object an expression designates -------*- C++ -*-===//
//
// Rules follow objects (a sampler, a loader, options) through the code: a
// local variable or parameter, or a member of the enclosing class reached
// through `this`, which is the same object in every method of the class
// (built in the constructor or setup(), used in train_epoch()). Smart
// pointers, references and pointers to the object designate it too.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace distlint {

struct ObjectRef {
  /// A VarDecl, or a FieldDecl reached through `this`; null: unknown.
  const clang::ValueDecl *Decl = nullptr;

  explicit operator bool() const { return Decl != nullptr; }
  bool operator==(const ObjectRef &O) const { return Decl == O.Decl; }
  const clang::VarDecl *var() const;
  const clang::FieldDecl *field() const;
};

/// The object X designates: `x`, `*x`, `x->`, `x.get()`, `this->m_`, `*m_`,
/// casts and std::move of those.
ObjectRef designatedObject(const clang::Expr *X);

/// The member a constructor's initializer list initializes with Init (the
/// whole initializer expression, e.g. `loader_(make_data_loader(...))`), or
/// null. The parent map may skip the CXXCtorInitializer node and lead from
/// the expression straight to the constructor, so this searches the
/// constructor's initializers.
const clang::FieldDecl *memberInitializedWith(Engine &E,
                                              const clang::Expr *Init);

/// O and the local variables of FD that refer to it (references and
/// pointers bound to it, smart-pointer copies), transitively.
llvm::SmallPtrSet<const clang::ValueDecl *, 4>
objectAliases(ObjectRef O, const clang::FunctionDecl *FD);

/// Does X designate O, directly or through an alias of O in X's function?
bool designates(Engine &E, const clang::Expr *X, ObjectRef O);

/// The functions whose bodies may use O: for a member, the methods of its
/// class (and of the class's instantiation) defined in the TU; for a
/// variable, the function declaring it and the lambdas inside it.
llvm::SmallVector<const clang::FunctionDecl *, 8>
functionsUsing(Engine &E, ObjectRef O);

} // namespace distlint
