//===- RoleSites.h - Every call of an API role in the TU -------*- C++ -*-===//
//
// One walk over user code indexes all calls (and constructor calls) by the
// roles of their callee, in source order. Rules use it for TU-wide questions
// ("does anything here call ncclCommGetAsyncError?", "which set_epoch calls
// exist?") without walking the AST again.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Engine.h"
#include "llvm/ADT/ArrayRef.h"

namespace distlint {

/// Calls and constructions in user code whose callee has role R (dependent
/// template patterns excluded), in source order. A factory call that
/// forwards to a constructor (make_shared<T>, make_intrusive<T>) is listed
/// under the constructor's roles too.
llvm::ArrayRef<const clang::Expr *> callsWithRole(Engine &E, api::Role R);

} // namespace distlint
