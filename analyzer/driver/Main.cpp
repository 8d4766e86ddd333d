//===- Main.cpp - The `distlint` command line -----------------------------===//
//
// clang-tidy's spelling where it has one: distlint [options] <files...>
// [-- <compile flags>]. The options and the first two stages of Cli.h
// (parse, validate) are here, then main() runs and emits (Emit.cpp). The
// analysis itself is Runner.cpp's, so the language server and pre-commit
// glue behave the same.
//
// Exit status: 0 no finding at or above --fail-on, 1 findings, 2 tool error
// (bad arguments, unreadable/malformed compile database or config, a file
// that could not be parsed).
//
//===----------------------------------------------------------------------===//
#include "Cli.h"
#include "Merge.h"
#include "Rule.h"
#include "RuleDocs.h"
#include "Runner.h"
#include "input/Config.h"
#include "input/Glob.h"
#include "speed/SpeedOptions.h"

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
/// Stage 1: the command line into Req; only llvm::cl's own checks.
bool parseCommandLine(int argc, const char **argv, CliRequest &Req,
                      std::string &Error) {
  // Everything after `--` is a fixed compile command, as in clang-tidy.
  std::vector<const char *> Args;
  DriverOptions &Opts = Req.Opts;
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
  Error = firstUnknownOption(Args);
  if (!Error.empty())
    return false;
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
    Error = First.empty() ? "invalid command line (see --help)" : First.str();
    return false;
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
  Req.Files.assign(Sources.begin(), Sources.end());
  Req.OutputFile = OutputFile;
  Req.WriteBaselineFile = WriteBaselineFile;
  Req.ExportFixesFile = ExportFixes;
  Req.Fix = Fix;
  Req.FixErrors = FixErrors;
  Req.Quiet = Quiet;
  if (UseColor.getNumOccurrences())
    Req.Color = bool(UseColor);
  return true;
}

/// Stage 2, first half: the option values and what is asked for. Stops at
/// the first request that needs no analysis (--print-resource-dir,
/// --explain, --list-rules, --lsp), in the order they win.
bool validateAction(CliRequest &Req, std::string &Error) {
  DriverOptions &Opts = Req.Opts;
  if (!InlineConfig.empty() && !ConfigFile.empty()) {
    Error = "-config and --config-file cannot be combined";
    return false;
  }
  if (!Jobs.empty() && StringRef(Jobs).getAsInteger(10, Opts.Jobs)) {
    Error = "-j expects a number of jobs, not '" + Jobs + "'";
    return false;
  }
  if (!applySpeedOptions(Opts, Error))
    return false;

  if (PrintResourceDir) {
    Req.Action = CliAction::PrintResourceDir;
    return true;
  }
  if (!Explain.empty()) {
    for (const RuleInfo &R : allRules())
      if (Explain == R.Id) {
        Req.Action = CliAction::Explain;
        Req.ExplainedDoc = ruleDocOrPlaceholder(R.Id);
        return true;
      }
    Error = "unknown rule '" + Explain + "' (see --list-rules)";
    return false;
  }
  if (!ConfigFile.empty() && !sys::fs::exists(ConfigFile)) {
    Error = "config file " + ConfigFile + " does not exist";
    return false;
  }

  // Rules enabled by the config of the current directory and --rules.
  DistlintConfig CwdConfig;
  ConfigResolver Resolver(ConfigFile, InlineConfig);
  SmallString<256> Probe;
  sys::fs::current_path(Probe);
  sys::path::append(Probe, "-");
  if (!Resolver.configFor(Probe, CwdConfig, Error))
    return false;
  for (const RuleInfo &R : allRules())
    if (CwdConfig.ruleEnabled(R.Id, Opts.RuleGlobs))
      Req.EnabledRules.push_back(&R);
  // A positive --rules glob that names no rule is a typo, not a choice.
  for (StringRef Glob : split(Rules)) {
    Glob = Glob.trim();
    if (Glob.empty() || Glob.starts_with("-"))
      continue;
    bool Matches = false;
    for (const RuleInfo &R : allRules())
      Matches |= globMatches(Glob, R.Id);
    if (!Matches) {
      Error = "--rules glob '" + Glob.str() +
              "' matches no rule (see --list-rules)";
      return false;
    }
  }
  if (ListRules) {
    if (Req.EnabledRules.empty()) {
      Error = "--rules='" + Rules + "' and the config enable no rule";
      return false;
    }
    Req.Action = CliAction::ListRules;
    return true;
  }
  if (Req.EnabledRules.empty() && !Opts.RuleGlobs.empty()) {
    Error = std::string(Checks.empty() ? "--rules='" : "-checks='") +
            Opts.RuleGlobs + "' enables no rule (see --list-rules)";
    return false;
  }
  if (Lsp)
    Req.Action = CliAction::Lsp;
  return true;
}

/// Stage 2, second half (an analysis run only): output options and the
/// list of files.
bool validateAnalysis(CliRequest &Req, std::string &Error) {
  if (!parseOutputFormat(Format, Req.Format)) {
    Error = "--format must be text, json or sarif, not '" + Format + "'";
    return false;
  }
  Req.NeverFail = FailOn == "never";
  if (!Req.NeverFail && !parseSeverity(FailOn, Req.FailThreshold)) {
    Error = "--fail-on must be note, warning, error or never, not '" + FailOn +
            "'";
    return false;
  }
  if (!WriteBaselineFile.empty() && !BaselineFile.empty()) {
    Error = "--write-baseline and --baseline cannot be combined";
    return false;
  }
  if (All) {
    if (Req.Opts.UseFixedFlags) {
      Error = "--all needs a compilation database, not flags after --";
      return false;
    }
    std::vector<std::string> DatabaseFiles;
    if (!allDatabaseFiles(Req.Opts, DatabaseFiles, Error))
      return false;
    Req.Files.insert(Req.Files.end(), DatabaseFiles.begin(),
                     DatabaseFiles.end());
  }
  if (Req.Files.empty()) {
    Error = "no input files (give source files or --all; see --help)";
    return false;
  }
  return true;
}

/// --print-resource-dir, --explain, --list-rules, --lsp.
int answerWithoutAnalysis(const CliRequest &Req) {
  switch (Req.Action) {
  case CliAction::PrintResourceDir:
    outs() << findResourceDir(Req.Opts) << "\n";
    return 0;
  case CliAction::Explain:
    outs() << Req.ExplainedDoc;
    return 0;
  case CliAction::ListRules:
    outs() << "Enabled rules:\n";
    for (const RuleInfo *R : Req.EnabledRules)
      outs() << "    " << R->Id << "\n";
    return 0;
  case CliAction::Lsp:
    return runLspServer(Req.Opts);
  case CliAction::Analyze:
    break;
  }
  return 2;
}

/// Stage 3: the analysis, with progress lines on a terminal.
RunOutcome runAnalysis(const CliRequest &Req) {
  DriverOptions Opts = Req.Opts;
  if (!Req.Quiet && Req.Files.size() > 1 &&
      sys::Process::StandardErrIsDisplayed())
    Opts.Progress = [](unsigned Done, unsigned Total, const std::string &File) {
      errs() << "[" << Done << "/" << Total << "] " << displayPath(File) << "\n";
    };
  RunOutcome Run;
  Run.Result = analyzeFiles(Req.Files, Opts, &Run.Fatal, &Run.Stats);
  return Run;
}
} // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "merge") == 0)
    return runMerge(argc - 1, argv + 1);

  CliRequest Req;
  std::string Error;
  if (!parseCommandLine(argc, argv, Req, Error) ||
      !validateAction(Req, Error))
    return toolError(Error);
  if (Req.Action != CliAction::Analyze)
    return answerWithoutAnalysis(Req);
  if (!validateAnalysis(Req, Error))
    return toolError(Error);
  // Outputs open before the (long) analysis, so a bad path fails fast.
  OutputTargets Out;
  if (!Out.open(Req, Error))
    return toolError(Error);
  RunOutcome Run = runAnalysis(Req);
  return emitResult(Req, Run, Out);
}
