//===- Construction.h - What object an expression constructs ---*- C++ -*-===//
//
// `T x(args)`, `new T(args)`, `std::make_shared<T>(args)`,
// `c10::make_intrusive<T>(args)` and other factories that forward their
// arguments all run a constructor of T. This facility finds that constructor
// by following the forwarded parameters through the factory's instantiated
// body, and maps every constructor parameter back to the argument the user
// wrote (null where the default argument applies).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Engine.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace distlint {

struct Construction {
  const clang::Expr *Site = nullptr;
  const clang::CXXConstructorDecl *Ctor = nullptr;
  /// Per constructor parameter: the user's argument, or null (default).
  llvm::SmallVector<const clang::Expr *, 6> Args;

  const clang::Expr *arg(int Index) const {
    return Index >= 0 && unsigned(Index) < Args.size() ? Args[Index] : nullptr;
  }
  bool hasArg(int Index) const { return arg(Index) != nullptr; }
};

/// The construction X performs, if any.
std::optional<Construction> constructionAt(Engine &E, const clang::Expr *X);

/// Arguments of a call as the callee's parameters see them (the object of a
/// member operator call skipped; null for defaulted parameters).
const clang::Expr *callArgument(const clang::CallExpr *Call,
                                const clang::FunctionDecl *Callee, int Index);

} // namespace distlint
