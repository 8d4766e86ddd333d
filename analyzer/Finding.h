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

/// One edit of a fix-it: replace Length bytes at Offset of File by Text
/// (clang::tooling::Replacement as plain data).
struct Replacement {
  std::string File; ///< Absolute, normalized path.
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

struct Finding {
  std::string Rule;
  Severity Sev = Severity::Warning;
  Location Loc;
  std::string Message;
  std::vector<Note> Notes;
  /// A mechanical fix (empty when none is safe): every edit or none.
  std::vector<Replacement> Fixes;
  /// Stable across unrelated edits above the finding (see Fingerprint.h).
  std::string Fingerprint;
};

/// Why a file has no results.
enum class FileErrorKind : uint8_t {
  Failed,      ///< Clang or the analysis could not process it.
  NotAnalyzed, ///< A tool error (its config) kept it from being analyzed;
               ///< the error itself is reported once as a tool error.
};

/// A translation unit or input that could not be analyzed.
struct FileError {
  std::string File;
  std::string Message; ///< Starts with "At.File:line:col: " when At is set.
  /// Where the error is (maybe a header of File); Line 0 = not known.
  Location At;
  FileErrorKind Kind = FileErrorKind::Failed;
};

struct AnalysisResult {
  std::vector<Finding> Findings;
  std::vector<FileError> Errors;
};

/// Orders findings by file, line, column, rule, message: the order every
/// output format uses, so -j N output is identical to -j 1.
void sortAndDedupe(std::vector<Finding> &Findings);

} // namespace distlint
