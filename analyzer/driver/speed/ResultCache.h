//===- ResultCache.h - Never analyze the same TU twice ----------*- C++ -*-===//
//
// ccache's direct mode for analysis results. A TU's *manifest key* hashes
// what is known before parsing: distlint's version and binary, the effective
// flags, the effective config, and the main file's contents (paths under
// the project root written relative to it, so another checkout computes the
// same key). The manifest lists the include closure of earlier runs (each
// file with its content hash); a variant whose files all still hash the same
// names the *result key*, under which the TU's findings (with fingerprint
// keys and notes) are stored. A hit replays them without parsing; editing a
// header changes exactly the result keys of the TUs that include it.
//
// Layout under the cache directory (default $XDG_CACHE_HOME/distlint):
//   m/<key>  manifests   r/<key>  results   preamble/  shared preambles
//   cost/<key>  last analysis time of a file (for --shard balancing)
// Every write goes to a temporary file renamed into place, so concurrent
// runs never see half an entry. Reads touch the entry; when the directory
// grows past its size limit the least recently used entries go first.
// The optional remote storage (RemoteStorage.h) is asked on a local miss and
// given every new entry unless read-only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "RemoteStorage.h"
#include "input/ResultSerialization.h"

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace distlint {

/// BLAKE3 over a sequence of parts (each length-prefixed).
class KeyBuilder {
public:
  KeyBuilder();
  ~KeyBuilder();
  void add(llvm::StringRef Part);
  std::string hex(); ///< 32 hex digits.

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Content hashes of files, computed once per run. Thread-safe. Overlays
/// (unsaved editor buffers) win over the disk. "" for unreadable files.
class ContentHasher {
public:
  explicit ContentHasher(
      const std::map<std::string, std::string> *Overlays = nullptr)
      : Overlays(Overlays) {}
  std::string hashFile(const std::string &Path);

private:
  const std::map<std::string, std::string> *Overlays;
  std::mutex Mutex;
  std::map<std::string, std::string> Memo;
};

/// Writes Data to Path through a temporary file and a rename (creating the
/// directories). False on error.
bool writeFileAtomically(const std::string &Path, llvm::StringRef Data);
/// Marks Path as just used (its mtime drives LRU eviction).
void touchFile(const std::string &Path);

/// $XDG_CACHE_HOME/distlint, else ~/.cache/distlint.
std::string defaultCacheDir();

struct CacheStats {
  std::atomic<unsigned> LocalHits{0}, RemoteHits{0}, Misses{0}, Stores{0},
      RemoteStores{0};
};

class ResultCache {
public:
  ResultCache(std::string Dir, uint64_t MaxBytes, std::string ProjectRoot,
              std::unique_ptr<RemoteStorage> Remote, ContentHasher &Hasher);
  ~ResultCache();

  const std::string &dir() const { return Dir; }

  /// Everything known before parsing. Flags are effectiveFlags(); the
  /// config digest covers every rule's state and the user API lists.
  std::string manifestKey(const std::string &MainFile,
                          const std::string &Directory,
                          const std::vector<std::string> &Flags,
                          const std::string &ConfigDigest);

  /// True and Out filled on a hit (local, then remote): the findings (with
  /// notes, fixes and fingerprint keys) and counters of the stored result.
  bool lookup(const std::string &ManifestKey, TranslationUnitResult &Out);
  /// Records Result.IncludeClosure (absolute paths of every file the TU
  /// read), Result and its cost. Only clean results may be stored: no file
  /// or tool errors (a crash is a file error).
  void store(const std::string &ManifestKey, const std::string &MainFile,
             const TranslationUnitResult &Result);

  /// Last known analysis time of File, if any run recorded one.
  std::optional<double> lastCost(const std::string &File);

  /// Deletes least recently used entries until the directory fits the limit.
  void evict();

  CacheStats Stats;

private:
  std::string relative(llvm::StringRef Path) const;
  std::string absolute(llvm::StringRef Stored) const;
  /// Every path of R through Map (relative() / absolute()).
  static void mapPaths(TranslationUnitResult &R,
                       const std::function<std::string(llvm::StringRef)> &Map);
  std::optional<std::string> read(llvm::StringRef Kind, const std::string &Key,
                                  bool &FromRemote);
  void write(llvm::StringRef Kind, const std::string &Key,
             llvm::StringRef Data);
  std::string costPath(const std::string &File) const;

  std::string Dir;
  uint64_t MaxBytes;
  std::string Root;
  std::unique_ptr<RemoteStorage> Remote;
  ContentHasher &Hasher;
  std::string BinaryDigest;
};

} // namespace distlint
