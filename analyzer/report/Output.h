//===- Output.h - Text, JSON and SARIF writers ------------------*- C++ -*-===//
//
// All writers take an already sorted AnalysisResult (sortAndDedupe), so the
// bytes written do not depend on how many threads produced it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace distlint {

enum class OutputFormat { Text, Json, Sarif };
/// "text" / "json" / "sarif"; false on anything else.
bool parseOutputFormat(const std::string &Text, OutputFormat &Out);

/// What SARIF says about a rule (tool.driver.rules[]).
struct RuleDescription {
  std::string Id;
  std::string Summary;     ///< shortDescription: one line.
  std::string Description; ///< fullDescription: a paragraph.
  std::string HelpMarkdown; ///< help: the rule's doc page.
};

struct OutputOptions {
  /// Paths in JSON/SARIF and baselines are made relative to this (SARIF
  /// uses it as %SRCROOT%); text output prints the absolute paths.
  std::string ProjectRoot;
  /// ANSI colors in text output (only when writing to a terminal).
  bool Color = false;
  std::string ToolVersion;
  /// Rules listed in SARIF, in this order (findings of other rule ids get
  /// an entry with their id only).
  std::vector<RuleDescription> Rules;
};

/// `path:line:col: warning: message [rule]` then `path:line:col: note: ...`.
/// File errors are not part of it (writeToolErrors, on stderr).
void writeText(const AnalysisResult &R, const OutputOptions &O,
               llvm::raw_ostream &OS);
/// {"tool":{...},"findings":[...],"errors":[...]}; file paths absolute.
void writeJson(const AnalysisResult &R, const OutputOptions &O,
               llvm::raw_ostream &OS);
/// SARIF 2.1.0 accepted by GitHub code scanning.
void writeSarif(const AnalysisResult &R, const OutputOptions &O,
                llvm::raw_ostream &OS);
/// File errors in clang's form, for problem matchers and CI annotations:
/// `path:line:col: error: message` (line 1, column 1 when the error has no
/// place of its own, e.g. a file without a compile command).
void writeToolErrors(const std::vector<FileError> &Errors,
                     llvm::raw_ostream &OS, bool Color);
void writeResult(OutputFormat F, const AnalysisResult &R,
                 const OutputOptions &O, llvm::raw_ostream &OS);

} // namespace distlint
