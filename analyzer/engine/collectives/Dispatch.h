//===- Dispatch.h - Calls whose target the run chooses ----------*- C++ -*-===//
//
// Calls that may run one of several functions, chosen at run time: a
// virtual call on an object of unknown class, a callable holder given
// several functions, std::visit on a variant, and the element calls of a
// container of registered callables (which run every registration).
//
//===----------------------------------------------------------------------===//
#pragma once
#include "engine/Engine.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace distlint {
namespace collectives {

/// The functions a call may run when its target is chosen at run time: the
/// overriders of an unresolved virtual call, the candidates of a holder
/// given several functions, a visitor's call operators (std::visit). With
/// Registered, also the callables registered in the container whose element
/// it calls (each of those runs in turn: none is chosen).
llvm::SmallVector<const clang::FunctionDecl *, 4>
possibleTargets(Engine &E, const clang::CallExpr *Call,
                bool Registered = false);

/// `r->sync()` where the possible targets issue different collectives and
/// what chooses among them (the object, the holder, the variant) depends on
/// the rank: the ranks run different functions.
std::optional<Engine::Divergence>
dispatchDivergence(Engine &E, const clang::CallExpr *Call);

/// Does FD (a project function with a body) issue collectives?
bool issuesCollectives(Engine &E, const clang::FunctionDecl *FD);

/// Is Terminator the range-for over the container whose element Call runs?
/// How many callables it holds is not how many collectives it issues (the
/// registrations decide, Engine::registrationDivergence).
bool iteratesRegistrations(Engine &E, const clang::CallExpr *Call,
                           const clang::Stmt *Terminator);

} // namespace collectives
} // namespace distlint
