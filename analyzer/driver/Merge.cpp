//===- Merge.cpp ----------------------------------------------------------===//
#include "Merge.h"
#include "Runner.h"
#include "report/Output.h"
#include "report/ReportJson.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <tuple>

namespace distlint {

namespace {
int mergeError(const std::string &Message) {
  llvm::errs() << "distlint: error: merge: " << Message << "\n";
  return 2;
}
} // namespace

int runMerge(int argc, const char **argv) {
  std::vector<std::string> Inputs;
  std::string Format = "text", OutputFile, FailOn = "warning";
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef Arg(argv[I]);
    if (Arg.consume_front("--format="))
      Format = Arg.str();
    else if (Arg.consume_front("--fail-on="))
      FailOn = Arg.str();
    else if (Arg.consume_front("--output="))
      OutputFile = Arg.str();
    else if ((Arg == "--output" || Arg == "-o" || Arg == "--format" ||
              Arg == "--fail-on") &&
             I + 1 < argc)
      (Arg == "--format"    ? Format
       : Arg == "--fail-on" ? FailOn
                            : OutputFile) = argv[++I];
    else if (Arg == "--help" || Arg == "-h") {
      llvm::outs() << "usage: distlint merge <report.json>... "
                      "[--format=text|json|sarif] [--output <file>] "
                      "[--fail-on=note|warning|error|never]\n";
      return 0;
    } else if (Arg.starts_with("-"))
      return mergeError("unknown option '" + Arg.str() + "'");
    else
      Inputs.push_back(Arg.str());
  }
  OutputFormat Fmt;
  if (!parseOutputFormat(Format, Fmt))
    return mergeError("--format must be text, json or sarif, not '" + Format +
                      "'");
  Severity Threshold = Severity::Warning;
  if (FailOn != "never" && !parseSeverity(FailOn, Threshold))
    return mergeError("--fail-on must be note, warning, error or never, not '" +
                      FailOn + "'");
  if (Inputs.empty())
    return mergeError("no input reports (distlint merge a.json b.json ...)");

  AnalysisResult Merged;
  for (const std::string &In : Inputs) {
    auto Buffer = llvm::MemoryBuffer::getFile(In);
    if (!Buffer)
      return mergeError("cannot read " + In + ": " +
                        Buffer.getError().message());
    std::string Error;
    if (!resultFromJson((*Buffer)->getBuffer(), Merged, Error))
      return mergeError(In + ": " + Error);
  }
  // Fingerprints were final in each shard's report: kept as they are.
  sortAndDedupe(Merged.Findings);
  auto ErrorKey = [](const FileError &E) {
    return std::tie(E.File, E.Message);
  };
  std::sort(Merged.Errors.begin(), Merged.Errors.end(),
            [&](const FileError &A, const FileError &B) {
              return ErrorKey(A) < ErrorKey(B);
            });
  Merged.Errors.erase(std::unique(Merged.Errors.begin(), Merged.Errors.end(),
                                  [&](const FileError &A, const FileError &B) {
                                    return ErrorKey(A) == ErrorKey(B);
                                  }),
                      Merged.Errors.end());

  OutputOptions OutOpts = outputOptionsFor(DriverOptions());
  std::unique_ptr<llvm::raw_fd_ostream> FileOut;
  if (!OutputFile.empty()) {
    std::error_code EC;
    FileOut = std::make_unique<llvm::raw_fd_ostream>(OutputFile, EC,
                                                     llvm::sys::fs::OF_Text);
    if (EC)
      return mergeError("cannot write " + OutputFile + ": " + EC.message());
  }
  llvm::raw_ostream &OS = FileOut ? *FileOut : llvm::outs();
  writeResult(Fmt, Merged, OutOpts, OS);
  OS.flush();
  if (!Merged.Errors.empty())
    return 2;
  if (FailOn == "never")
    return 0;
  for (const Finding &F : Merged.Findings)
    if (F.Sev >= Threshold)
      return 1;
  return 0;
}

} // namespace distlint
