//===- OwnFieldWrites.h - Fields a method may change on its object -*- C++
//-*-===//
//
// A method that calls another method of its own object (`parse()` after
// `next()` broadcast the record) keeps what it knows of the fields the
// callee leaves alone: only the fields the callee may write, through any
// number of calls of the object's methods, are forgotten.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace distlint {

class Engine;

using FieldSet = llvm::SmallPtrSet<const clang::FieldDecl *, 8>;

/// The fields of its object that a call of MD may change: those it writes,
/// takes the address of, binds to a non-const reference or calls a
/// non-const method on, and those of the methods of the object it calls.
/// Null when unknown: no body, the object handed elsewhere (`this` as an
/// argument, stored), a virtual method, or a call cycle.
const FieldSet *fieldsMethodMayWrite(Engine &E, const clang::CXXMethodDecl *MD);

} // namespace distlint
