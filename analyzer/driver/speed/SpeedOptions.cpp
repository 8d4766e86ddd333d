//===- SpeedOptions.cpp ---------------------------------------------------===//
#include "SpeedOptions.h"
#include "ResultCache.h"
#include "Shard.h"
#include "input/Config.h"

using namespace llvm;

namespace distlint {

cl::OptionCategory &cliCategory() {
  static cl::OptionCategory Category("distlint options");
  return Category;
}

namespace {
cl::opt<bool> NoPreambleSharing(
    "no-preamble-sharing",
    cl::desc("Parse every TU's includes itself instead of sharing one "
             "precompiled preamble between TUs that start alike"),
    cl::cat(cliCategory()));
cl::opt<bool> AlwaysSharePreamble(
    "always-build-preamble", cl::Hidden,
    cl::desc("Build a precompiled preamble even for a single TU (tests)"),
    cl::cat(cliCategory()));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Result cache directory (default $XDG_CACHE_HOME/distlint)"),
    cl::value_desc("dir"), cl::cat(cliCategory()));
cl::opt<bool> NoCache("no-cache",
                      cl::desc("Neither read nor write the result cache"),
                      cl::cat(cliCategory()));
cl::opt<bool> NoProjectIndex(
    "no-project-index",
    cl::desc("Analyze each TU alone: calls of functions defined in other "
             "files stay unknown (no summaries across files are used or "
             "kept)"),
    cl::cat(cliCategory()));
cl::opt<std::string>
    CacheSize("cache-size",
              cl::desc("Size limit of the cache directory (default 5G); least "
                       "recently used entries are evicted"),
              cl::value_desc("N[K|M|G]"), cl::cat(cliCategory()));
cl::opt<std::string> RemoteStorageUrl(
    "remote-storage",
    cl::desc("Shared result cache, ccache's URL forms: http://host[:port]/path "
             "or redis://host[:port], optionally followed by |read-only"),
    cl::value_desc("url"), cl::cat(cliCategory()));
cl::opt<std::string> TuMemoryLimit(
    "tu-memory-limit",
    cl::desc("Address space one translation unit's analysis may use (default "
             "half the physical memory, or TuMemoryLimit in .distlint.yaml; "
             "0: no limit); a TU that needs more fails with a one-line error"),
    cl::value_desc("N[K|M|G]"), cl::cat(cliCategory()));
cl::opt<std::string> Shard(
    "shard",
    cl::desc("Analyze only part K of N of the TUs (CI matrices; combine the "
             "reports with `distlint merge`)"),
    cl::value_desc("K/N"), cl::cat(cliCategory()));
} // namespace

bool applySpeedOptions(DriverOptions &Opts, std::string &Error) {
  Opts.Preambles = NoPreambleSharing ? DriverOptions::PreambleSharing::Off
                   : AlwaysSharePreamble
                       ? DriverOptions::PreambleSharing::Always
                       : DriverOptions::PreambleSharing::Auto;
  Opts.CacheDir = CacheDir;
  Opts.UseCache = !NoCache;
  Opts.UseProjectIndex = !NoProjectIndex;
  if (!CacheSize.empty() && !parseByteSize(CacheSize, Opts.CacheMaxBytes)) {
    Error =
        "--cache-size expects a size like 500M or 5G, not '" + CacheSize + "'";
    return false;
  }
  if (!TuMemoryLimit.empty()) {
    uint64_t Bytes = 0;
    if (!parseByteSize(TuMemoryLimit, Bytes)) {
      Error = "--tu-memory-limit expects a size like 800M or 8G (0: no "
              "limit), not '" + TuMemoryLimit + "'";
      return false;
    }
    Opts.TuMemoryLimit = Bytes;
  }
  Opts.RemoteStorage = RemoteStorageUrl;
  return Shard.empty() ||
         parseShard(Shard, Opts.ShardIndex, Opts.ShardCount, Error);
}

} // namespace distlint
