//===- Fingerprint.h - Finding identities that survive edits ----*- C++ -*-===//
//
// A fingerprint must stay the same when unrelated lines are inserted above a
// finding, so it never uses line numbers. It hashes:
//   rule id, file path relative to the project root, the finding's source
//   line with whitespace collapsed and any trailing // comment removed, the
//   qualified name of the enclosing function, and the index of the finding
//   among findings with the same four values (in line order).
// Computed in two steps: the sink stores fingerprintKey() while the source is
// available; finalizeFingerprints() adds the occurrence index once all
// translation units are merged and sorted.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace distlint {

/// Source line text as it enters the hash.
std::string normalizeSourceLine(llvm::StringRef Line);

/// The per-finding part of a fingerprint (a hex digest).
std::string fingerprintKey(llvm::StringRef Rule, llvm::StringRef RelativeFile,
                           llvm::StringRef SourceLine,
                           llvm::StringRef EnclosingFunction);

/// Replaces each Finding::Fingerprint (holding fingerprintKey) by the final
/// fingerprint. Findings must be sorted (sortAndDedupe).
void finalizeFingerprints(std::vector<Finding> &Findings);

} // namespace distlint
