//===- Threads.h - Collectives issued once per thread ----------*- C++ -*-===//
//
// A collective inside an OpenMP parallel region runs on every thread of the
// team: a rank issues it as many times as it has threads, and the threads of
// different ranks reach the communicator in no agreed order (MPI requires
// the same order on every member; NCCL and c10d likewise). The team size
// itself may differ between ranks (OMP_NUM_THREADS, the cores of a node).
// Work-sharing that hands the call to one thread (`single`, `master`,
// `masked`, a test of `omp_get_thread_num()`) issues it once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"

namespace clang {
class OMPExecutableDirective;
} // namespace clang

namespace distlint {
namespace collectives {

/// The parallel directive whose every thread runs Call, or null when Call
/// runs outside one or on one thread of it.
const clang::OMPExecutableDirective *
perThreadRegion(Engine &E, const clang::CallExpr *Call);

} // namespace collectives
} // namespace distlint
