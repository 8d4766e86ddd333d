//===- Suppressions.cpp ---------------------------------------------------===//
#include "report/Suppressions.h"
#include "input/Glob.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace distlint {

namespace {
std::optional<NoLintKind> kindOf(llvm::StringRef Word) {
  if (Word == "NOLINT")
    return NoLintKind::NoLint;
  if (Word == "NOLINTNEXTLINE")
    return NoLintKind::NextLine;
  if (Word == "NOLINTBEGIN")
    return NoLintKind::Begin;
  if (Word == "NOLINTEND")
    return NoLintKind::End;
  return std::nullopt;
}

/// "a, b ,c" -> "a,b,c": the form BEGIN and END lists are compared in.
std::string trimChecks(llvm::StringRef Checks) {
  llvm::SmallVector<llvm::StringRef> Parts;
  Checks.split(Parts, ',');
  for (llvm::StringRef &P : Parts)
    P = P.trim();
  return llvm::join(Parts, ",");
}

/// [start, end) of the line containing Offset (end excludes the '\n').
std::pair<size_t, size_t> lineAround(llvm::StringRef Buffer, size_t Offset) {
  size_t Start = Buffer.find_last_of('\n', Offset);
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  size_t End = std::min(Buffer.find('\n', Offset), Buffer.size());
  return {Start, End};
}

bool lineHas(llvm::StringRef Line, NoLintKind Kind, llvm::StringRef Rule) {
  for (const NoLintToken &T : findNoLintTokens(Line))
    if (T.Kind == Kind && T.suppresses(Rule))
      return true;
  return false;
}
} // namespace

bool NoLintToken::suppresses(llvm::StringRef Rule) const {
  return GlobList(Checks ? llvm::StringRef(*Checks) : "*",
                  /*KeepNegative=*/false)
      .contains(Rule);
}

std::vector<NoLintToken> findNoLintTokens(llvm::StringRef Text) {
  static constexpr llvm::StringLiteral Marker = "NOLINT";
  std::vector<NoLintToken> Tokens;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t Start = Text.find(Marker, Pos);
    if (Start == llvm::StringRef::npos)
      break;
    // The directive is NOLINT plus the letters glued to it (NEXTLINE...).
    Pos = Start + Marker.size();
    while (Pos < Text.size() && llvm::isAlpha(Text[Pos]))
      ++Pos;
    std::optional<NoLintKind> Kind = kindOf(Text.slice(Start, Pos));
    if (!Kind)
      continue;
    std::optional<std::string> Checks;
    if (Pos < Text.size() && Text[Pos] == '(') {
      size_t Close = Text.find_first_of("\n)", Pos + 1);
      if (Close != llvm::StringRef::npos && Text[Close] == ')') {
        Checks = trimChecks(Text.slice(Pos + 1, Close));
        Pos = Close + 1;
      }
    }
    Tokens.push_back(NoLintToken{*Kind, Start, std::move(Checks)});
  }
  return Tokens;
}

FileSuppressions::FileSuppressions(llvm::StringRef Buffer) : Buffer(Buffer) {
  // Blocks nest like a stack: an END closes the innermost open BEGIN if the
  // check lists agree, otherwise the END itself is unmatched.
  std::vector<NoLintToken> Open;
  for (NoLintToken &T : findNoLintTokens(Buffer)) {
    if (T.Kind == NoLintKind::Begin) {
      Open.push_back(std::move(T));
    } else if (T.Kind == NoLintKind::End) {
      if (!Open.empty() && Open.back().Checks == T.Checks) {
        Blocks.push_back(Block{Open.back().Offset, T.Offset, Open.back()});
        Open.pop_back();
      } else {
        Unmatched.push_back(std::move(T));
      }
    }
  }
  for (NoLintToken &T : Open)
    Unmatched.push_back(std::move(T));
  std::sort(Unmatched.begin(), Unmatched.end(),
            [](const NoLintToken &A, const NoLintToken &B) {
              return A.Offset < B.Offset;
            });
}

bool FileSuppressions::suppresses(size_t Offset, llvm::StringRef Rule) const {
  if (Offset > Buffer.size())
    return false;
  auto [Start, End] = lineAround(Buffer, Offset);
  if (lineHas(Buffer.slice(Start, End), NoLintKind::NoLint, Rule))
    return true;
  if (Start > 0) {
    auto [PrevStart, PrevEnd] = lineAround(Buffer, Start - 1);
    if (lineHas(Buffer.slice(PrevStart, PrevEnd), NoLintKind::NextLine, Rule))
      return true;
  }
  for (const Block &B : Blocks)
    if (B.Begin < Offset && Offset < B.End && B.Opener.suppresses(Rule))
      return true;
  return false;
}

const char *FileSuppressions::unmatchedMessage(const NoLintToken &T) {
  return T.Kind == NoLintKind::Begin
             ? "unmatched 'NOLINTBEGIN' comment without a subsequent "
               "'NOLINTEND' comment"
             : "unmatched 'NOLINTEND' comment without a previous "
               "'NOLINTBEGIN' comment";
}

} // namespace distlint
