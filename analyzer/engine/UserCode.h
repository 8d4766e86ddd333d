//===- UserCode.h - Library code that is not in a system header -*- C++ -*-===//
//
// Engine::isUserCode excludes system headers. Library headers can also come
// in through -I (a vendored LibTorch, the project's own test declarations):
// code inside the namespaces the API tables describe (c10, at, torch, c10d,
// ...) is library code too. Rules must not analyze or report there, and TU
// scans ("is CUDA used anywhere?") must not count a library's own
// definitions (`constexpr DeviceType kCUDA = DeviceType::CUDA;`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Engine.h"

namespace distlint {

/// Is D declared inside a namespace that the API tables describe?
bool isLibraryDecl(Engine &E, const clang::Decl *D);

/// Is FD declared in an API's own header: a file that declares a function
/// the API tables have a row for (mpi.h reached through -I declares
/// MPI_Bcast, so MPI_File_read is the library's too, not the project's)?
bool isApiHeaderDecl(Engine &E, const clang::FunctionDecl *FD);

/// User code that rules analyze: not a system header, not library code.
bool isAnalyzedDecl(Engine &E, const clang::Decl *D);

/// Code whose bodies the engine learns from: user code, and inline bodies
/// of third-party and system headers outside the API tables' namespaces and
/// the implementation's reserved names (a header-only communicator wrapper
/// whose rank() returns a member MPI_Comm_rank filled). They give summaries
/// (rank sources, collectives, uniform results), never findings.
bool isTaughtDecl(Engine &E, const clang::Decl *D);
bool isAnalyzedStmt(Engine &E, const clang::Stmt *S);

} // namespace distlint
