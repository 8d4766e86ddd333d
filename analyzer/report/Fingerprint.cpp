//===- Fingerprint.cpp ----------------------------------------------------===//
#include "report/Fingerprint.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SHA1.h"

namespace distlint {

namespace {
std::string digest(llvm::StringRef Data) {
  llvm::SHA1 Hasher;
  Hasher.update(Data);
  auto Bytes = Hasher.final();
  // 128 bits are plenty to tell findings of one project apart.
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Bytes).take_front(16),
                     /*LowerCase=*/true);
}
} // namespace

std::string normalizeSourceLine(llvm::StringRef Line) {
  std::string Out;
  char Quote = 0;
  bool PendingSpace = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (!Quote && C == '/' && I + 1 < Line.size() &&
        (Line[I + 1] == '/' || Line[I + 1] == '*'))
      break; // comments change freely without changing the code
    if (Quote) {
      if (C == '\\' && I + 1 < Line.size()) {
        Out += C;
        Out += Line[++I];
        continue;
      }
      if (C == Quote)
        Quote = 0;
    } else if (C == '"' || C == '\'') {
      Quote = C;
    }
    if (!Quote && llvm::isSpace(C)) {
      PendingSpace = !Out.empty();
      continue;
    }
    if (PendingSpace)
      Out += ' ';
    PendingSpace = false;
    Out += C;
  }
  return Out;
}

std::string fingerprintKey(llvm::StringRef Rule, llvm::StringRef RelativeFile,
                           llvm::StringRef SourceLine,
                           llvm::StringRef EnclosingFunction) {
  std::string Data;
  // Named: a temporary inside the braced list would die before the loop.
  const std::string Normalized = normalizeSourceLine(SourceLine);
  for (llvm::StringRef Part :
       {Rule, RelativeFile, llvm::StringRef(Normalized), EnclosingFunction}) {
    Data += Part;
    Data += '\0';
  }
  return digest(Data);
}

void finalizeFingerprints(std::vector<Finding> &Findings) {
  llvm::StringMap<unsigned> Seen;
  for (Finding &F : Findings) {
    unsigned Index = Seen[F.Fingerprint]++;
    F.Fingerprint = digest(F.Fingerprint + ":" + std::to_string(Index));
  }
}

} // namespace distlint
