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
#include "RuleDocs.h"
#include "Runner.h"
#include "Rule.h"
#include "report/Baseline.h"
#include "report/Config.h"
#include "report/Glob.h"
#include "report/AtomicFile.h"
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
cl::opt<bool> Verbose("verbose",
                      cl::desc("Say how compile commands were adjusted"),
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
} // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);

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
  Opts.Isolate = !NoIsolation;
  Opts.CrashReportDir = CrashReport;
  if (Verbose)
    Opts.Verbose = [](const std::string &File, const std::string &Line) {
      errs() << "distlint: " << displayPath(File) << ": " << Line << "\n";
    };
  if (!Jobs.empty() && StringRef(Jobs).getAsInteger(10, Opts.Jobs))
    return toolError("-j expects a number of jobs, not '" + Jobs + "'");

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

  if (!Quiet && Files.size() > 1 && sys::Process::StandardErrIsDisplayed())
    Opts.Progress = [](unsigned Done, unsigned Total, const std::string &File) {
      errs() << "[" << Done << "/" << Total << "] " << displayPath(File) << "\n";
    };

  std::vector<std::string> Fatal;
  RunStats Stats;
  AnalysisResult Result = analyzeFiles(Files, Opts, &Fatal, &Stats);

  OutputOptions OutOpts = outputOptionsFor(Opts);
  raw_ostream &OS = FileOut.isOpen() ? FileOut.os() : outs();
  OutOpts.Color = !FileOut.isOpen() && Fmt == OutputFormat::Text &&
                  sys::Process::StandardOutIsDisplayed();
  if (!Fatal.empty() && Result.Findings.empty() && Result.Errors.empty()) {
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
  if (Fmt != OutputFormat::Text || !OutputFile.empty())
    for (const distlint::FileError &E : Result.Errors)
      errs() << E.File << ": error: " << E.Message << "\n";

  if (BaselineOut.isOpen()) {
    writeBaseline(Result.Findings, OutOpts.ProjectRoot, BaselineOut.os());
    if (!BaselineOut.commit(OpenError))
      return toolError(OpenError);
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
  if (!WriteBaselineFile.empty() || NeverFail)
    return 0;
  for (const Finding &F : Result.Findings)
    if (F.Sev >= FailThreshold)
      return 1;
  return 0;
}
