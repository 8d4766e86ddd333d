//===- AstHelpers.h - The engine's small AST questions ---------*- C++ -*-===//
//
// One definition of each syntactic helper the engine and its facilities
// share: looking through wrappers, which variable an expression names,
// tensor-like types, loop statements, the source text of an expression.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace distlint {

/// Looks through parentheses, implicit and explicit casts, temporaries,
/// full-expression cleanups and single-argument copy / converting
/// constructions.
const clang::Expr *strip(const clang::Expr *E);

/// Looks through parentheses, implicit casts, temporaries, full-expression
/// cleanups, copy/move constructions and std::move / std::forward.
const clang::Expr *stripValue(const clang::Expr *E);

/// The variable whose storage an lvalue / address expression lies in: `x`,
/// `&x`, `x[i]`, `*p` (p), `x.f` (x), `x.method()` (x).
const clang::VarDecl *baseVar(const clang::Expr *E);

/// The object whose elements a buffer pointer designates: `v.data()`,
/// `&v[0]`, `v.get()` (Target itself when it is no such pointer).
const clang::Expr *storageOwner(const clang::Expr *Target);

/// The field an access designates: `x.f`, `p->f`, `this->f`, `&x.f`;
/// null otherwise.
const clang::FieldDecl *accessedField(const clang::Expr *E);

/// The field holding the handle an expression uses: accessedField, also
/// through a smart pointer's `->`, `*` or get() (`p.group->broadcast(...)`
/// uses the process group held in field `group`).
const clang::FieldDecl *handleField(const clang::Expr *E);

/// What names the communicator an expression uses: the field holding it
/// (handleField), else the variable (baseVar); null for anything else.
const clang::Decl *communicatorDecl(const clang::Expr *E);

/// Does FD's body return a value at least once, and only values Returned
/// accepts (returns inside lambdas belong to the lambdas)?
bool everyReturnValue(const clang::FunctionDecl *FD,
                      llvm::function_ref<bool(const clang::Expr *)> Returned);

/// The variable a field access starts from: `v` in `v.f` and `v->f` (not
/// `a[i].f` or `v.g.f`); null otherwise.
const clang::VarDecl *fieldBase(const clang::MemberExpr *M);

/// The local object (not a reference) whose field M names directly: `c` in
/// `c.layers`; null for `p->f`, a reference or a static.
const clang::VarDecl *localObjectOf(const clang::MemberExpr *M);

/// The variable holding the object E designates: `x`, `*x`, `x->`,
/// `x.get()`, `&x`, `std::move(x)`, a copy of the smart pointer `x`.
const clang::VarDecl *designatedVar(const clang::Expr *E);

/// Is E a pointer-like handle (raw pointer, or a class with operator->)?
bool isPointerLike(clang::QualType T);

/// Every variable referenced inside S, in traversal order (repeats kept).
void collectVarRefs(const clang::Stmt *S,
                    llvm::SmallVectorImpl<const clang::VarDecl *> &Out);

/// Every variable declared inside S (DeclStmts at any depth), in source order.
void collectVarDecls(const clang::Stmt *S,
                     llvm::SmallVectorImpl<const clang::VarDecl *> &Out);

/// Every call a function's body (and a constructor's member initializers)
/// makes itself, in source order: not those of the lambdas and local
/// classes it defines (functions of their own), nor in unevaluated operands.
void collectBodyCalls(const clang::FunctionDecl *FD,
                      llvm::SmallVectorImpl<const clang::CallExpr *> &Out);

/// A class named Tensor or TensorBase (at::Tensor and look-alikes).
bool isTensorType(clang::QualType T);
/// A tensor or a container of tensors (vector, ArrayRef, optional...).
bool isTensorLike(clang::QualType T);
/// An int-array size parameter (IntArrayRef, SymIntArrayRef...).
bool isSizeArrayType(clang::QualType T);
/// A sequence container of plain values (std::vector<double>, std::string:
/// a `value_type` and a `size_type`, no `key_type`), not of tensors: its length
/// is a shape apart from its elements (Taint::ShapeKey).
bool isValueSequence(clang::QualType T);
/// The member type Name a class declares (a container's `value_type`,
/// `key_type`), or null.
const clang::TypedefNameDecl *memberTypedef(const clang::CXXRecordDecl *RD,
                                            llvm::StringRef Name);

/// The first declaration a qualified name ("c10d::Backend",
/// "kDefaultTimeout" at global scope) names in this TU, if declared; through
/// namespaces only (every block of each), no using-directives. Walks the
/// declarations: meant for a few lookups per TU, not per statement.
const clang::NamedDecl *lookupQualified(clang::ASTContext &Ctx,
                                        llvm::StringRef Qualified);

/// for / while / do / range-for.
bool isLoopStmt(const clang::Stmt *S);

/// What a branch or loop statement decides on.
struct Decision {
  /// The condition of an if / while / do / for / switch / ?:, the left
  /// operand of && and || (the right one is decided in a block of its own),
  /// the range of a range-for; null for other statements.
  const clang::Expr *Cond = nullptr;
  /// `if (auto x = ...)`, likewise while and switch: Cond reads the
  /// declared variable, not the expression that gave it its value.
  bool DeclaresVariable = false;
  /// Cond is a range-for's range: it decides how often, not whether.
  bool IsRangeFor = false;
};
/// The one dispatch over branch and loop statements, so every question
/// about "what decides this statement" reads the same expression.
Decision decisionOf(const clang::Stmt *S);

/// The function whose body declares D (null for globals and members).
const clang::FunctionDecl *owningFunction(const clang::Decl *D);
/// The data-flow bit of variable VD captured by lambda FD (its call
/// operator): captures follow the parameters, in capture order, so that a
/// call of the lambda reads them from the caller's state like arguments.
/// 0 when FD is no lambda, does not capture VD, or the bit is past 64.
uint64_t lambdaCaptureBit(const clang::FunctionDecl *FD,
                          const clang::VarDecl *VD);
/// The variable behind bit Index of lambda FD (null for a parameter's bit).
const clang::VarDecl *lambdaCaptureAt(const clang::FunctionDecl *FD,
                                      unsigned Index);

/// Source text of E without whitespace, `this->` and a leading `*`, for
/// comparing expressions by spelling.
std::string sourceText(const clang::Expr *E, clang::ASTContext &Ctx);

/// Does E (or a part of it, as in `root ? MPI_IN_PLACE : buf`) expand the
/// macro named Macro?
bool mayExpandMacro(const clang::Expr *E, llvm::StringRef Macro,
                    clang::ASTContext &Ctx);

/// The same expression: one structure over the same declarations and
/// constants.
bool sameExpr(const clang::Expr *A, const clang::Expr *B);
/// Is Bound - Start the same on every rank, whatever each is: `first + n`
/// against `first`, `(r + 1) * n` against `r * n`, with n uniform (as
/// Uniform says).
bool uniformDistance(const clang::Expr *Bound, const clang::Expr *Start,
                     llvm::function_ref<bool(const clang::Expr *)> Uniform);

} // namespace distlint
