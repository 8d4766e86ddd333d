//===- Glob.cpp -----------------------------------------------------------===//
#include "input/Glob.h"

namespace distlint {

bool globMatches(llvm::StringRef Pattern, llvm::StringRef Text) {
  // Iterative wildcard match with backtracking to the last '*'.
  size_t P = 0, T = 0, StarP = llvm::StringRef::npos, StarT = 0;
  while (T < Text.size()) {
    if (P < Pattern.size() && Pattern[P] == '*') {
      StarP = P++;
      StarT = T;
    } else if (P < Pattern.size() && Pattern[P] == Text[T]) {
      ++P;
      ++T;
    } else if (StarP != llvm::StringRef::npos) {
      P = StarP + 1;
      T = ++StarT;
    } else {
      return false;
    }
  }
  while (P < Pattern.size() && Pattern[P] == '*')
    ++P;
  return P == Pattern.size();
}

GlobList::GlobList(llvm::StringRef Globs, bool KeepNegative) {
  // Like clang-tidy, an empty list still holds one empty glob, which matches
  // nothing: NOLINT() suppresses no rule.
  do {
    Globs = Globs.trim();
    bool Positive = !Globs.consume_front("-");
    size_t End = Globs.find_first_of(",\n");
    llvm::StringRef Pattern = Globs.substr(0, End).trim();
    Globs = End == llvm::StringRef::npos ? llvm::StringRef()
                                         : Globs.substr(End + 1);
    if (Positive || KeepNegative)
      Items.push_back({Positive, Pattern.str()});
  } while (!Globs.empty());
}

bool GlobList::contains(llvm::StringRef Name) const {
  for (auto It = Items.rbegin(); It != Items.rend(); ++It)
    if (globMatches(It->Pattern, Name))
      return It->Positive;
  return false;
}

} // namespace distlint
