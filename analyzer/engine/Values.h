//===- Values.h - Constant values and variable definitions ------*- C++ -*-===//
//
// Small value questions several rules ask: what constant an expression
// holds (integers, strings, std::chrono durations) and whether a variable is
// written inside a region (stripValue / designatedVar: ast/AstHelpers.h).
// Local variables with a single definition are followed to their
// initializer, so `const auto t = std::chrono::hours(48); opts->timeout = t;`
// is understood like the literal.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Engine.h"
#include "engine/ast/AstHelpers.h"
#include "llvm/ADT/APSInt.h"

#include <optional>
#include <string>

namespace distlint {

/// The initializer of a variable that is never written after it (locals:
/// not mutated in their function; globals: const). Null otherwise.
const clang::Expr *soleDefinition(Engine &E, const clang::VarDecl *VD);

/// Is VD possibly written (assigned, incremented, passed by non-const
/// reference, address taken...) inside Region?
bool isWrittenIn(Engine &E, const clang::VarDecl *VD,
                 const clang::Stmt *Region);

/// (Only values an int64_t holds: getExtValue() is safe on the result.)
std::optional<llvm::APSInt> evaluateInt(Engine &E, const clang::Expr *X);
std::optional<std::string> evaluateString(Engine &E, const clang::Expr *X);
/// Value of a std::chrono::duration expression in milliseconds.
std::optional<double> evaluateDurationMs(Engine &E, const clang::Expr *X);

/// Is X a compile-time constant, or a local that only ever holds one?
bool isConstantValue(Engine &E, const clang::Expr *X);

} // namespace distlint
