//===- ExportFixes.h - clang-tidy's --export-fixes and --fix ----*- C++ -*-===//
//
// --export-fixes writes clang-tidy's YAML (clang/Tooling/DiagnosticsYaml.h:
// MainSourceFile, Diagnostics with DiagnosticName, DiagnosticMessage
// {Message, FilePath, FileOffset, Replacements}, Notes, Level,
// BuildDirectory), one entry per finding, so clang-apply-replacements and
// editors that read clang-tidy's fixes read ours. --fix applies the same
// replacements in place.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace distlint {

/// Writes every finding (with its fix, if any) as clang-tidy's YAML.
/// MainSourceFile is the only input file when there is one, else empty
/// (what clang-tidy writes for several files).
void writeExportFixes(const std::vector<Finding> &Findings,
                      const std::string &MainSourceFile,
                      const std::string &BuildDirectory, llvm::raw_ostream &OS);

struct FixStats {
  unsigned Applied = 0;     ///< Findings whose fix was applied.
  unsigned Conflicting = 0; ///< Skipped: overlaps an earlier fix.
  unsigned Files = 0;       ///< Files rewritten.
};

/// Applies the findings' fixes to the files in place. A fix whose edits
/// overlap an already accepted fix is skipped whole; identical edits from
/// several findings (a header seen by two translation units) count once.
/// Returns false with a one-line Error if a file cannot be read or written.
bool applyFixes(const std::vector<Finding> &Findings, FixStats &Stats,
                std::string &Error);

} // namespace distlint
