//===- Exports.h - A TU's function summaries for the other TUs --*- C++ -*-===//
//
// Phase 1 of a whole-project run: for every function this TU defines with
// external linkage, the facts its callers in other TUs need (as rows would
// state them, api/ProjectFacts.h), taken from the engine's own answers:
// its summary (collectives, the rank or rank-local data it returns or
// writes, never returning), the syncs it performs on every call that
// nothing in it reads, whether it runs a training step. And the functions
// this TU calls without a body here, whose facts phase 2 brings back.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "api/ProjectFacts.h"

#include <string>
#include <vector>

namespace distlint {

class Engine;

struct TuExports {
  std::vector<api::ProjectFunction> Defines;
  /// USRs of the functions called here without a body (sorted, unique).
  std::vector<std::string> References;
};

TuExports exportSummaries(Engine &E);

} // namespace distlint
