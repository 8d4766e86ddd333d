//===- Baseline.h - Accept today's findings, report only new ones -*- C++ -*-===//
//
// A baseline file is JSON: {"version":1,"findings":[{"fingerprint":"…",
// "rule":"…","file":"<project-relative>","line":N,"message":"…"}]}. Only
// fingerprints matter when reading, so `--format=json` output also works as
// a baseline; the other fields help humans review the file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <vector>

namespace distlint {

void writeBaseline(const std::vector<Finding> &Findings,
                   const std::string &ProjectRoot, llvm::raw_ostream &OS);

/// Reads fingerprints from baseline text; false + one-line Error if the text
/// is not a baseline.
bool parseBaseline(const std::string &Text, const std::string &Name,
                   std::set<std::string> &Fingerprints, std::string &Error);

/// Removes findings whose fingerprint is in Baseline; returns how many.
unsigned applyBaseline(std::vector<Finding> &Findings,
                       const std::set<std::string> &Baseline);

} // namespace distlint
