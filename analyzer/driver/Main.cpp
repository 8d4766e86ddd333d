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
#include "RuleDocs.h"
#include "Runner.h"
#include "SpeedOptions.h"
#include "Rule.h"
#include "report/Baseline.h"
#include "report/Config.h"
#include "report/ExportFixes.h"
#include "report/Glob.h"
#include "report/AtomicFile.h"
#include "report/Output.h"
#include "report/Paths.h"

#include "api/TableVersions.h"
#include "clang/Basic/Version.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace distlint;

namespace {
cl::OptionCategory &Category = cliCategory();

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
cl::opt<std::string> Checks(
    "checks",
    cl::desc("clang-tidy's -checks: globs selecting rules, applied after the "
             "config files' Rules/Checks (same as --rules)"),
    cl::value_desc("globs"), cl::cat(Category));
cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Report findings in (non-system) headers only where this regex "
             "matches the header's absolute path; the main file is always "
             "reported. Default: every header of your project"),
    cl::value_desc("regex"), cl::cat(Category));
cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter",
    cl::desc("Never report findings in headers whose path matches this regex"),
    cl::value_desc("regex"), cl::cat(Category));
cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors",
    cl::desc("Report findings of rules matching these globs as errors"),
    cl::value_desc("globs"), cl::cat(Category));
cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the findings and their fixes to this file as clang-tidy's "
             "YAML (for clang-apply-replacements)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply the fixes in place"),
                  cl::cat(Category));
cl::opt<bool> FixErrors(
    "fix-errors",
    cl::desc("Apply the fixes even if some file had compile errors"),
    cl::cat(Category));
cl::opt<bool> UseColor("use-color",
                       cl::desc("Color text output (default: on a terminal)"),
                       cl::cat(Category));
cl::opt<std::string> Rules(
    "rules",
    cl::desc("Comma-separated globs selecting rules, applied after config "
             "files, e.g. -*,distlint-missing-timeout"),
    cl::value_desc("globs"), cl::cat(Category));
cl::opt<bool> ListRules("list-rules", cl::desc("List the enabled rules and exit"),
                        cl::cat(Category));
cl::alias ListChecks("list-checks", cl::desc("Alias for --list-rules"),
                     cl::aliasopt(ListRules), cl::cat(Category));
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
    "config-file",
    cl::desc("Use this config file for every source instead of the nearest "
             ".distlint.yaml"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> InlineConfig(
    "config",
    cl::desc("clang-tidy's -config: YAML config text used for every source, "
             "e.g. \"{Checks: '-*,distlint-missing-*'}\""),
    cl::value_desc("yaml"), cl::cat(Category));
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
cl::opt<bool> Verbose("verbose",
                      cl::desc("Say which compile database (and borrowed "
                               "command) each file uses, how compile "
                               "commands were adjusted, which TUs shared "
                               "which preamble, and cache hits"),
                      cl::cat(Category));
cl::opt<bool> NoIsolation(
    "no-isolation",
    cl::desc("Analyze in this process instead of one process per translation "
             "unit (for debuggers; a crash may end the whole run)"),
    cl::cat(Category));
cl::opt<std::string> CrashReport(
    "crash-report",
    cl::desc("Save a report (stack dump, compile command) per translation "
             "unit whose analysis crashed into this directory"),
    cl::value_desc("dir"), cl::cat(Category));
/// --rules globs, split like GlobList does.
std::vector<StringRef> split(StringRef Globs) {
  SmallVector<StringRef> Parts;
  Globs.split(Parts, ',', -1, false);
  return {Parts.begin(), Parts.end()};
}

cl::opt<bool> PrintResourceDir("print-resource-dir", cl::Hidden,
                               cl::desc("Print the Clang resource directory used"),
                               cl::cat(Category));

/// clang-tidy options distlint does not implement: named in the error, so
/// a clang-tidy command line fails loudly instead of half-working.
constexpr const char *UnsupportedTidyOptions[] = {
    "dump-config",         "explain-config",          "format-style",
    "system-headers",      "store-check-profile",     "enable-check-profile",
    "vfsoverlay",          "allow-no-checks",         "load",
    "enable-module-headers-parsing", "allow-enabling-analyzer-alpha-checkers",
    "checks-file", "export-fixes-dir"};

/// llvm::cl accepts some arguments it does not know (`-header-filter=x` was
/// read as `-h` and printed the help). Every argument before `--` must name
/// one of our options exactly; returns the error for the first that does
/// not.
std::string firstUnknownOption(ArrayRef<const char *> Args) {
  StringMap<cl::Option *> &Known = cl::getRegisteredOptions();
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (!Arg.starts_with("-") || Arg == "-")
      continue;
    StringRef Name = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
    auto [Key, Value] = Name.split('=');
    bool HasValue = Name.contains('=');
    auto It = Known.find(Key);
    if (It != Known.end()) {
      cl::Option *O = It->second;
      // -h / -help take no value; "-h=..." is not help.
      if (HasValue && (Key == "h" || Key == "help"))
        return "unknown option '" + Arg.str() + "' (see --help)";
      if (!HasValue && O->getValueExpectedFlag() == cl::ValueRequired)
        ++I; // "-p build": the value is the next argument
      continue;
    }
    bool Prefixed = false;
    for (auto &Entry : Known)
      if (Entry.second->getFormattingFlag() == cl::Prefix &&
          !Entry.getKey().empty() && Key.starts_with(Entry.getKey()))
        Prefixed = true; // -j4
    if (Prefixed)
      continue;
    for (const char *Tidy : UnsupportedTidyOptions)
      if (Key == Tidy)
        return "clang-tidy's option '" + Arg.str() +
               "' is not supported by distlint (see the README's clang-tidy "
               "table)";
    return "unknown option '" + Arg.str() + "' (see --help)";
  }
  return "";
}

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
  OS << "distlint " << toolVersion() << "\n  LLVM " << LLVM_VERSION_STRING
     << " (" << llvm::sys::getDefaultTargetTriple() << ")\n  API tables:";
  const char *Separator = " ";
  for (const api::TableVersion &T : api::tableVersions()) {
    OS << Separator << T.Api << " " << T.Releases;
    Separator = ", ";
  }
  OS << "\n";
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
  std::string Unknown = firstUnknownOption(Args);
  if (!Unknown.empty())
    return toolError(Unknown);
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
  // clang-tidy's -checks and distlint's --rules are the same glob list.
  std::string RuleGlobs = Checks;
  if (!Rules.empty())
    RuleGlobs += (RuleGlobs.empty() ? "" : ",") + Rules;
  Opts.RuleGlobs = RuleGlobs;
  Opts.ConfigFile = ConfigFile;
  Opts.InlineConfig = InlineConfig;
  Opts.WarningsAsErrors = WarningsAsErrors;
  if (HeaderFilter.getNumOccurrences())
    Opts.HeaderFilter = HeaderFilter.getValue();
  if (ExcludeHeaderFilter.getNumOccurrences())
    Opts.ExcludeHeaderFilter = ExcludeHeaderFilter.getValue();
  if (InlineConfig.getNumOccurrences() && InlineConfig.empty())
    Opts.InlineConfig.clear(); // clang-tidy: empty -config = file lookup
  if (!InlineConfig.empty() && !ConfigFile.empty())
    return toolError("-config and --config-file cannot be combined");
  Opts.LineFilter = LineFilterJson;
  Opts.DiffRevision = DiffRevision;
  Opts.BaselineFile = BaselineFile;
  Opts.Isolate = !NoIsolation;
  Opts.CrashReportDir = CrashReport;
  if (Verbose)
    Opts.Verbose = [](const std::string &File, const std::string &Line) {
      errs() << "distlint: "
             << (File.empty() ? std::string() : displayPath(File) + ": ")
             << Line << "\n";
    };
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
    ConfigResolver Resolver(ConfigFile, InlineConfig);
    SmallString<256> Probe;
    sys::fs::current_path(Probe);
    sys::path::append(Probe, "-");
    std::string Error;
    if (!Resolver.configFor(Probe, CwdConfig, Error))
      return toolError(Error);
  }
  std::vector<const RuleInfo *> Enabled;
  for (const RuleInfo &R : allRules())
    if (CwdConfig.ruleEnabled(R.Id, RuleGlobs))
      Enabled.push_back(&R);
  // A positive --rules glob that names no rule is a typo, not a choice.
  for (StringRef Glob : split(Rules)) {
    Glob = Glob.trim();
    if (Glob.empty() || Glob.starts_with("-"))
      continue;
    bool Matches = false;
    for (const RuleInfo &R : allRules())
      Matches |= globMatches(Glob, R.Id);
    if (!Matches)
      return toolError("--rules glob '" + Glob + "' matches no rule (see "
                       "--list-rules)");
  }
  if (ListRules) {
    if (Enabled.empty())
      return toolError("--rules='" + Rules +
                       "' and the config enable no rule");
    outs() << "Enabled rules:\n";
    for (const RuleInfo *R : Enabled)
      outs() << "    " << R->Id << "\n";
    return 0;
  }
  if (Enabled.empty() && !RuleGlobs.empty())
    return toolError(std::string(Checks.empty() ? "--rules='" : "-checks='") +
                     RuleGlobs + "' enables no rule (see --list-rules)");

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

  // Open the output before the (long) analysis so a bad path fails fast;
  // it replaces the target only once complete (AtomicFile.h).
  std::string OpenError;
  AtomicOutputFile FileOut;
  if (!OutputFile.empty() && !FileOut.open(OutputFile, OpenError))
    return toolError(OpenError);
  AtomicOutputFile BaselineOut;
  if (!WriteBaselineFile.empty()) {
    if (!BaselineOut.open(WriteBaselineFile, OpenError))
      return toolError(OpenError);
    // A baseline records everything, whatever the filters.
    Opts.LineFilter.clear();
    Opts.DiffRevision.clear();
  }
  std::unique_ptr<raw_fd_ostream> FixesOut;
  if (!ExportFixes.empty()) {
    std::error_code EC;
    FixesOut =
        std::make_unique<raw_fd_ostream>(ExportFixes, EC, sys::fs::OF_Text);
    if (EC)
      return toolError("cannot write " + ExportFixes + ": " + EC.message());
  }

  if (!Quiet && Files.size() > 1 && sys::Process::StandardErrIsDisplayed())
    Opts.Progress = [](unsigned Done, unsigned Total, const std::string &File) {
      errs() << "[" << Done << "/" << Total << "] " << displayPath(File) << "\n";
    };

  std::vector<std::string> Fatal;
  RunStats Stats;
  AnalysisResult Result = analyzeFiles(Files, Opts, &Fatal, &Stats);

  // A file skipped because of a tool error already printed (a malformed
  // config) is listed in JSON/SARIF, but its line here would repeat it.
  std::vector<distlint::FileError> Shown;
  for (const distlint::FileError &E : Result.Errors)
    if (E.Kind != distlint::FileErrorKind::NotAnalyzed)
      Shown.push_back(E);
  OutputOptions OutOpts = outputOptionsFor(Opts);
  raw_ostream &OS = FileOut.isOpen() ? FileOut.os() : outs();
  OutOpts.Color = UseColor.getNumOccurrences()
                      ? bool(UseColor)
                      : !FileOut.isOpen() && Fmt == OutputFormat::Text &&
                            sys::Process::StandardOutIsDisplayed();
  if (!Fatal.empty() && Result.Findings.empty() && Shown.empty()) {
    // Nothing was analyzed: only the reason, on one line.
    for (const std::string &F : Fatal)
      toolError(F);
    return 2;
  }
  writeResult(Fmt, Result, OutOpts, OS);
  OS.flush();
  if (FileOut.isOpen() && !FileOut.commit(OpenError))
    return toolError(OpenError);
  for (const std::string &F : Fatal)
    toolError(F);
  // Where problem matchers and CI annotations look: stderr, clang's form.
  writeToolErrors(Shown, errs(),
                  UseColor.getNumOccurrences()
                      ? bool(UseColor)
                      : sys::Process::StandardErrIsDisplayed());

  if (FixesOut) {
    writeExportFixes(Result.Findings, Files.size() == 1 ? normalizePath(Files[0]) : "",
                     normalizePath("."), *FixesOut);
    FixesOut->close();
    if (FixesOut->has_error())
      return toolError("cannot write " + ExportFixes);
  }
  if (Fix || FixErrors) {
    if (!Result.Errors.empty() && !FixErrors) {
      errs() << "distlint: found compiler errors, but --fix-errors was not "
                "given; fixes have NOT been applied\n";
    } else {
      FixStats FS;
      std::string Error;
      if (!applyFixes(Result.Findings, FS, Error))
        return toolError(Error);
      if (!Quiet)
        errs() << "distlint: applied " << FS.Applied << " fix(es) to "
               << FS.Files << " file(s)"
               << (FS.Conflicting ? ", skipped " + std::to_string(FS.Conflicting) +
                                        " overlapping"
                                  : std::string())
               << "\n";
    }
  }

  std::set<std::string> FailedFiles;
  for (const distlint::FileError &E : Result.Errors)
    FailedFiles.insert(E.File);
  if (BaselineOut.isOpen()) {
    writeBaseline(Result.Findings, OutOpts.ProjectRoot, BaselineOut.os());
    if (!BaselineOut.commit(OpenError))
      return toolError(OpenError);
    if (!Quiet)
      errs() << "distlint: wrote " << Result.Findings.size()
             << " finding(s) to baseline " << WriteBaselineFile << "\n";
  } else if (!Quiet && (!Result.Findings.empty() || !FailedFiles.empty() ||
                        Stats.SuppressedByNoLint || Stats.RemovedByBaseline ||
                        Stats.RemovedByFilters || Stats.RemovedByHeaderFilter)) {
    errs() << "distlint: " << Result.Findings.size() << " finding(s) in "
           << Stats.TranslationUnits << " translation unit(s)";
    if (!FailedFiles.empty())
      errs() << ", " << FailedFiles.size() << " file(s) failed";
    if (Stats.SuppressedByNoLint)
      errs() << ", " << Stats.SuppressedByNoLint << " suppressed by NOLINT";
    if (Stats.RemovedByBaseline)
      errs() << ", " << Stats.RemovedByBaseline << " in the baseline";
    if (Stats.RemovedByFilters)
      errs() << ", " << Stats.RemovedByFilters << " outside the line filter/diff";
    if (Stats.RemovedByHeaderFilter)
      errs() << ", " << Stats.RemovedByHeaderFilter
             << " in headers outside the header filter";
    if (Stats.LimitedTUs)
      errs() << ", " << Stats.LimitedTUs
             << " partly analyzed (an analysis limit was hit; see --verbose)";
    errs() << "\n";
  } else if (!Quiet && Fatal.empty() && sys::Process::StandardErrIsDisplayed()) {
    errs() << "distlint: no findings in " << Stats.TranslationUnits
           << " translation unit(s)\n";
  }

  if (!Fatal.empty() || !Result.Errors.empty())
    return 2;
  if (!WriteBaselineFile.empty() || NeverFail)
    return 0;
  for (const Finding &F : Result.Findings)
    if (F.Sev >= FailThreshold)
      return 1;
  return 0;
}
