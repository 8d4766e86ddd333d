//===- Config.h - .distlint.yaml configuration files ------------*- C++ -*-===//
//
// Like .clang-tidy: the nearest `.distlint.yaml` walking up from a source
// file's directory applies to that translation unit (`--config <file>`
// replaces the lookup). YAML, so JSON works too. Keys:
//
//   Rules: '-*,distlint-rank-divergent-*'   # glob list (string or sequence)
//   Severities:                             # per rule: note|warning|error
//     distlint-stray-device-sync: error
//   RankSources: [mylib::Comm::rank]        # functions returning the rank
//   WorldSizeSources: [mylib::Comm::size]   # functions returning world size
//   CollectiveWrappers: [mylib::sync_all]   # functions every rank must call
//   ReportErrorPathDivergence: false        # status-check exits diverge?
//   InheritParentConfig: true               # also apply the parent's file
//   Checks: ...                             # clang-tidy's name for Rules
//   WarningsAsErrors: 'distlint-missing-*'  # these rules' findings: error
//   HeaderFilterRegex: 'src/.*'             # clang-tidy's header filter
//   ExcludeHeaderFilterRegex: 'generated/'
//   MissingTimeoutDefault: 'std::chrono::minutes(5)'  # fix-it's timeout
//   StepSyncInterval: 100                   # fix-it's `step % N == 0`
//   TuMemoryLimit: 8G                       # address space per TU (0: none)
//
// With InheritParentConfig, the parent directory's config applies first and
// this file's values are added on top (globs appended, severities
// overridden, lists concatenated).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "api/ApiTable.h"
#include "fixes/FixOptions.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace distlint {

inline constexpr const char *ConfigFileName = ".distlint.yaml";

struct DistlintConfig {
  /// Glob lists, applied in order after the default "distlint-*".
  std::vector<std::string> RuleGlobs;
  std::map<std::string, Severity> Severities;
  api::UserApi User;
  /// ReportErrorPathDivergence: report status-check exits (error paths) as
  /// rank-divergent early exits too (engine/ErrorPaths.h). Unset: no.
  std::optional<bool> ReportErrorPathDivergence;
  /// WarningsAsErrors glob lists (config files, then the command line).
  std::vector<std::string> WarningsAsErrors;
  /// HeaderFilterRegex / ExcludeHeaderFilterRegex; the innermost file wins.
  std::optional<std::string> HeaderFilterRegex;
  std::optional<std::string> ExcludeHeaderFilterRegex;
  /// What the fix-its insert (analyzer/fixes/FixOptions.h).
  FixOptions Fixes;
  bool HasFixOptions = false; ///< Set by a file, so append() takes it.
  /// TuMemoryLimit: the address space one TU's analysis may use (bytes; 0:
  /// no limit). Unset: the default (driver/Isolation.h).
  std::optional<uint64_t> TuMemoryLimit;
  /// Files that contributed, outermost first (for messages).
  std::vector<std::string> Files;

  /// Merge Child on top of this config.
  void append(const DistlintConfig &Child);
  /// Is Rule enabled after the default, these globs and then ExtraGlobs
  /// (the --rules option)?
  bool ruleEnabled(llvm::StringRef Rule, llvm::StringRef ExtraGlobs) const;
  /// The severity of a finding of Rule that the rule rates Default (a
  /// finite library default is a note): the configured severity where
  /// Severities names the rule (so it can raise a note), else Default; a
  /// warning is then raised to error where WarningsAsErrors (and then
  /// ExtraWarningsAsErrors, the command line) matches.
  Severity severityOf(llvm::StringRef Rule,
                      Severity Default = Severity::Warning,
                      llvm::StringRef ExtraWarningsAsErrors = "") const;
};

/// "500M", "5G", "4096" (bytes); K, M and G are binary units. False on
/// anything else or an overflowing size.
bool parseByteSize(llvm::StringRef Text, uint64_t &Out);

/// Parses one config file's text. On error returns false with a one-line
/// Error naming FileName (and the line when known).
bool parseConfig(llvm::StringRef Text, llvm::StringRef FileName,
                 DistlintConfig &Out, bool &InheritParent, std::string &Error);

/// Finds and caches configs per directory. Thread-safe.
class ConfigResolver {
public:
  /// ExplicitFile: --config-file; InlineText: -config=<yaml> (both empty =
  /// per-directory lookup; InlineText wins, like clang-tidy's -config).
  explicit ConfigResolver(std::string ExplicitFile = "",
                          std::string InlineText = "");
  /// The config that applies to SourceFile (absolute). False + Error on an
  /// unreadable or malformed file.
  bool configFor(llvm::StringRef SourceFile, DistlintConfig &Out,
                 std::string &Error);

private:
  bool configForDir(llvm::StringRef Dir, DistlintConfig &Out,
                    std::string &Error);
  bool load(llvm::StringRef Path, DistlintConfig &Out, bool &Inherit,
            std::string &Error);

  std::string ExplicitFile;
  std::string InlineText;
  std::mutex Mutex;
  struct Entry {
    bool Ok;
    DistlintConfig Config;
    std::string Error;
  };
  std::map<std::string, Entry> ByDir;
};

} // namespace distlint
