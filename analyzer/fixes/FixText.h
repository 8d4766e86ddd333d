//===- FixText.h - Text edits shared by the fix-it builders -----*- C++ -*-===//
//
// The builders in analyzer/fixes/ only edit whole statements written in a
// file (never inside a macro argument), so an edit is either applied as a
// whole or, when any of these helpers says no, not offered at all.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace distlint::fixes {

/// The statement holding S that is an element of a compound statement
/// (S itself, or the expression/declaration/return statement around it),
/// with that compound in *Parent. Null when S sits in a condition, a loop
/// header or anything else where a statement cannot be put next to it.
const clang::Stmt *statementInBlock(clang::ASTContext &Ctx, const clang::Stmt *S,
                                    const clang::CompoundStmt **Parent);

/// The file range of a whole statement, including its trailing ';' when it
/// needs one; invalid if it starts or ends inside a macro argument.
clang::CharSourceRange statementRange(clang::ASTContext &Ctx,
                                      const clang::Stmt *S);

/// The whitespace that starts S's line.
std::string indentOf(clang::ASTContext &Ctx, clang::SourceLocation Loc);

/// Inserts Line (no newline) as a line of its own just before statement S,
/// with S's indentation. None if S's line holds more than S.
std::optional<clang::FixItHint> insertLineBefore(clang::ASTContext &Ctx,
                                                 const clang::Stmt *S,
                                                 const std::string &Line);

/// `#include <Header>` after the last #include of the file of Loc, unless
/// the file includes it already (nothing to add then).
std::vector<clang::FixItHint> includeOnce(clang::ASTContext &Ctx,
                                          clang::SourceLocation Loc,
                                          llvm::StringRef Header);

/// The integer counter of a loop: the variable a `for` declares and
/// increments, or a local integer that a top-level statement of the body
/// increments (`++step;`). Null if there is none.
const clang::VarDecl *loopCounter(const clang::Stmt *Loop);

/// `x.` or `x->` for calling a member of V (a pointer or smart pointer gets
/// `->`).
std::string memberAccess(const clang::VarDecl *V);

} // namespace distlint::fixes
