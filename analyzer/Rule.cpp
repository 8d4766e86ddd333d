//===- Rule.cpp -----------------------------------------------------------===//
#include "Rule.h"

namespace distlint {

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

FindingBuilder &FindingBuilder::fix(std::vector<clang::FixItHint> Hints) {
  for (clang::FixItHint &H : Hints)
    F.Fixes.push_back(std::move(H));
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
