//===- Finding.cpp --------------------------------------------------------===//
#include "Finding.h"

#include <algorithm>
#include <tuple>

namespace distlint {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

bool parseSeverity(const std::string &Text, Severity &Out) {
  if (Text == "note")
    Out = Severity::Note;
  else if (Text == "warning")
    Out = Severity::Warning;
  else if (Text == "error")
    Out = Severity::Error;
  else
    return false;
  return true;
}

void sortAndDedupe(std::vector<Finding> &Findings) {
  auto Key = [](const Finding &F) {
    return std::tie(F.Loc.File, F.Loc.Line, F.Loc.Column, F.Rule, F.Message);
  };
  std::stable_sort(Findings.begin(), Findings.end(),
                   [&](const Finding &A, const Finding &B) {
                     return Key(A) < Key(B);
                   });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [&](const Finding &A, const Finding &B) {
                               return Key(A) == Key(B);
                             }),
                 Findings.end());
}

} // namespace distlint
