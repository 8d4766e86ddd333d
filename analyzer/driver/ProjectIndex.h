//===- ProjectIndex.h - Function summaries across the project's TUs -*- C++
//-*-===//
//
// The whole-program view. Each analyzed TU hands back the summaries of the
// functions it defines and the USRs of the functions it calls without a
// body (engine/summaries/Exports.h, as JSON in its result, so cache hits
// carry them too). The index keeps them per TU; the facts a TU gets are
// those of its recorded references: a call into comm.cpp is then analyzed
// as if comm.cpp's body were here. A virtual method gets the collectives,
// syncs and training steps of every overrider found project-wide.
//
// Whole-project runs (Runner.cpp): phase 1 analyzes every TU with the
// facts of the last index (none on a cold cache); the index is updated with
// their summaries; phase 2 re-analyzes exactly the TUs whose facts changed.
// The index is kept in the cache directory per project root, so a later
// run of one file (pre-commit, the language server) gets the same facts
// as the whole-project run did; without an index a TU is analyzed alone.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "api/ProjectFacts.h"
#include "engine/summaries/Exports.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distlint {

class ProjectIndex {
public:
  /// A TU's exports as the JSON text its result carries, with the digest
  /// of the facts it was analyzed with (given()).
  static std::string encode(const TuExports &X,
                            const std::string &GivenDigest = "");
  /// The digest of the facts Given holds for the functions Refs names:
  /// what decides a TU's findings among everything it was given.
  static std::string digest(const api::ProjectFacts *Given,
                            const std::vector<std::string> &Refs);
  /// The GivenDigest a result's summaries carry ("" if none).
  static std::string given(const std::string &Summaries);

  /// Where the index of ProjectRoot lives under CacheDir.
  static std::string pathFor(const std::string &CacheDir,
                             const std::string &ProjectRoot);
  /// Reads an index written by save(). False (and an empty index) when it
  /// is missing or unreadable; Why says which.
  bool load(const std::string &Path, std::string &Why);
  /// Writes it atomically, stamped with the current time.
  bool save(const std::string &Path);
  /// Changed since it was loaded or saved (a run that learned nothing new,
  /// such as an editor's, need not write it).
  bool dirty() const { return Dirty; }

  /// Replaces File's entry by the summaries of its result (JSON from
  /// encode()); an empty or malformed text leaves the entry as it was.
  void update(const std::string &File, const std::string &Summaries);

  /// The facts File gets (of the functions it called, as last recorded),
  /// with their digest; null and "" when there are none.
  std::shared_ptr<const api::ProjectFacts> factsFor(const std::string &File,
                                                    std::string &Digest) const;

  /// Every function's facts (what a TU gets before anyone knows what it
  /// calls); null when there are none. Shared until the next update().
  std::shared_ptr<const api::ProjectFacts> all() const;

  /// Does File define a function another TU of the index calls? Such TUs
  /// are analyzed first, so their callers start with the facts (cost
  /// only: phase 2 makes the results the same in any order).
  bool definesForOthers(const std::string &File) const;

  /// foo.cpp beside foo.h: by convention it defines what others call
  /// (the order hint of a cold run).
  static bool hasOwnHeader(const std::string &File);

  /// For --verbose: where it is, what it holds and how old it is.
  std::string describe(const std::string &Path) const;

  size_t files() const { return Tus.size(); }
  size_t functions() const;
  /// When the loaded index was written (seconds since the epoch).
  std::optional<int64_t> writtenAt() const { return WrittenAt; }

private:
  struct TuEntry {
    std::vector<api::ProjectFunction> Defines;
    std::vector<std::string> References;
  };
  static bool decode(const std::string &Json, TuEntry &Out);
  const std::map<std::string, api::ProjectFacts::Entry> &byUsr() const;

  std::map<std::string, TuEntry> Tus; ///< Absolute main file -> entry.
  std::optional<int64_t> WrittenAt;
  bool Dirty = false;
  mutable std::optional<std::map<std::string, api::ProjectFacts::Entry>>
      ByUsrCache;
  mutable std::shared_ptr<const api::ProjectFacts> AllCache;
};

} // namespace distlint
