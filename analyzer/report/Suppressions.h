//===- Suppressions.h - NOLINT comments, as clang-tidy reads them -*- C++ -*-===//
//
// One comment silences clang-tidy and distlint alike, so this follows
// clang-tidy's NoLintDirectiveHandler exactly:
//   - `NOLINT` / `NOLINT(globs)` anywhere on the finding's line,
//   - `NOLINTNEXTLINE(globs)` anywhere on the line before,
//   - `NOLINTBEGIN(globs)` ... `NOLINTEND(globs)` blocks, where an END closes
//     the innermost open BEGIN only if their check lists are identical
//     (whitespace ignored); unmatched BEGIN/END tokens are errors and do not
//     suppress anything.
// Without parentheses every rule is silenced; `globs` use GlobList syntax
// with negative globs ignored. A directive must be followed immediately by
// '(' for its list to count; the list ends at ')' on the same line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace distlint {

enum class NoLintKind { NoLint, NextLine, Begin, End };

struct NoLintToken {
  NoLintKind Kind;
  size_t Offset; ///< Of the 'N' of NOLINT in the scanned buffer.
  std::optional<std::string> Checks; ///< Whitespace-trimmed list, if any.
  bool suppresses(llvm::StringRef Rule) const;
};

/// All NOLINT tokens in Text (a whole file or one line).
std::vector<NoLintToken> findNoLintTokens(llvm::StringRef Text);

/// The NOLINT state of one file's contents.
class FileSuppressions {
public:
  /// Buffer must outlive this object.
  explicit FileSuppressions(llvm::StringRef Buffer);

  /// Is a finding of Rule at byte Offset of the buffer silenced?
  bool suppresses(size_t Offset, llvm::StringRef Rule) const;

  /// NOLINTBEGIN / NOLINTEND tokens without a partner, in file order.
  const std::vector<NoLintToken> &unmatched() const { return Unmatched; }

  /// clang-tidy's message for an unmatched token.
  static const char *unmatchedMessage(const NoLintToken &T);

private:
  struct Block {
    size_t Begin, End;
    NoLintToken Opener;
  };
  llvm::StringRef Buffer;
  std::vector<Block> Blocks;
  std::vector<NoLintToken> Unmatched;
};

/// Pseudo rule id of "unmatched NOLINTBEGIN/NOLINTEND" errors.
inline constexpr const char *NoLintErrorRule = "distlint-nolint";

} // namespace distlint
