//===- Filters.h - --line-filter and --diff ---------------------*- C++ -*-===//
#pragma once

#include "Finding.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace distlint {

/// clang-tidy's --line-filter: a JSON array of {"name": <file suffix>,
/// "lines": [[first, last], ...]}. A finding passes if the first entry whose
/// name is a suffix of its path has no "lines" or a range holding its line;
/// findings whose file matches no entry are dropped. An empty filter keeps
/// everything.
class LineFilter {
public:
  /// False + one-line Error on malformed JSON.
  bool parse(const std::string &Json, std::string &Error);
  bool empty() const { return Entries.empty(); }
  bool passes(const std::string &File, unsigned Line) const;

private:
  struct Entry {
    std::string Name;
    std::vector<std::pair<unsigned, unsigned>> Lines;
  };
  std::vector<Entry> Entries;
};

/// Changed lines per file (paths relative to the git root), from
/// `git diff -U0`. Files listed in WholeFiles (new, untracked) count as
/// changed everywhere.
struct ChangedLines {
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Ranges;
  bool contains(const std::string &RelativeFile, unsigned Line) const;
};

/// Parses unified diff text with zero context (`git diff -U0`).
ChangedLines parseUnifiedDiff(const std::string &Diff);

/// Runs `git diff -U0 <Revision>` (plus untracked files) in the repository
/// holding Dir. False + one-line Error if git fails (bad revision, no repo).
bool changedLinesSince(const std::string &Revision, const std::string &Dir,
                       ChangedLines &Out, std::string &GitRoot,
                       std::string &Error);

/// Keeps findings whose (file, line) passes Keep.
template <typename Pred>
unsigned filterFindings(std::vector<Finding> &Findings, Pred Keep) {
  size_t Before = Findings.size();
  std::vector<Finding> Kept;
  for (Finding &F : Findings)
    if (Keep(F))
      Kept.push_back(std::move(F));
  Findings = std::move(Kept);
  return Before - Findings.size();
}

} // namespace distlint
