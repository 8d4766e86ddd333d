//===- Analysis.h - Run the engine and rules on one parsed TU ---*- C++ -*-===//
//
// Parsing, analysis and reporting are separate steps: the driver parses (and
// may later share a preamble between TUs), this consumer analyzes an AST, and
// a DiagnosticSink turns raw findings into output. Matching is restricted to
// the top-level declarations of the main file and the project's own headers
// (like clangd's traversal scope, ASTContext::setTraversalScope), so the cost
// of analysis does not grow with the size of system or third-party headers,
// precompiled or not. The engine still reads those headers' declarations
// when a rule asks about a call into them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Rule.h"
#include "api/ApiTable.h"
#include "api/ProjectFacts.h"
#include "clang/AST/ASTConsumer.h"

#include <functional>
#include <memory>

namespace distlint {

class Engine;

struct AnalysisOptions {
  /// Which rule ids run for this TU (after --rules and config files).
  std::function<bool(llvm::StringRef RuleId)> RuleEnabled;
  /// Extra rank sources and collective wrappers from config files.
  api::UserApi User;
  /// Files under it are the project's own (see isUserPath in
  /// input/Paths.h); empty = only installed locations count as foreign.
  std::string ProjectRoot;
  /// Report status-check exits as divergent (ReportErrorPathDivergence).
  bool ReportErrorPaths = false;
  /// What fix-its insert (config: MissingTimeoutDefault, StepSyncInterval).
  FixOptions Fixes;
  /// Facts of the functions defined in other TUs (api/ProjectFacts.h);
  /// null: calls without a body here stay unknown.
  std::shared_ptr<const api::ProjectFacts> Project;
  /// Called with the engine after the rules ran (the driver exports the
  /// TU's summaries there, reusing what the rules computed).
  std::function<void(Engine &)> AfterRules;
};

/// Runs every enabled rule over an AST; findings go to Sink.
void analyzeAST(clang::ASTContext &Ctx, const AnalysisOptions &Opts,
                DiagnosticSink &Sink);

/// ASTConsumer that calls analyzeAST at the end of the TU.
std::unique_ptr<clang::ASTConsumer>
makeAnalysisConsumer(AnalysisOptions Opts, DiagnosticSink &Sink);

} // namespace distlint
