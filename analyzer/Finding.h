//===- Finding.h - What distlint reports -----------------------*- C++ -*-===//
//
// Plain data that leaves the analysis: no Clang types here, so output writers,
// baselines and the runtime join can use it without an AST.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace distlint {

enum class Severity { Note, Warning, Error };

const char *severityName(Severity S);
/// Parses "note" / "warning" / "error"; returns false on anything else.
bool parseSeverity(const std::string &Text, Severity &Out);

struct Location {
  std::string File; ///< Absolute, normalized path.
  unsigned Line = 0;
  unsigned Column = 0;
};

struct Note {
  Location Loc;
  std::string Message;
};

struct Finding {
  std::string Rule;
  Severity Sev = Severity::Warning;
  Location Loc;
  std::string Message;
  std::vector<Note> Notes;
  /// Stable across unrelated edits above the finding (see Fingerprint.h).
  std::string Fingerprint;
};

/// A translation unit or input that could not be analyzed.
struct FileError {
  std::string File;
  std::string Message;
};

struct AnalysisResult {
  std::vector<Finding> Findings;
  std::vector<FileError> Errors;
};

/// Orders findings by file, line, column, rule, message: the order every
/// output format uses, so -j N output is identical to -j 1.
void sortAndDedupe(std::vector<Finding> &Findings);

} // namespace distlint
