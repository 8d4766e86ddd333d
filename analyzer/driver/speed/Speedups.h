//===- Speedups.h - Cache, shards and shared preambles of one run -*- C++
//-*-===//
//
// The parent process's side of issue 14's speed-ups, around the per-TU
// worker processes (Isolation.h):
//   1. --shard K/N keeps this shard's TUs.
//   2. The result cache is asked for every TU; a hit is replayed and never
//      reaches a worker.
//   3. The remaining TUs are grouped by preamble (Preamble.h); one builder
//      task per shared preamble writes it to disk (the cache directory, or
//      a directory of this run only), the parent maps it, and the workers
//      forked afterwards parse on it.
//   4. Each worker's serialized result is stored in the cache by the
//      parent, only if it is clean: a crash or a parse error is never
//      cached.
// A crashing builder costs nothing but the sharing: its TUs parse their
// own includes, each in its own worker, as without sharing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Preamble.h"
#include "ResultCache.h"
#include "Runner.h"
#include "TuAnalysis.h"
#include "input/Config.h"
#include "input/ResultSerialization.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distlint {

class RunSpeedups {
public:
  RunSpeedups(const DriverOptions &Opts, std::string ProjectRoot);
  ~RunSpeedups(); ///< Removes a directory of this run's preambles.

  /// Opens the cache and its remote storage. False + a one-line Error.
  bool open(std::string &Error);
  /// --shard: keeps this shard's part of Jobs (balanced by cached costs).
  void selectShard(std::vector<CompileJob> &Jobs);
  /// From here on, Index arguments are indices into Jobs.
  void setJobs(const std::vector<CompileJob> &Jobs);

  /// The cached result of Jobs[Index], or nothing (a miss, no cache).
  std::optional<TranslationUnitResult> lookup(size_t Index,
                                              ConfigResolver &Configs);

  /// Decides which of the TUs to analyze (indices) share a preamble.
  /// Returns the TUs whose builder task builds one, one per preamble.
  std::vector<size_t> planPreambles(const std::vector<size_t> &ToAnalyze);
  /// After the builders: keeps the preambles that are on disk (mapped in
  /// this process for the workers) and drops the others from the plan.
  void afterBuilds();
  /// Does Jobs[Index] parse on a shared preamble?
  bool sharesPreamble(size_t Index) const;
  /// The preamble Jobs[Index] parses on (Store null: none).
  TuPreamble preambleFor(size_t Index);

  /// Where this project's summary index is kept (ProjectIndex.h); empty
  /// without a cache directory.
  std::string indexPath() const;

  /// Computes Jobs[Index]'s cache key again (its FactsDigest changed:
  /// the facts it was analyzed with are known after the analysis).
  void rekey(size_t Index, ConfigResolver &Configs);

  /// Stores Jobs[Index]'s worker result if it is clean.
  void store(size_t Index, const TranslationUnitResult &R);
  /// --verbose lines on sharing and the cache; cache eviction.
  void finish(const std::vector<TranslationUnitResult> &Results);

private:
  void log(const std::string &File, const std::string &Line) const;

  const DriverOptions &Opts;
  std::string ProjectRoot;
  const std::vector<CompileJob> *Jobs = nullptr;
  ContentHasher Hasher;
  std::string CacheDir;
  std::unique_ptr<ResultCache> Cache;
  std::string RunDir; ///< Preambles of this run only (no cache).
  std::unique_ptr<PreambleStore> Preambles;
  std::vector<PreambleShape> Shapes;
  std::vector<bool> Wants;
  std::vector<std::string> ManifestKeys;
};

} // namespace distlint
