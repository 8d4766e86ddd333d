//===- ResultSerialization.cpp --------------------------------------------===//
#include "input/ResultSerialization.h"

#include <cstdint>
#include <cstring>

namespace distlint {
namespace {

constexpr char Magic[4] = {'D', 'L', 'T', 'U'};

class Writer {
public:
  void u8(uint8_t V) { Out.push_back(static_cast<char>(V)); }
  void u32(uint32_t V) {
    for (int I = 0; I < 4; ++I)
      u8(static_cast<uint8_t>(V >> (8 * I)));
  }
  void str(const std::string &S) {
    u32(static_cast<uint32_t>(S.size()));
    Out.append(S);
  }
  void loc(const Location &L) {
    str(L.File);
    u32(L.Line);
    u32(L.Column);
  }
  std::string Out;
};

class Reader {
public:
  explicit Reader(llvm::StringRef Bytes) : Bytes(Bytes) {}

  bool u8(uint8_t &V) {
    if (!need(1))
      return false;
    V = static_cast<uint8_t>(Bytes[Pos++]);
    return true;
  }
  bool u32(uint32_t &V) {
    if (!need(4))
      return false;
    V = 0;
    for (int I = 0; I < 4; ++I)
      V |= static_cast<uint32_t>(static_cast<uint8_t>(Bytes[Pos + I]))
           << (8 * I);
    Pos += 4;
    return true;
  }
  bool str(std::string &S) {
    uint32_t Len;
    if (!u32(Len) || !need(Len))
      return false;
    S.assign(Bytes.data() + Pos, Len);
    Pos += Len;
    return true;
  }
  bool loc(Location &L) { return str(L.File) && u32(L.Line) && u32(L.Column); }
  /// A count of elements that each take at least MinBytes: bounded by what
  /// is left, so a forged count cannot make us reserve gigabytes.
  bool count(uint32_t &N, size_t MinBytes) {
    if (!u32(N))
      return false;
    if (N > remaining() / MinBytes)
      return fail("count " + std::to_string(N) + " exceeds the data");
    return true;
  }
  bool fail(std::string Why) {
    if (Error.empty())
      Error = std::move(Why) + " at byte " + std::to_string(Pos);
    return false;
  }
  size_t remaining() const { return Bytes.size() - Pos; }
  bool atEnd() const { return Pos == Bytes.size(); }
  std::string Error;

private:
  bool need(size_t N) {
    if (remaining() < N)
      return fail("truncated");
    return true;
  }
  llvm::StringRef Bytes;
  size_t Pos = 0;
};

// Smallest encodings, for Reader::count.
constexpr size_t MinLoc = 4 + 4 + 4;
constexpr size_t MinNote = MinLoc + 4;
constexpr size_t MinFinding = 4 + 1 + MinLoc + 4 + 4 + 4;
constexpr size_t MinFileError = 4 + 4 + MinLoc + 1;
constexpr size_t MinReplacement = 4 + 4 + 4 + 4;
constexpr size_t MinString = 4;

bool readFinding(Reader &R, Finding &F) {
  uint8_t Sev;
  if (!R.str(F.Rule) || !R.u8(Sev))
    return false;
  if (Sev > static_cast<uint8_t>(Severity::Error))
    return R.fail("bad severity " + std::to_string(Sev));
  F.Sev = static_cast<Severity>(Sev);
  uint32_t Notes;
  if (!R.loc(F.Loc) || !R.str(F.Message) || !R.count(Notes, MinNote))
    return false;
  F.Notes.resize(Notes);
  for (Note &N : F.Notes)
    if (!R.loc(N.Loc) || !R.str(N.Message))
      return false;
  uint32_t Fixes;
  if (!R.count(Fixes, MinReplacement))
    return false;
  F.Fixes.resize(Fixes);
  for (Replacement &X : F.Fixes)
    if (!R.str(X.File) || !R.u32(X.Offset) || !R.u32(X.Length) || !R.str(X.Text))
      return false;
  return R.str(F.Fingerprint);
}

bool readAll(Reader &R, TranslationUnitResult &Out) {
  uint32_t N;
  if (!R.count(N, MinFinding))
    return false;
  Out.Findings.resize(N);
  for (Finding &F : Out.Findings)
    if (!readFinding(R, F))
      return false;
  if (!R.count(N, MinFileError))
    return false;
  Out.Errors.resize(N);
  for (FileError &E : Out.Errors) {
    uint8_t Kind;
    if (!R.str(E.File) || !R.str(E.Message) || !R.loc(E.At) || !R.u8(Kind))
      return false;
    if (Kind > static_cast<uint8_t>(FileErrorKind::NotAnalyzed))
      return R.fail("bad file error kind " + std::to_string(Kind));
    E.Kind = static_cast<FileErrorKind>(Kind);
  }
  if (!R.count(N, MinString))
    return false;
  Out.ToolErrors.resize(N);
  for (std::string &E : Out.ToolErrors)
    if (!R.str(E))
      return false;
  uint32_t Suppressed;
  if (!R.u32(Suppressed))
    return false;
  Out.SuppressedByNoLint = Suppressed;
  if (!R.u32(Suppressed))
    return false;
  Out.HeaderFiltered = Suppressed;
  if (!R.count(N, MinString))
    return false;
  Out.IncludeClosure.resize(N);
  for (std::string &F : Out.IncludeClosure)
    if (!R.str(F))
      return false;
  uint32_t Ms;
  uint8_t Preamble;
  if (!R.u32(Ms) || !R.u8(Preamble))
    return false;
  if (Preamble > 1)
    return R.fail("bad preamble flag " + std::to_string(Preamble));
  Out.Milliseconds = Ms;
  Out.UsedPreamble = Preamble == 1;
  if (!R.count(N, MinString))
    return false;
  Out.LimitsHit.resize(N);
  for (std::string &L : Out.LimitsHit)
    if (!R.str(L))
      return false;
  if (!R.str(Out.Summaries))
    return false;
  if (!R.atEnd())
    return R.fail("trailing data");
  return true;
}

} // namespace

std::string serializeResult(const TranslationUnitResult &R) {
  Writer W;
  W.Out.append(Magic, sizeof(Magic));
  W.u32(ResultFormatVersion);
  W.u32(static_cast<uint32_t>(R.Findings.size()));
  for (const Finding &F : R.Findings) {
    W.str(F.Rule);
    W.u8(static_cast<uint8_t>(F.Sev));
    W.loc(F.Loc);
    W.str(F.Message);
    W.u32(static_cast<uint32_t>(F.Notes.size()));
    for (const Note &N : F.Notes) {
      W.loc(N.Loc);
      W.str(N.Message);
    }
    W.u32(static_cast<uint32_t>(F.Fixes.size()));
    for (const Replacement &X : F.Fixes) {
      W.str(X.File);
      W.u32(X.Offset);
      W.u32(X.Length);
      W.str(X.Text);
    }
    W.str(F.Fingerprint);
  }
  W.u32(static_cast<uint32_t>(R.Errors.size()));
  for (const FileError &E : R.Errors) {
    W.str(E.File);
    W.str(E.Message);
    W.loc(E.At);
    W.u8(static_cast<uint8_t>(E.Kind));
  }
  W.u32(static_cast<uint32_t>(R.ToolErrors.size()));
  for (const std::string &E : R.ToolErrors)
    W.str(E);
  W.u32(R.SuppressedByNoLint);
  W.u32(R.HeaderFiltered);
  W.u32(static_cast<uint32_t>(R.IncludeClosure.size()));
  for (const std::string &F : R.IncludeClosure)
    W.str(F);
  W.u32(R.Milliseconds);
  W.u8(R.UsedPreamble ? 1 : 0);
  W.u32(static_cast<uint32_t>(R.LimitsHit.size()));
  for (const std::string &L : R.LimitsHit)
    W.str(L);
  W.str(R.Summaries);
  return std::move(W.Out);
}

bool deserializeResult(llvm::StringRef Bytes, TranslationUnitResult &Out,
                       std::string &Error) {
  Out = TranslationUnitResult();
  if (Bytes.size() < sizeof(Magic) ||
      std::memcmp(Bytes.data(), Magic, sizeof(Magic)) != 0) {
    Error = "not a distlint result (bad magic)";
    return false;
  }
  Reader R(Bytes.drop_front(sizeof(Magic)));
  uint32_t Version;
  if (!R.u32(Version)) {
    Error = "truncated result header";
    return false;
  }
  if (Version != ResultFormatVersion) {
    Error = "result format version " + std::to_string(Version) + ", expected " +
            std::to_string(ResultFormatVersion);
    return false;
  }
  if (!readAll(R, Out)) {
    Error = "malformed result: " + R.Error;
    Out = TranslationUnitResult();
    return false;
  }
  return true;
}

} // namespace distlint
