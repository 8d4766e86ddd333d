//===- Rule.cpp -----------------------------------------------------------===//
#include "Rule.h"

namespace distlint {

DiagnosticSink::~DiagnosticSink() = default;
Rule::~Rule() = default;

std::string formatMessage(llvm::StringRef Format,
                          llvm::ArrayRef<std::string> Args) {
  if (Args.empty())
    return Format.str(); // Plain text: a '%' in it is literal.
  std::string Out;
  Out.reserve(Format.size());
  for (size_t I = 0; I < Format.size(); ++I) {
    char C = Format[I];
    if (C == '%' && I + 1 < Format.size()) {
      char Next = Format[I + 1];
      if (Next == '%') {
        Out += '%';
        ++I;
        continue;
      }
      if (Next >= '0' && Next <= '9' && unsigned(Next - '0') < Args.size()) {
        Out += Args[Next - '0'];
        ++I;
        continue;
      }
    }
    Out += C;
  }
  return Out;
}

FindingBuilder::FindingBuilder(FindingBuilder &&Other) noexcept
    : Sink(Other.Sink), SM(Other.SM), F(std::move(Other.F)),
      Args(std::move(Other.Args)) {
  Other.Sink = nullptr;
}

FindingBuilder::~FindingBuilder() {
  if (!Sink)
    return;
  F.Message = formatMessage(F.Message, Args);
  Sink->report(std::move(F), *SM);
}

FindingBuilder &FindingBuilder::note(clang::SourceLocation Loc,
                                     llvm::StringRef Format,
                                     llvm::ArrayRef<std::string> NoteArgs) {
  F.Notes.push_back(RawNote{Loc, formatMessage(Format, NoteArgs)});
  return *this;
}

FindingBuilder &FindingBuilder::noteIn(const std::string &File, unsigned Line,
                                       llvm::StringRef Format,
                                       llvm::ArrayRef<std::string> NoteArgs) {
  if (File.empty() || Line == 0)
    return *this;
  F.Notes.push_back(RawNote{clang::SourceLocation(),
                            formatMessage(Format, NoteArgs), File, Line});
  return *this;
}

FindingBuilder &FindingBuilder::fix(std::vector<clang::FixItHint> Hints) {
  for (clang::FixItHint &H : Hints)
    F.Fixes.push_back(std::move(H));
  return *this;
}

FindingBuilder Rule::diag(clang::SourceLocation Loc, llvm::StringRef Format,
                          const clang::SourceManager &SM) {
  RawFinding F;
  F.Rule = Id;
  F.Loc = Loc;
  F.Message = Format.str();
  return FindingBuilder(*Context.Sink, SM, std::move(F));
}

} // namespace distlint
