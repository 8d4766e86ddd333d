//===- RecordParts.h - The parts of a record value -------------*- C++ -*-===//
//
// Which parts of a class value the data-flow follows on their own: the
// elements a holder of tensors or sequences keeps apart from its shape, and
// the field of a pair a structured binding names.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"

namespace distlint {

/// Does a value of type T hold elements apart from its shape: a sequence, a
/// tensor, or a pair, tuple or struct of those (`std::pair<Tensor, Tensor>`
/// of a shard's inputs and labels)?
bool holdsElements(clang::QualType T, int Depth = 0);

/// The field of a std::pair that binding B of DD names (`auto [off, n] =
/// shard(rank)`: n is `second`), or null.
const clang::FieldDecl *pairBindingField(const clang::DecompositionDecl *DD,
                                         const clang::BindingDecl *B);

} // namespace distlint
