//===- Runner.h - Analyze files the way the `distlint` CLI does -*- C++ -*-===//
//
// The reusable half of the driver. The CLI (Main.cpp), the language server
// (analyzer/lsp/) and the pre-commit glue all call analyzeFiles(), so they
// agree on compilation-database lookup, flag clean-up, config files, rule
// selection, NOLINT suppressions, baselines and filters.
//
// Compile commands are resolved first (resolveCompileCommands), --shard
// picks this shard's TUs, the result cache replays unchanged TUs, the rest
// are parsed and analyzed (one clang::tooling::ClangTool per TU, in a thread
// pool, sharing precompiled preambles), and filtering / output happen on
// plain Finding data afterwards.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "report/Output.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distlint {

namespace api {
struct ProjectFacts; // api/ProjectFacts.h; kept out of this header, which
                     // the LSP fuzz harness compiles without LLVM.
} // namespace api

/// Options of one analysis run. Every field has the CLI's default.
struct DriverOptions {
  //--- Finding compile commands ------------------------------------------
  /// -p: directory holding compile_commands.json (it and its parents are
  /// searched). Empty: search upward from each source file, then build*/
  /// directories of the current directory.
  std::string BuildPath;
  /// Flags after `--` (clang-tidy's fixed compilation database). When
  /// UseFixedFlags is set, no compile_commands.json is looked up at all.
  bool UseFixedFlags = false;
  std::vector<std::string> FixedFlags;
  /// --extra-arg / --extra-arg-before: appended / prepended to every command.
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  /// --resource-dir; empty = found next to the binary, then the build-time
  /// DISTLINT_CLANG_RESOURCE_DIR, then /usr/lib/llvm-19/lib/clang/19.
  std::string ResourceDir;

  //--- What to report ----------------------------------------------------
  /// --rules: comma-separated globs applied after the config files' `Rules`
  /// (e.g. "-*,distlint-missing-timeout"). Empty = config / all rules.
  std::string RuleGlobs;
  /// --config: one config file used for every source instead of the
  /// per-directory .distlint.yaml files (see analyzer/input/Config.h).
  std::string ConfigFile;
  /// -config=<yaml>: clang-tidy's inline config, used for every source
  /// instead of file lookup (wins over ConfigFile).
  std::string InlineConfig;
  /// --warnings-as-errors: globs whose findings become errors, applied after
  /// the config files' WarningsAsErrors.
  std::string WarningsAsErrors;
  /// -header-filter / -exclude-header-filter (regexes over absolute paths);
  /// unset = the config's HeaderFilterRegex, else every user header.
  std::optional<std::string> HeaderFilter;
  std::optional<std::string> ExcludeHeaderFilter;
  /// Root for repo-relative paths (fingerprints, SARIF uri, baseline).
  /// Empty = the git top-level of the current directory, else the cwd.
  std::string ProjectRoot;

  //--- Filters applied after analysis (in this order) ---------------------
  /// --line-filter: clang-tidy's JSON syntax
  /// ([{"name":"file.cpp","lines":[[1,3],[5,5]]}]). Empty = no filter.
  std::string LineFilter;
  /// --diff: keep findings on lines changed since this git revision.
  std::string DiffRevision;
  /// --baseline: drop findings whose fingerprint is in this file.
  std::string BaselineFile;

  //--- Execution ---------------------------------------------------------
  /// -j: translation units analyzed in parallel; 0 = the cores, fewer if
  /// the available memory does not hold that many TUs (Isolation.h).
  /// The result does not depend on it.
  unsigned Jobs = 0;
  /// Each TU in its own process, so a crash costs only that TU (Isolation.h).
  /// --no-isolation: in-process threads (for debuggers; a crash may end the
  /// run).
  bool Isolate = true;
  /// --crash-report: directory for a report per crashed TU.
  std::string CrashReportDir;
  /// --verbose: one line per adjustment made to a compile command and per
  /// decision (which database, which borrowed command).
  std::function<void(const std::string &File, const std::string &Line)>
      Verbose;
  /// Unsaved file contents (absolute path -> text), e.g. from an editor.
  std::map<std::string, std::string> Overlays;
  /// Called after each TU finishes (from worker threads, serialized):
  /// Done in [1, Total], File = the TU's main file.
  std::function<void(unsigned Done, unsigned Total, const std::string &File)>
      Progress;

  //--- Speed (Preamble.h, ResultCache.h, Shard.h) --------------------------
  /// Auto: TUs with the same preamble share one precompiled preamble (and a
  /// preamble kept in the cache directory is reused). Always: also build one
  /// for a single TU (tests). Off: --no-preamble-sharing.
  enum class PreambleSharing { Auto, Always, Off };
  PreambleSharing Preambles = PreambleSharing::Auto;
  /// --cache-dir; empty = $XDG_CACHE_HOME/distlint. --no-cache: UseCache off.
  std::string CacheDir;
  bool UseCache = true;
  /// Summaries across TUs (ProjectIndex.h); --no-project-index: off.
  bool UseProjectIndex = true;
  /// --cache-size: least recently used entries go beyond it.
  uint64_t CacheMaxBytes = 5ull << 30;
  /// --tu-memory-limit (bytes, 0: none); unset: the config's TuMemoryLimit,
  /// else defaultTuMemoryLimit() (driver/Isolation.h).
  std::optional<uint64_t> TuMemoryLimit;
  /// --remote-storage: ccache-style URL (http://..., redis://...[|read-only]).
  std::string RemoteStorage;
  /// --shard K/N (1-based K): analyze only this shard's TUs. N = 0: all.
  unsigned ShardIndex = 0, ShardCount = 0;
};

/// A resolved compile command for one source file.
struct CompileJob {
  std::string File;      ///< Absolute, normalized main file.
  std::string Directory; ///< Working directory of the command.
  std::vector<std::string> Args; ///< argv, compiler first, after clean-up.
  /// Where the command came from ("compile database build/... (command of
  /// src/a.cpp)"), said with the file's first error and by --verbose.
  std::string Origin;
  /// What the clean-up changed that the user may want to know (--verbose).
  std::vector<std::string> Adjustments;
  /// Facts of the functions it calls that other TUs define
  /// (ProjectIndex.h), and their digest (part of the result cache's key).
  std::shared_ptr<const api::ProjectFacts> Facts;
  std::string FactsDigest;
  /// Export its summaries: someone reads them (another TU of the run, or
  /// the index kept in the cache).
  bool ExportSummaries = false;
};

/// Files of the compilation database found from Opts.BuildPath (or the
/// current directory's build*/ dirs), for --all. Returns false and sets
/// Error to one line if no usable database is found.
bool allDatabaseFiles(const DriverOptions &Opts, std::vector<std::string> &Out,
                      std::string &Error);

/// Finds and cleans the compile command of every file (GCC-only flags
/// removed, resource dir and extra args injected). Files without a command
/// go to Result.Errors; tool errors (malformed database, unreadable config)
/// go to Fatal as one line each.
std::vector<CompileJob>
resolveCompileCommands(const std::vector<std::string> &Files,
                       const DriverOptions &Opts,
                       std::vector<FileError> &FileErrors,
                       std::vector<std::string> &Fatal);

/// Counters for the CLI's summary line.
struct RunStats {
  unsigned TranslationUnits = 0;
  unsigned SuppressedByNoLint = 0;
  unsigned RemovedByBaseline = 0;
  unsigned RemovedByFilters = 0; ///< --line-filter and --diff.
  unsigned RemovedByHeaderFilter = 0; ///< -header-filter and the config's.
  unsigned CacheHits = 0;     ///< TUs replayed from the result cache.
  unsigned PreambleUsers = 0; ///< TUs parsed on a shared preamble.
  /// TUs where an engine limit was hit (engine/Budget.h; --verbose names
  /// them): their findings may be partial.
  unsigned LimitedTUs = 0;
};

/// The whole pipeline: resolve commands, parse and analyze each TU (in
/// parallel), convert findings (NOLINT, system headers, fingerprints,
/// per-rule severities), then apply line filter, --diff and baseline.
/// Findings come back sorted and deduplicated; FileErrors (TUs that failed
/// to parse, files without a command) are in the result's Errors. Tool errors
/// (bad option values, malformed compile database or config, bad baseline)
/// are appended to *Errors as one line each; if any is present the caller
/// must exit with status 2. Thread-safe: may be called concurrently.
AnalysisResult analyzeFiles(const std::vector<std::string> &Files,
                            const DriverOptions &Opts,
                            std::vector<std::string> *Errors,
                            RunStats *Stats = nullptr);

/// Tool version ("0.1.0").
const char *toolVersion();

/// Output options every front end uses: project root, version, SARIF rule
/// descriptions (summaries and embedded doc pages).
OutputOptions outputOptionsFor(const DriverOptions &Opts);

/// The Clang resource directory analyzeFiles injects (for tests, --version).
std::string findResourceDir(const DriverOptions &Opts);

/// Language server on stdin/stdout; implemented in analyzer/lsp/ by the
/// integrations code. Base supplies -p, --config, --rules etc. from the
/// command line. Returns the process exit status.
int runLspServer(const DriverOptions &Base);

} // namespace distlint
