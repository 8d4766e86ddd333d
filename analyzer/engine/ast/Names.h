//===- Names.h - Declaration names without assertions -----------*- C++ -*-===//
#pragma once

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"

namespace distlint {

/// D's name when it is a plain identifier, else "" (operators, constructors
/// and conversions have none, and NamedDecl::getName() asserts on them: the
/// analyze fuzzer found that through std::string's operator+).
inline llvm::StringRef identifierName(const clang::NamedDecl *D) {
  const clang::IdentifierInfo *Id = D ? D->getIdentifier() : nullptr;
  return Id ? Id->getName() : llvm::StringRef();
}

} // namespace distlint
