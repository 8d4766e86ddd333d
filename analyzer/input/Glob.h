//===- Glob.h - clang-tidy style glob lists ---------------------*- C++ -*-===//
//
// "-*,distlint-missing-*" selects rules the way clang-tidy's Checks option
// and NOLINT(...) do: comma (or newline) separated globs, '*' matches any
// run of characters, a leading '-' excludes, and the last matching glob
// decides. Whitespace around globs is ignored.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace distlint {

class GlobList {
public:
  /// KeepNegative=false drops '-' globs (NOLINT(...) ignores them, like
  /// clang-tidy).
  explicit GlobList(llvm::StringRef Globs, bool KeepNegative = true);
  /// True when the last glob matching Name is positive.
  bool contains(llvm::StringRef Name) const;

private:
  struct Item {
    bool Positive;
    std::string Pattern;
  };
  std::vector<Item> Items;
};

/// Does Pattern ('*' wildcards only) match all of Text?
bool globMatches(llvm::StringRef Pattern, llvm::StringRef Text);

} // namespace distlint
