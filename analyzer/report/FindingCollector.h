//===- FindingCollector.h - The standalone driver's DiagnosticSink -*- C++ -*-===//
//
// Turns RawFindings (Clang locations) into Findings (plain data) while the
// AST and source buffers are still alive:
//   - locations become expansion locations with absolute normalized paths,
//   - findings in system headers or third-party files are dropped,
//   - NOLINT comments are honoured (report/Suppressions.h), including in
//     macro definitions up the expansion chain, like clang-tidy,
//   - the per-rule severity is applied and the fingerprint key computed.
// One collector per translation unit; not thread-safe.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Rule.h"
#include "report/Suppressions.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace distlint {

struct CollectorOptions {
  /// Root for fingerprint paths; files under it are always user code.
  std::string ProjectRoot;
  /// Severity of a finding of Rule that the rule rates Default; unset:
  /// Default.
  std::function<Severity(llvm::StringRef Rule, Severity Default)> SeverityOf;
  /// clang-tidy's -header-filter / -exclude-header-filter. Findings in the
  /// main file are always kept. In other non-system files: with a
  /// HeaderFilter, only where it matches the absolute path; without one,
  /// wherever isUserFile holds. ExcludeHeaderFilter then removes matches.
  std::shared_ptr<llvm::Regex> HeaderFilter;
  std::shared_ptr<llvm::Regex> ExcludeHeaderFilter;
};

class FindingCollector : public DiagnosticSink {
public:
  explicit FindingCollector(CollectorOptions Opts);
  ~FindingCollector() override;

  /// Lets fingerprints use the enclosing function's name. Optional.
  void setASTContext(const clang::ASTContext *Ctx) { AST = Ctx; }

  /// For a TU parsed on a shared preamble: maps an offset in the preamble's
  /// FileID (the main file it was built from) to this TU's main file, so
  /// locations and NOLINT lookups are the same as without the preamble.
  void setPreambleOffsetMap(std::function<unsigned(unsigned)> Map) {
    PreambleMap = std::move(Map);
  }

  void report(RawFinding F, const clang::SourceManager &SM) override;
  void limitsHit(const std::vector<std::string> &Lines) override {
    LimitsHit = Lines;
  }
  std::vector<std::string> takeLimitsHit() { return std::move(LimitsHit); }

  /// Reports unmatched NOLINTBEGIN/NOLINTEND in the main file and in every
  /// file a finding was checked against. Call once, before the
  /// SourceManager dies.
  void finishTranslationUnit(const clang::SourceManager &SM);

  std::vector<Finding> takeFindings() { return std::move(Findings); }
  unsigned suppressedCount() const { return Suppressed; }
  /// Findings dropped because their header did not pass the header filter.
  unsigned headerFilteredCount() const { return HeaderFiltered; }

  /// Is this (absolute, normalized) path user code rather than an installed
  /// third-party header? Files under the project root always are.
  bool isUserFile(llvm::StringRef Path) const;

private:
  bool isSuppressed(clang::SourceLocation Loc, llvm::StringRef Rule,
                    const clang::SourceManager &SM);
  FileSuppressions &suppressionsFor(clang::FileID FID,
                                    const clang::SourceManager &SM);
  bool passesHeaderFilter(clang::SourceLocation ExpansionLoc,
                          llvm::StringRef Path,
                          const clang::SourceManager &SM) const;
  bool toReplacements(const std::vector<clang::FixItHint> &Hints,
                      const clang::SourceManager &SM,
                      std::vector<Replacement> &Out) const;
  bool toLocation(clang::SourceLocation Loc, const clang::SourceManager &SM,
                  Location &Out) const;
  std::string enclosingFunctionName(clang::SourceLocation ExpansionLoc) const;
  void addFinding(Finding F, clang::SourceLocation ExpansionLoc,
                  const clang::SourceManager &SM);

  /// Loc itself, or its place in the main file if it lies in the preamble.
  clang::SourceLocation fromPreamble(clang::SourceLocation Loc,
                                     const clang::SourceManager &SM) const;

  CollectorOptions Opts;
  const clang::ASTContext *AST = nullptr;
  std::function<unsigned(unsigned)> PreambleMap;
  llvm::DenseMap<clang::FileID, std::unique_ptr<FileSuppressions>> NoLints;
  std::vector<Finding> Findings;
  std::vector<std::string> LimitsHit;
  unsigned Suppressed = 0;
  unsigned HeaderFiltered = 0;
};

} // namespace distlint
