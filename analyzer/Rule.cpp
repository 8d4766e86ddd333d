//===- Rule.cpp -----------------------------------------------------------===//
#include "Rule.h"

namespace distlint {

std::string formatMessage(llvm::StringRef Format,
                          llvm::ArrayRef<std::string> Args) {
  std::string Out;
  for (size_t I = 0; I < Format.size(); ++I) {
    char C = Format[I];
    if (C == '%' && I + 1 < Format.size()) {
      char N = Format[I + 1];
      if (N == '%') {
        Out += '%';
        ++I;
        continue;
      }
      if (N >= '0' && N <= '9' && size_t(N - '0') < Args.size()) {
        Out += Args[N - '0'];
        ++I;
        continue;
      }
    }
    Out += C;
  }
  return Out;
}

DiagnosticSink::~DiagnosticSink() = default;
Rule::~Rule() = default;

FindingBuilder::FindingBuilder(FindingBuilder &&Other) noexcept
    : Sink(Other.Sink), SM(Other.SM), F(std::move(Other.F)) {
  Other.Sink = nullptr;
}

FindingBuilder::~FindingBuilder() {
  if (Sink)
    Sink->report(std::move(F), *SM);
}

FindingBuilder &FindingBuilder::note(clang::SourceLocation Loc,
                                     std::string Message) {
  F.Notes.push_back(RawNote{Loc, std::move(Message)});
  return *this;
}

FindingBuilder Rule::diag(clang::SourceLocation Loc, std::string Message,
                          const clang::SourceManager &SM) {
  RawFinding F;
  F.Rule = Id;
  F.Loc = Loc;
  F.Message = std::move(Message);
  return FindingBuilder(*Context.Sink, SM, std::move(F));
}

} // namespace distlint
