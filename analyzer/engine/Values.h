//===- Values.h - Constant values and variable definitions ------*- C++ -*-===//
//
// Small value questions several rules ask: what constant an expression
// holds (integers, strings, std::chrono durations), which variable an
// expression designates as an object (through *, ->, get(), &, std::move and
// smart-pointer copies), and whether a variable is written inside a region.
// Local variables with a single definition are followed to their
// initializer, so `const auto t = std::chrono::hours(48); opts->timeout = t;`
// is understood like the literal.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Engine.h"
#include "llvm/ADT/APSInt.h"

#include <optional>
#include <string>

namespace distlint {

/// Looks through parentheses, implicit casts, temporaries, full-expression
/// cleanups, copy/move constructions and std::move / std::forward.
const clang::Expr *stripValue(const clang::Expr *E);

/// The variable holding the object E designates: `x`, `*x`, `x->`,
/// `x.get()`, `&x`, `std::move(x)`, a copy of the smart pointer `x`.
const clang::VarDecl *designatedVar(const clang::Expr *E);

/// Is E a pointer-like handle (raw pointer, or a class with operator->)?
bool isPointerLike(clang::QualType T);

/// The initializer of a variable that is never written after it (locals:
/// not mutated in their function; globals: const). Null otherwise.
const clang::Expr *soleDefinition(Engine &E, const clang::VarDecl *VD);

/// Is VD possibly written (assigned, incremented, passed by non-const
/// reference, address taken...) inside Region?
bool isWrittenIn(Engine &E, const clang::VarDecl *VD,
                 const clang::Stmt *Region);

std::optional<llvm::APSInt> evaluateInt(Engine &E, const clang::Expr *X);
std::optional<std::string> evaluateString(Engine &E, const clang::Expr *X);
/// Value of a std::chrono::duration expression in milliseconds.
std::optional<double> evaluateDurationMs(Engine &E, const clang::Expr *X);

/// Is X a compile-time constant, or a local that only ever holds one?
bool isConstantValue(Engine &E, const clang::Expr *X);

} // namespace distlint
