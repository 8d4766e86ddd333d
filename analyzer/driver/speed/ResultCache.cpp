//===- ResultCache.cpp ----------------------------------------------------===//
#include "ResultCache.h"
#include "Runner.h"
#include "input/Paths.h"
#include "report/ReportJson.h"
#include "input/ResultSerialization.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <cstdlib>

namespace distlint {

//===--- Hashing
//-----------------------------------------------------------===//

struct KeyBuilder::Impl {
  llvm::BLAKE3 Hasher;
};
KeyBuilder::KeyBuilder() : P(std::make_unique<Impl>()) {}
KeyBuilder::~KeyBuilder() = default;

void KeyBuilder::add(llvm::StringRef Part) {
  std::string Length = std::to_string(Part.size()) + ":";
  P->Hasher.update(Length);
  P->Hasher.update(Part);
}

std::string KeyBuilder::hex() {
  auto Digest = P->Hasher.final<16>();
  return llvm::toHex(Digest, /*LowerCase=*/true);
}

std::string ContentHasher::hashFile(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Memo.find(Path);
    if (It != Memo.end())
      return It->second;
  }
  std::string Digest;
  if (Overlays && Overlays->count(Path)) {
    KeyBuilder K;
    K.add(Overlays->at(Path));
    Digest = K.hex();
  } else if (auto Buffer = llvm::MemoryBuffer::getFile(
                 Path, /*IsText=*/false, /*RequiresNullTerminator=*/false)) {
    KeyBuilder K;
    K.add((*Buffer)->getBuffer());
    Digest = K.hex();
  }
  std::lock_guard<std::mutex> Lock(Mutex);
  Memo[Path] = Digest;
  return Digest;
}

//===--- Files
//-------------------------------------------------------------===//

bool writeFileAtomically(const std::string &Path, llvm::StringRef Data) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (llvm::sys::fs::create_directories(Dir))
    return false;
  llvm::SmallString<256> Temp;
  int Fd;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp%%%%%%%%", Fd, Temp))
    return false;
  {
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << Data;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

void touchFile(const std::string &Path) {
  int Fd;
  if (llvm::sys::fs::openFileForWrite(Path, Fd, llvm::sys::fs::CD_OpenExisting,
                                      llvm::sys::fs::OF_Append))
    return;
  llvm::sys::fs::setLastAccessAndModificationTime(
      Fd, llvm::sys::toTimePoint(std::time(nullptr)));
  llvm::sys::Process::SafelyCloseFileDescriptor(Fd);
}

std::string defaultCacheDir() {
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    return normalizePath(std::string(Xdg) + "/distlint");
  if (const char *Home = std::getenv("HOME"); Home && *Home)
    return normalizePath(std::string(Home) + "/.cache/distlint");
  return "";
}

//===--- The cache
//---------------------------------------------------------===//

namespace {
/// Identity of this distlint binary: results depend on its code, not only
/// its version string (a rebuild with changed rules is a different tool).
std::string binaryDigest() {
  static int Anchor;
  static const std::string Digest = [] {
    KeyBuilder K;
    K.add(toolVersion());
    std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
    if (auto Buffer = llvm::MemoryBuffer::getFile(Exe, false, false))
      K.add((*Buffer)->getBuffer());
    return K.hex();
  }();
  return Digest;
}

constexpr unsigned MaxManifestVariants = 8;
} // namespace

ResultCache::ResultCache(std::string Dir, uint64_t MaxBytes,
                         std::string ProjectRoot,
                         std::unique_ptr<RemoteStorage> Remote,
                         ContentHasher &Hasher)
    : Dir(std::move(Dir)), MaxBytes(MaxBytes), Root(std::move(ProjectRoot)),
      Remote(std::move(Remote)), Hasher(Hasher), BinaryDigest(binaryDigest()) {}
ResultCache::~ResultCache() = default;

std::string ResultCache::relative(llvm::StringRef Path) const {
  if (Root.empty() || Root == "/" || !isUnder(Path, Root))
    return Path.str();
  if (Path.size() == llvm::StringRef(Root).rtrim('/').size())
    return "@";
  return "@/" + relativeToRoot(Path, Root);
}

std::string ResultCache::absolute(llvm::StringRef Stored) const {
  if (Stored == "@")
    return Root;
  if (Stored.consume_front("@/"))
    return normalizePath(Stored, Root);
  return Stored.str();
}

std::string ResultCache::manifestKey(const std::string &MainFile,
                                     const std::string &Directory,
                                     const std::vector<std::string> &Flags,
                                     const std::string &ConfigDigest) {
  KeyBuilder K;
  K.add("manifest-v2");
  K.add(BinaryDigest);
  K.add(ConfigDigest);
  K.add(relative(MainFile));
  K.add(relative(Directory));
  // Flags may name paths inside the checkout (-I<root>/include).
  for (const std::string &Flag : Flags) {
    std::string F = Flag;
    size_t At;
    while (!Root.empty() && Root != "/" &&
           (At = F.find(Root)) != std::string::npos)
      F.replace(At, Root.size(), "@");
    K.add(F);
  }
  K.add(Hasher.hashFile(MainFile));
  return K.hex();
}

std::optional<std::string> ResultCache::read(llvm::StringRef Kind,
                                             const std::string &Key,
                                             bool &FromRemote) {
  FromRemote = false;
  std::string Path = Dir + "/" + Kind.str() + "/" + Key;
  if (auto Buffer = llvm::MemoryBuffer::getFile(Path, false, false)) {
    touchFile(Path);
    return (*Buffer)->getBuffer().str();
  }
  if (!Remote)
    return std::nullopt;
  std::optional<std::string> Value = Remote->get(Kind.str() + "-" + Key);
  if (Value) {
    FromRemote = true;
    writeFileAtomically(Path, *Value); // keep a local copy
  }
  return Value;
}

void ResultCache::write(llvm::StringRef Kind, const std::string &Key,
                        llvm::StringRef Data) {
  writeFileAtomically(Dir + "/" + Kind.str() + "/" + Key, Data);
  if (Remote && !Remote->readOnly() &&
      Remote->put(Kind.str() + "-" + Key, Data))
    ++Stats.RemoteStores;
}

void ResultCache::mapPaths(
    TranslationUnitResult &R,
    const std::function<std::string(llvm::StringRef)> &Map) {
  for (Finding &F : R.Findings) {
    F.Loc.File = Map(F.Loc.File);
    for (Note &N : F.Notes)
      N.Loc.File = Map(N.Loc.File);
    for (Replacement &X : F.Fixes)
      X.File = Map(X.File);
  }
}

bool ResultCache::lookup(const std::string &ManifestKey,
                         TranslationUnitResult &Out) {
  bool ManifestRemote = false, ResultRemote = false;
  std::optional<std::string> Manifest = read("m", ManifestKey, ManifestRemote);
  if (!Manifest) {
    ++Stats.Misses;
    return false;
  }
  OrderedJson Doc = OrderedJson::parse(*Manifest, nullptr, false);
  if (!Doc.is_object() || !Doc.contains("variants") ||
      !Doc["variants"].is_array()) {
    ++Stats.Misses;
    return false;
  }
  for (const OrderedJson &Variant : Doc["variants"]) {
    if (!Variant.is_array())
      continue;
    KeyBuilder ResultKey;
    ResultKey.add(ManifestKey);
    bool Same = true;
    for (const OrderedJson &Entry : Variant) {
      if (!Entry.is_array() || Entry.size() != 2 || !Entry[0].is_string() ||
          !Entry[1].is_string()) {
        Same = false;
        break;
      }
      std::string Stored = Entry[0].get<std::string>();
      std::string Hash = Entry[1].get<std::string>();
      if (Hasher.hashFile(absolute(Stored)) != Hash) {
        Same = false;
        break;
      }
      ResultKey.add(Stored);
      ResultKey.add(Hash);
    }
    if (!Same)
      continue;
    std::optional<std::string> Bytes = read("r", ResultKey.hex(), ResultRemote);
    if (!Bytes)
      continue;
    // Entries may come from a remote store: deserializeResult checks every
    // length, and an entry with errors is never replayed.
    TranslationUnitResult Parsed;
    std::string Error;
    if (!deserializeResult(*Bytes, Parsed, Error) || !Parsed.Errors.empty() ||
        !Parsed.ToolErrors.empty())
      continue;
    mapPaths(Parsed, [this](llvm::StringRef P) { return absolute(P); });
    Out = std::move(Parsed);
    ++(ManifestRemote || ResultRemote ? Stats.RemoteHits : Stats.LocalHits);
    return true;
  }
  ++Stats.Misses;
  return false;
}

void ResultCache::store(const std::string &ManifestKey,
                        const std::string &MainFile,
                        const TranslationUnitResult &Result) {
  if (!Result.Errors.empty() || !Result.ToolErrors.empty())
    return;
  OrderedJson Variant = OrderedJson::array();
  KeyBuilder ResultKey;
  ResultKey.add(ManifestKey);
  std::vector<std::string> Files(Result.IncludeClosure);
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  for (const std::string &File : Files) {
    std::string Stored = relative(File);
    std::string Hash = Hasher.hashFile(File);
    Variant.push_back({Stored, Hash});
    ResultKey.add(Stored);
    ResultKey.add(Hash);
  }
  TranslationUnitResult Portable = Result;
  Portable.IncludeClosure.clear(); // the manifest holds it
  Portable.UsedPreamble = false;   // a replay parses nothing
  mapPaths(Portable, [this](llvm::StringRef P) { return relative(P); });
  write("r", ResultKey.hex(), serializeResult(Portable));

  // Newest variant first; older ones stay for branches switched back to.
  OrderedJson Variants = OrderedJson::array();
  Variants.push_back(Variant);
  bool Ignored;
  if (std::optional<std::string> Old = read("m", ManifestKey, Ignored)) {
    OrderedJson Doc = OrderedJson::parse(*Old, nullptr, false);
    if (Doc.is_object() && Doc.contains("variants") &&
        Doc["variants"].is_array())
      for (const OrderedJson &V : Doc["variants"])
        if (V != Variant && Variants.size() < MaxManifestVariants)
          Variants.push_back(V);
  }
  write("m", ManifestKey, OrderedJson({{"variants", Variants}}).dump());
  ++Stats.Stores;

  writeFileAtomically(costPath(MainFile),
                      std::to_string(Result.Milliseconds / 1000.0));
}

std::string ResultCache::costPath(const std::string &File) const {
  KeyBuilder K;
  K.add(relative(File));
  return Dir + "/cost/" + K.hex();
}

std::optional<double> ResultCache::lastCost(const std::string &File) {
  auto Buffer = llvm::MemoryBuffer::getFile(costPath(File));
  double Seconds;
  if (!Buffer ||
      llvm::StringRef((*Buffer)->getBuffer()).trim().getAsDouble(Seconds))
    return std::nullopt;
  return Seconds;
}

void ResultCache::evict() {
  struct Item {
    llvm::sys::TimePoint<> Time;
    uint64_t Size;
    std::string Path;
  };
  std::vector<Item> Items;
  uint64_t Total = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(It->path(), Status) ||
        Status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    Items.push_back(
        {Status.getLastModificationTime(), Status.getSize(), It->path()});
    Total += Status.getSize();
  }
  if (Total <= MaxBytes)
    return;
  std::sort(Items.begin(), Items.end(),
            [](const Item &A, const Item &B) { return A.Time < B.Time; });
  // Down to 90%, so the next runs do not evict again at once.
  uint64_t Target = MaxBytes / 10 * 9;
  for (const Item &I : Items) {
    if (Total <= Target)
      break;
    if (!llvm::sys::fs::remove(I.Path))
      Total -= I.Size;
  }
}

} // namespace distlint
