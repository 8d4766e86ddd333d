//===- Cli.h - The `distlint` command line as four stages -------*- C++ -*-===//
//
// main() runs parse -> validate -> run -> emit (Main.cpp, Emit.cpp): parsing
// only reads the options into a CliRequest, validation checks it and settles
// what is asked for, running opens the outputs (a bad path fails before the
// long analysis) and calls analyzeFiles(), emitting writes the report, the
// baseline, the fixes and the summary line and picks the exit status.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "Runner.h"
#include "report/AtomicFile.h"
#include "report/Output.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distlint {

struct RuleInfo;

/// What the command line asks for besides analyzing files.
enum class CliAction { Analyze, PrintResourceDir, Explain, ListRules, Lsp };

/// The command line after parsing; validateRequest() fills the derived
/// fields (Action's answers, the format, the threshold, the file list).
struct CliRequest {
  CliAction Action = CliAction::Analyze;
  DriverOptions Opts;
  /// Positional sources, then (with --all) the database's files.
  std::vector<std::string> Files;
  /// --explain's page, or the rules --list-rules prints.
  std::string ExplainedDoc;
  std::vector<const RuleInfo *> EnabledRules;

  OutputFormat Format = OutputFormat::Text;
  Severity FailThreshold = Severity::Warning;
  bool NeverFail = false; ///< --fail-on=never.
  std::string OutputFile;
  std::string WriteBaselineFile;
  std::string ExportFixesFile;
  bool Fix = false;
  bool FixErrors = false;
  bool Quiet = false;
  std::optional<bool> Color; ///< --use-color when given.
};

/// The files a run writes, opened before the analysis.
struct OutputTargets {
  AtomicOutputFile Report;   ///< --output; stdout when not open.
  AtomicOutputFile Baseline; ///< --write-baseline.
  std::unique_ptr<llvm::raw_fd_ostream> Fixes; ///< --export-fixes.
  /// Opens what Req names; a baseline run drops the line filter and --diff
  /// from Req (a baseline records everything).
  bool open(CliRequest &Req, std::string &Error);
};

/// What analyzeFiles() returned.
struct RunOutcome {
  AnalysisResult Result;
  std::vector<std::string> Fatal; ///< Tool errors, one line each.
  RunStats Stats;
};

/// "distlint: error: <Message>" on stderr; returns exit status 2.
int toolError(const llvm::Twine &Message);
/// Path as the user most likely typed it: relative below the current
/// directory, absolute elsewhere.
std::string displayPath(llvm::StringRef Path);

/// Writes everything the run produced and returns the exit status: 0 no
/// finding at or above --fail-on, 1 findings, 2 tool error.
int emitResult(const CliRequest &Req, RunOutcome &Run, OutputTargets &Out);

} // namespace distlint
