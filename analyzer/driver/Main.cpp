//===- Main.cpp - The `distlint` command line -----------------------------===//
//
// clang-tidy's spelling where it has one: distlint [options] <files...>
// [-- <compile flags>]. Everything but option parsing and printing lives in
// Runner.cpp so the language server and pre-commit glue behave the same.
//
// Exit status: 0 no finding at or above --fail-on, 1 findings, 2 tool error
// (bad arguments, unreadable/malformed compile database or config, a file
// that could not be parsed).
//
//===----------------------------------------------------------------------===//
#include "Merge.h"
#include "ResultCache.h"
#include "RuleDocs.h"
#include "Runner.h"
#include "Shard.h"
#include "Rule.h"
#include "report/Baseline.h"
#include "report/Config.h"
#include "report/Output.h"
#include "report/Paths.h"

#include "clang/Basic/Version.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <string>
#include <vector>

using namespace llvm;
using namespace distlint;

namespace {
cl::OptionCategory Category("distlint options");

cl::list<std::string> Sources(cl::Positional, cl::desc("<source files...>"),
                              cl::cat(Category));
cl::opt<std::string> BuildPath(
    "p", cl::desc("Build directory holding compile_commands.json (it and its "
                  "parents are searched). Without -p, the database is looked "
                  "up from each source file upward, then in build*/ of the "
                  "current directory."),
    cl::value_desc("build-path"), cl::cat(Category));
cl::opt<bool> All("all",
                  cl::desc("Analyze every file of the compilation database"),
                  cl::cat(Category));
// A string, so a bad value is reported by us on one line (llvm::cl would
// print its own message to stderr).
cl::opt<std::string> Jobs("j",
                       cl::desc("Translation units analyzed in parallel "
                                "(default: number of cores); the output does "
                                "not depend on it"),
                       cl::value_desc("N"), cl::Prefix,
                       cl::cat(Category));
cl::opt<std::string> Rules(
    "rules",
    cl::desc("Comma-separated globs selecting rules, applied after config "
             "files, e.g. -*,distlint-missing-timeout"),
    cl::value_desc("globs"), cl::cat(Category));
cl::opt<bool> ListRules("list-rules", cl::desc("List the enabled rules and exit"),
                        cl::cat(Category));
cl::opt<std::string> Explain("explain",
                             cl::desc("Print a rule's documentation and exit"),
                             cl::value_desc("rule"), cl::cat(Category));
cl::list<std::string> ExtraArgs(
    "extra-arg", cl::desc("Add this argument to the end of every compile command"),
    cl::cat(Category));
cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Add this argument to the start of every compile command"),
    cl::cat(Category));
cl::opt<std::string> ConfigFile(
    "config",
    cl::desc("Use this config file for every source instead of the nearest "
             ".distlint.yaml"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> Format("format", cl::desc("Output format: text, json or sarif"),
                            cl::value_desc("text|json|sarif"), cl::init("text"),
                            cl::cat(Category));
cl::opt<std::string> OutputFile("output",
                                cl::desc("Write the report to this file"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> FailOn(
    "fail-on",
    cl::desc("Exit 1 if a finding has at least this severity: note, warning "
             "(default), error, or never"),
    cl::value_desc("severity"), cl::init("warning"), cl::cat(Category));
cl::opt<std::string> WriteBaselineFile(
    "write-baseline",
    cl::desc("Record the current findings in this file and exit 0"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> BaselineFile(
    "baseline", cl::desc("Report only findings not recorded in this baseline"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> LineFilterJson(
    "line-filter",
    cl::desc("Report only findings on these lines, clang-tidy's JSON syntax: "
             "[{\"name\":\"file.cpp\",\"lines\":[[1,3],[5,7]]},...]"),
    cl::value_desc("json"), cl::cat(Category));
cl::opt<std::string> DiffRevision(
    "diff",
    cl::desc("Report only findings on lines changed since this git revision "
             "(git diff -U0 <rev>, plus untracked files)"),
    cl::value_desc("git-rev"), cl::cat(Category));
cl::opt<std::string> ResourceDir(
    "resource-dir", cl::desc("Clang resource directory (builtin headers)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("No progress or summary on stderr"),
                    cl::cat(Category));
cl::opt<bool> Lsp("lsp",
                  cl::desc("Run as a language server on stdin/stdout"),
                  cl::cat(Category));
// Speed (issue 14): analyzer/driver/{Preamble,ResultCache,Shard}.h.
cl::opt<bool> NoPreambleSharing(
    "no-preamble-sharing",
    cl::desc("Parse every TU's includes itself instead of sharing one "
             "precompiled preamble between TUs that start alike"),
    cl::cat(Category));
cl::opt<bool> AlwaysSharePreamble(
    "always-build-preamble", cl::Hidden,
    cl::desc("Build a precompiled preamble even for a single TU (tests)"),
    cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Result cache directory (default $XDG_CACHE_HOME/distlint)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoCache("no-cache",
                      cl::desc("Neither read nor write the result cache"),
                      cl::cat(Category));
cl::opt<std::string> CacheSize(
    "cache-size",
    cl::desc("Size limit of the cache directory (default 5G); least "
             "recently used entries are evicted"),
    cl::value_desc("N[K|M|G]"), cl::cat(Category));
cl::opt<std::string> RemoteStorageUrl(
    "remote-storage",
    cl::desc("Shared result cache, ccache's URL forms: http://host[:port]/path "
             "or redis://host[:port], optionally followed by |read-only"),
    cl::value_desc("url"), cl::cat(Category));
cl::opt<std::string> Shard(
    "shard",
    cl::desc("Analyze only part K of N of the TUs (CI matrices; combine the "
             "reports with `distlint merge`)"),
    cl::value_desc("K/N"), cl::cat(Category));
cl::opt<bool> Verbose(
    "verbose",
    cl::desc("Say which TUs shared which preamble, and cache hits"),
    cl::cat(Category));
cl::opt<bool> PrintResourceDir("print-resource-dir", cl::Hidden,
                               cl::desc("Print the Clang resource directory used"),
                               cl::cat(Category));

int toolError(const Twine &Message) {
  errs() << "distlint: error: " << Message << "\n";
  return 2;
}

std::string displayPath(StringRef Path) {
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd) && isUnder(Path, Cwd))
    return relativeToRoot(Path, Cwd);
  return Path.str();
}

void printVersion(raw_ostream &OS) {
  OS << "distlint " << toolVersion() << " (Clang " << CLANG_VERSION_STRING
     << ")\n";
}

/// --no-preamble-sharing, --cache-*, --remote-storage, --shard, --verbose.
bool applySpeedOptions(DriverOptions &Opts, std::string &Error) {
  Opts.Preambles = NoPreambleSharing ? DriverOptions::PreambleSharing::Off
                   : AlwaysSharePreamble
                       ? DriverOptions::PreambleSharing::Always
                       : DriverOptions::PreambleSharing::Auto;
  Opts.CacheDir = CacheDir;
  Opts.UseCache = !NoCache;
  if (!CacheSize.empty() && !parseByteSize(CacheSize, Opts.CacheMaxBytes)) {
    Error = "--cache-size expects a size like 500M or 5G, not '" + CacheSize +
            "'";
    return false;
  }
  Opts.RemoteStorage = RemoteStorageUrl;
  if (!Shard.empty() &&
      !parseShard(Shard, Opts.ShardIndex, Opts.ShardCount, Error))
    return false;
  if (Verbose)
    Opts.Verbose = [](const std::string &Line) {
      errs() << "distlint: " << Line << "\n";
    };
  return true;
}
} // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "merge") == 0)
    return runMerge(argc - 1, argv + 1);

  // Everything after `--` is a fixed compile command, as in clang-tidy.
  std::vector<const char *> Args;
  DriverOptions Opts;
  for (int I = 0; I < argc; ++I) {
    if (I > 0 && std::strcmp(argv[I], "--") == 0) {
      Opts.UseFixedFlags = true;
      Opts.FixedFlags.assign(argv + I + 1, argv + argc);
      break;
    }
    Args.push_back(argv[I]);
  }

  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  std::string ParseErrors;
  raw_string_ostream ParseErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(
          Args.size(), Args.data(),
          "distlint: finds collectives that hang, missing timeouts, stray "
          "device syncs and set_epoch mistakes in distributed C++ training "
          "code.\n\n  distlint [options] <files...> [-- <compile flags>]\n",
          &ParseErrorStream)) {
    StringRef First = StringRef(ParseErrors).trim().split('\n').first;
    First.consume_front(sys::path::filename(argv[0]));
    First.consume_front(": ");
    return toolError(First.empty() ? "invalid command line (see --help)"
                                   : First.str());
  }

  Opts.BuildPath = BuildPath;
  Opts.ExtraArgs = ExtraArgs;
  Opts.ExtraArgsBefore = ExtraArgsBefore;
  Opts.ResourceDir = ResourceDir;
  Opts.RuleGlobs = Rules;
  Opts.ConfigFile = ConfigFile;
  Opts.LineFilter = LineFilterJson;
  Opts.DiffRevision = DiffRevision;
  Opts.BaselineFile = BaselineFile;
  if (!Jobs.empty() && StringRef(Jobs).getAsInteger(10, Opts.Jobs))
    return toolError("-j expects a number of jobs, not '" + Jobs + "'");
  if (std::string Error; !applySpeedOptions(Opts, Error))
    return toolError(Error);

  if (PrintResourceDir) {
    outs() << findResourceDir(Opts) << "\n";
    return 0;
  }
  if (!Explain.empty()) {
    for (const RuleInfo &R : allRules())
      if (Explain == R.Id) {
        outs() << ruleDocOrPlaceholder(R.Id);
        return 0;
      }
    return toolError("unknown rule '" + Explain + "' (see --list-rules)");
  }
  if (!ConfigFile.empty() && !sys::fs::exists(ConfigFile))
    return toolError("config file " + ConfigFile + " does not exist");

  // Rules enabled by the config of the current directory and --rules.
  DistlintConfig CwdConfig;
  {
    ConfigResolver Resolver(ConfigFile);
    SmallString<256> Probe;
    sys::fs::current_path(Probe);
    sys::path::append(Probe, "-");
    std::string Error;
    if (!Resolver.configFor(Probe, CwdConfig, Error))
      return toolError(Error);
  }
  std::vector<const RuleInfo *> Enabled;
  for (const RuleInfo &R : allRules())
    if (CwdConfig.ruleEnabled(R.Id, Rules))
      Enabled.push_back(&R);
  if (ListRules) {
    outs() << "Enabled rules:\n";
    for (const RuleInfo *R : Enabled)
      outs() << "    " << R->Id << "\n";
    return 0;
  }
  if (Enabled.empty() && !Rules.empty())
    return toolError("--rules='" + Rules + "' enables no rule (see --list-rules)");

  if (Lsp)
    return runLspServer(Opts);

  OutputFormat Fmt;
  if (!parseOutputFormat(Format, Fmt))
    return toolError("--format must be text, json or sarif, not '" + Format +
                     "'");
  Severity FailThreshold = Severity::Warning;
  bool NeverFail = FailOn == "never";
  if (!NeverFail && !parseSeverity(FailOn, FailThreshold))
    return toolError("--fail-on must be note, warning, error or never, not '" +
                     FailOn + "'");
  if (!WriteBaselineFile.empty() && !BaselineFile.empty())
    return toolError("--write-baseline and --baseline cannot be combined");

  std::vector<std::string> Files(Sources.begin(), Sources.end());
  if (All) {
    if (Opts.UseFixedFlags)
      return toolError("--all needs a compilation database, not flags after --");
    std::string Error;
    std::vector<std::string> DatabaseFiles;
    if (!allDatabaseFiles(Opts, DatabaseFiles, Error))
      return toolError(Error);
    Files.insert(Files.end(), DatabaseFiles.begin(), DatabaseFiles.end());
  }
  if (Files.empty())
    return toolError("no input files (give source files or --all; see --help)");

  // Open the output before the (long) analysis so a bad path fails fast.
  std::unique_ptr<raw_fd_ostream> FileOut;
  if (!OutputFile.empty()) {
    std::error_code EC;
    FileOut = std::make_unique<raw_fd_ostream>(OutputFile, EC, sys::fs::OF_Text);
    if (EC)
      return toolError("cannot write " + OutputFile + ": " + EC.message());
  }
  std::unique_ptr<raw_fd_ostream> BaselineOut;
  if (!WriteBaselineFile.empty()) {
    std::error_code EC;
    BaselineOut =
        std::make_unique<raw_fd_ostream>(WriteBaselineFile, EC, sys::fs::OF_Text);
    if (EC)
      return toolError("cannot write " + WriteBaselineFile + ": " + EC.message());
    // A baseline records everything, whatever the filters.
    Opts.LineFilter.clear();
    Opts.DiffRevision.clear();
  }

  if (!Quiet && Files.size() > 1 && sys::Process::StandardErrIsDisplayed())
    Opts.Progress = [](unsigned Done, unsigned Total, const std::string &File) {
      errs() << "[" << Done << "/" << Total << "] " << displayPath(File) << "\n";
    };

  std::vector<std::string> Fatal;
  RunStats Stats;
  AnalysisResult Result = analyzeFiles(Files, Opts, &Fatal, &Stats);

  OutputOptions OutOpts = outputOptionsFor(Opts);
  raw_ostream &OS = FileOut ? *FileOut : outs();
  OutOpts.Color = !FileOut && Fmt == OutputFormat::Text &&
                  sys::Process::StandardOutIsDisplayed();
  if (!Fatal.empty() && Result.Findings.empty() && Result.Errors.empty()) {
    // Nothing was analyzed: only the reason, on one line.
    for (const std::string &F : Fatal)
      toolError(F);
    return 2;
  }
  writeResult(Fmt, Result, OutOpts, OS);
  OS.flush();
  for (const std::string &F : Fatal)
    toolError(F);
  if (Fmt != OutputFormat::Text || FileOut)
    for (const distlint::FileError &E : Result.Errors)
      errs() << E.File << ": error: " << E.Message << "\n";

  if (BaselineOut) {
    writeBaseline(Result.Findings, OutOpts.ProjectRoot, *BaselineOut);
    BaselineOut->close();
    if (BaselineOut->has_error())
      return toolError("cannot write " + WriteBaselineFile);
    if (!Quiet)
      errs() << "distlint: wrote " << Result.Findings.size()
             << " finding(s) to baseline " << WriteBaselineFile << "\n";
  } else if (!Quiet && (!Result.Findings.empty() || Stats.SuppressedByNoLint ||
                        Stats.RemovedByBaseline || Stats.RemovedByFilters)) {
    errs() << "distlint: " << Result.Findings.size() << " finding(s) in "
           << Stats.TranslationUnits << " translation unit(s)";
    if (Stats.SuppressedByNoLint)
      errs() << ", " << Stats.SuppressedByNoLint << " suppressed by NOLINT";
    if (Stats.RemovedByBaseline)
      errs() << ", " << Stats.RemovedByBaseline << " in the baseline";
    if (Stats.RemovedByFilters)
      errs() << ", " << Stats.RemovedByFilters << " outside the line filter/diff";
    errs() << "\n";
  }

  if (!Fatal.empty() || !Result.Errors.empty())
    return 2;
  if (BaselineOut || NeverFail)
    return 0;
  for (const Finding &F : Result.Findings)
    if (F.Sev >= FailThreshold)
      return 1;
  return 0;
}
