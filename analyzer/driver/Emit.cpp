//===- Emit.cpp - The CLI's last stage: report, baseline, fixes, status ---===//
//
// See Cli.h for the four stages. Everything here works on the plain
// AnalysisResult; nothing is analyzed again.
//
//===----------------------------------------------------------------------===//
#include "Cli.h"
#include "input/Paths.h"
#include "report/Baseline.h"
#include "report/ExportFixes.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include <set>

namespace distlint {

using namespace llvm;

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

bool OutputTargets::open(CliRequest &Req, std::string &Error) {
  // Each replaces its target only once complete (AtomicFile.h).
  if (!Req.OutputFile.empty() && !Report.open(Req.OutputFile, Error))
    return false;
  if (!Req.WriteBaselineFile.empty()) {
    if (!Baseline.open(Req.WriteBaselineFile, Error))
      return false;
    // A baseline records everything, whatever the filters.
    Req.Opts.LineFilter.clear();
    Req.Opts.DiffRevision.clear();
  }
  if (!Req.ExportFixesFile.empty()) {
    std::error_code EC;
    Fixes = std::make_unique<raw_fd_ostream>(Req.ExportFixesFile, EC,
                                             sys::fs::OF_Text);
    if (EC) {
      Error = "cannot write " + Req.ExportFixesFile + ": " + EC.message();
      return false;
    }
  }
  return true;
}

namespace {

/// --export-fixes, then --fix / --fix-errors. Returns false after a tool
/// error was printed.
bool emitFixes(const CliRequest &Req, const AnalysisResult &Result,
               OutputTargets &Out) {
  if (Out.Fixes) {
    writeExportFixes(Result.Findings,
                     Req.Files.size() == 1 ? normalizePath(Req.Files[0]) : "",
                     normalizePath("."), *Out.Fixes);
    Out.Fixes->close();
    if (Out.Fixes->has_error()) {
      toolError("cannot write " + Req.ExportFixesFile);
      return false;
    }
  }
  if (!Req.Fix && !Req.FixErrors)
    return true;
  if (!Result.Errors.empty() && !Req.FixErrors) {
    errs() << "distlint: found compiler errors, but --fix-errors was not "
              "given; fixes have NOT been applied\n";
    return true;
  }
  FixStats FS;
  std::string Error;
  if (!applyFixes(Result.Findings, FS, Error)) {
    toolError(Error);
    return false;
  }
  if (!Req.Quiet)
    errs() << "distlint: applied " << FS.Applied << " fix(es) to " << FS.Files
           << " file(s)"
           << (FS.Conflicting ? ", skipped " + std::to_string(FS.Conflicting) +
                                    " overlapping"
                              : std::string())
           << "\n";
  return true;
}

/// The one summary line on stderr ("3 finding(s) in 2 translation unit(s),
/// ...").
void emitSummary(const CliRequest &Req, const RunOutcome &Run) {
  const AnalysisResult &Result = Run.Result;
  const RunStats &Stats = Run.Stats;
  std::set<std::string> FailedFiles;
  for (const FileError &E : Result.Errors)
    FailedFiles.insert(E.File);
  if (Req.Quiet)
    return;
  if (Result.Findings.empty() && FailedFiles.empty() &&
      !Stats.SuppressedByNoLint && !Stats.RemovedByBaseline &&
      !Stats.RemovedByFilters && !Stats.RemovedByHeaderFilter) {
    if (Run.Fatal.empty() && sys::Process::StandardErrIsDisplayed())
      errs() << "distlint: no findings in " << Stats.TranslationUnits
             << " translation unit(s)\n";
    return;
  }
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
}

} // namespace

int emitResult(const CliRequest &Req, RunOutcome &Run, OutputTargets &Out) {
  const AnalysisResult &Result = Run.Result;
  // A file skipped because of a tool error already printed (a malformed
  // config) is listed in JSON/SARIF, but its line here would repeat it.
  std::vector<FileError> Shown;
  for (const FileError &E : Result.Errors)
    if (E.Kind != FileErrorKind::NotAnalyzed)
      Shown.push_back(E);
  if (!Run.Fatal.empty() && Result.Findings.empty() && Shown.empty()) {
    // Nothing was analyzed: only the reason, on one line.
    for (const std::string &F : Run.Fatal)
      toolError(F);
    return 2;
  }

  OutputOptions OutOpts = outputOptionsFor(Req.Opts);
  raw_ostream &OS = Out.Report.isOpen() ? Out.Report.os() : outs();
  OutOpts.Color = Req.Color.value_or(!Out.Report.isOpen() &&
                                     Req.Format == OutputFormat::Text &&
                                     sys::Process::StandardOutIsDisplayed());
  writeResult(Req.Format, Result, OutOpts, OS);
  OS.flush();
  std::string Error;
  if (Out.Report.isOpen() && !Out.Report.commit(Error))
    return toolError(Error);
  for (const std::string &F : Run.Fatal)
    toolError(F);
  // Where problem matchers and CI annotations look: stderr, clang's form.
  writeToolErrors(Shown, errs(),
                  Req.Color.value_or(sys::Process::StandardErrIsDisplayed()));

  if (!emitFixes(Req, Result, Out))
    return 2;

  if (Out.Baseline.isOpen()) {
    writeBaseline(Result.Findings, OutOpts.ProjectRoot, Out.Baseline.os());
    if (!Out.Baseline.commit(Error))
      return toolError(Error);
    if (!Req.Quiet)
      errs() << "distlint: wrote " << Result.Findings.size()
             << " finding(s) to baseline " << Req.WriteBaselineFile << "\n";
  } else {
    emitSummary(Req, Run);
  }

  if (!Run.Fatal.empty() || !Result.Errors.empty())
    return 2;
  if (!Req.WriteBaselineFile.empty() || Req.NeverFail)
    return 0;
  for (const Finding &F : Result.Findings)
    if (F.Sev >= Req.FailThreshold)
      return 1;
  return 0;
}

} // namespace distlint
