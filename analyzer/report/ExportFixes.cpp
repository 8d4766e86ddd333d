//===- ExportFixes.cpp ----------------------------------------------------===//
#include "report/ExportFixes.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"

#include <map>
#include <set>
#include <tuple>

namespace distlint {

namespace {
using clang::tooling::Replacements;

/// Byte offset of (Line, Column) in File; 0 if the file cannot be read.
class OffsetFinder {
public:
  unsigned offsetOf(const std::string &File, unsigned Line, unsigned Column) {
    auto It = LineStarts.find(File);
    if (It == LineStarts.end()) {
      std::vector<unsigned> Starts{0};
      if (auto Buffer = llvm::MemoryBuffer::getFile(File)) {
        llvm::StringRef Text = (*Buffer)->getBuffer();
        for (size_t I = 0; I < Text.size(); ++I)
          if (Text[I] == '\n')
            Starts.push_back(I + 1);
      }
      It = LineStarts.emplace(File, std::move(Starts)).first;
    }
    if (Line == 0 || Line > It->second.size())
      return 0;
    return It->second[Line - 1] + (Column ? Column - 1 : 0);
  }

private:
  std::map<std::string, std::vector<unsigned>> LineStarts;
};

clang::tooling::Replacement toClang(const Replacement &R) {
  return clang::tooling::Replacement(R.File, R.Offset, R.Length, R.Text);
}

clang::tooling::Diagnostic::Level levelOf(Severity S) {
  switch (S) {
  case Severity::Error:
    return clang::tooling::Diagnostic::Error;
  case Severity::Warning:
    return clang::tooling::Diagnostic::Warning;
  case Severity::Note:
    return clang::tooling::Diagnostic::Remark;
  }
  return clang::tooling::Diagnostic::Warning;
}
} // namespace

void writeExportFixes(const std::vector<Finding> &Findings,
                      const std::string &MainSourceFile,
                      const std::string &BuildDirectory,
                      llvm::raw_ostream &OS) {
  OffsetFinder Offsets;
  clang::tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = MainSourceFile;
  for (const Finding &F : Findings) {
    clang::tooling::DiagnosticMessage Message(F.Message);
    Message.FilePath = F.Loc.File;
    Message.FileOffset = Offsets.offsetOf(F.Loc.File, F.Loc.Line, F.Loc.Column);
    for (const Replacement &R : F.Fixes)
      // Edits of one fix never overlap (the builders make them so); a
      // failing add would only drop that edit from the export.
      llvm::consumeError(Message.Fix[R.File].add(toClang(R)));
    llvm::SmallVector<clang::tooling::DiagnosticMessage, 1> Notes;
    for (const Note &N : F.Notes) {
      clang::tooling::DiagnosticMessage M(N.Message);
      M.FilePath = N.Loc.File;
      M.FileOffset = Offsets.offsetOf(N.Loc.File, N.Loc.Line, N.Loc.Column);
      Notes.push_back(std::move(M));
    }
    TU.Diagnostics.emplace_back(F.Rule, Message, Notes, levelOf(F.Sev),
                                BuildDirectory);
  }
  llvm::yaml::Output YAML(OS);
  YAML << TU;
}

bool applyFixes(const std::vector<Finding> &Findings, FixStats &Stats,
                std::string &Error) {
  std::map<std::string, Replacements> ByFile;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
  for (const Finding &F : Findings) {
    if (F.Fixes.empty())
      continue;
    std::map<std::string, Replacements> Tentative = ByFile;
    bool Ok = true, AnyNew = false;
    for (const Replacement &R : F.Fixes) {
      if (!Seen.insert({R.File, R.Offset, R.Length, R.Text}).second)
        continue;
      AnyNew = true;
      if (llvm::Error E = Tentative[R.File].add(toClang(R))) {
        llvm::consumeError(std::move(E));
        Ok = false;
        break;
      }
    }
    if (!Ok) {
      ++Stats.Conflicting;
      for (const Replacement &R : F.Fixes)
        Seen.erase({R.File, R.Offset, R.Length, R.Text});
      continue;
    }
    if (AnyNew)
      ByFile = std::move(Tentative);
    ++Stats.Applied;
  }
  for (const auto &[File, Reps] : ByFile) {
    if (Reps.empty())
      continue;
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer) {
      Error = "cannot read " + File + " to fix it: " +
              Buffer.getError().message();
      return false;
    }
    llvm::Expected<std::string> Fixed =
        clang::tooling::applyAllReplacements((*Buffer)->getBuffer(), Reps);
    if (!Fixed) {
      Error = "cannot fix " + File + ": " + llvm::toString(Fixed.takeError());
      return false;
    }
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    if (EC) {
      Error = "cannot write " + File + ": " + EC.message();
      return false;
    }
    Out << *Fixed;
    Out.close();
    if (Out.has_error()) {
      Error = "cannot write " + File;
      return false;
    }
    ++Stats.Files;
  }
  return true;
}

} // namespace distlint
