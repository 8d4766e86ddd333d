//===- Analysis.h - Run the engine and rules on one parsed TU ---*- C++ -*-===//
//
// Parsing, analysis and reporting are separate steps: the driver parses (and
// may later share a preamble between TUs), this consumer analyzes an AST, and
// a DiagnosticSink turns raw findings into output. Matching is restricted to
// top-level declarations in user code (like clangd's traversal scope), so the
// cost of analysis does not grow with the size of system headers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Rule.h"
#include "api/ApiTable.h"
#include "clang/AST/ASTConsumer.h"

#include <functional>
#include <memory>

namespace distlint {

struct AnalysisOptions {
  /// Which rule ids run for this TU (after --rules and config files).
  std::function<bool(llvm::StringRef RuleId)> RuleEnabled;
  /// Extra rank sources and collective wrappers from config files.
  api::UserApi User;
  /// Report status-check exits as divergent (ReportErrorPathDivergence).
  bool ReportErrorPaths = false;
  /// What fix-its insert (config: MissingTimeoutDefault, StepSyncInterval).
  FixOptions Fixes;
};

/// Runs every enabled rule over an AST; findings go to Sink.
void analyzeAST(clang::ASTContext &Ctx, const AnalysisOptions &Opts,
                DiagnosticSink &Sink);

/// ASTConsumer that calls analyzeAST at the end of the TU.
std::unique_ptr<clang::ASTConsumer>
makeAnalysisConsumer(AnalysisOptions Opts, DiagnosticSink &Sink);

} // namespace distlint
