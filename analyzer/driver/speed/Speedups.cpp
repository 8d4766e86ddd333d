//===- Speedups.cpp - Cache, shards and shared preambles of one run -------===//
#include "Speedups.h"
#include "ProjectIndex.h"
#include "RemoteStorage.h"
#include "Rule.h"
#include "Shard.h"
#include "input/Paths.h"
#include "report/Suppressions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <unistd.h>

namespace distlint {

namespace {
/// Everything the config and the command line decide about a TU's result:
/// every rule's state and severity, the user API lists, the header filters
/// and the fix-it options.
std::string configDigest(const DistlintConfig &Config,
                         const DriverOptions &Opts) {
  KeyBuilder K;
  K.add("config-v3");
  auto Sev = [&](llvm::StringRef Rule, Severity Default = Severity::Warning) {
    return severityName(
        Config.severityOf(Rule, Default, Opts.WarningsAsErrors));
  };
  for (const RuleInfo &R : allRules()) {
    K.add(R.Id);
    // Both ratings: a configured severity also raises the rule's notes.
    bool On = Config.ruleEnabled(R.Id, Opts.RuleGlobs);
    K.add(On ? Sev(R.Id) : "off");
    K.add(On ? Sev(R.Id, Severity::Note) : "off");
  }
  K.add(Sev(NoLintErrorRule));
  for (const auto *List :
       {&Config.User.RankSources, &Config.User.CollectiveWrappers,
        &Config.User.WorldSizeSources}) {
    K.add(std::to_string(List->size()));
    for (const std::string &Name : *List)
      K.add(Name);
  }
  auto Regex = [&](const std::optional<std::string> &Cli,
                   const std::optional<std::string> &Cfg) {
    const std::optional<std::string> &Re = Cli ? Cli : Cfg;
    K.add(Re ? "=" + *Re : "unset");
  };
  Regex(Opts.HeaderFilter, Config.HeaderFilterRegex);
  Regex(Opts.ExcludeHeaderFilter, Config.ExcludeHeaderFilterRegex);
  K.add(Config.ReportErrorPathDivergence.value_or(false) ? "error-paths"
                                                         : "no-error-paths");
  K.add(Config.Fixes.MissingTimeoutDefault);
  K.add(std::to_string(Config.Fixes.StepSyncInterval));
  return K.hex();
}

std::string text(const CompileJob &Job, const DriverOptions &Opts) {
  auto It = Opts.Overlays.find(Job.File);
  if (It != Opts.Overlays.end())
    return It->second;
  if (auto Buffer = llvm::MemoryBuffer::getFile(Job.File))
    return (*Buffer)->getBuffer().str();
  return "";
}

std::string seconds(double S) { return llvm::formatv("{0:f1}", S).str(); }
} // namespace

RunSpeedups::RunSpeedups(const DriverOptions &Opts, std::string ProjectRoot)
    : Opts(Opts), ProjectRoot(std::move(ProjectRoot)), Hasher(&Opts.Overlays) {}

RunSpeedups::~RunSpeedups() {
  Preambles.reset();
  if (!RunDir.empty())
    llvm::sys::fs::remove_directories(RunDir);
}

void RunSpeedups::log(const std::string &File, const std::string &Line) const {
  if (Opts.Verbose)
    Opts.Verbose(File, Line);
}

bool RunSpeedups::open(std::string &Error) {
  CacheDir =
      Opts.CacheDir.empty() ? defaultCacheDir() : normalizePath(Opts.CacheDir);
  if (!Opts.UseCache || CacheDir.empty())
    return true;
  std::unique_ptr<RemoteStorage> Remote;
  if (!Opts.RemoteStorage.empty()) {
    Remote = openRemoteStorage(Opts.RemoteStorage, Error);
    if (!Remote)
      return false;
  }
  Cache = std::make_unique<ResultCache>(CacheDir, Opts.CacheMaxBytes,
                                        ProjectRoot, std::move(Remote), Hasher);
  return true;
}

void RunSpeedups::selectShard(std::vector<CompileJob> &All) {
  if (Opts.ShardCount == 0)
    return;
  std::vector<std::string> Names;
  for (const CompileJob &J : All)
    Names.push_back(J.File);
  std::vector<CompileJob> Mine;
  for (size_t I : distlint::selectShard(Names, Opts.ShardIndex, Opts.ShardCount,
                                        [&](const std::string &File) {
                                          return Cache ? Cache->lastCost(File)
                                                       : std::nullopt;
                                        }))
    Mine.push_back(std::move(All[I]));
  All = std::move(Mine);
}

void RunSpeedups::setJobs(const std::vector<CompileJob> &J) {
  Jobs = &J;
  Shapes.assign(J.size(), PreambleShape());
  Wants.assign(J.size(), false);
  ManifestKeys.assign(J.size(), "");
}

std::string RunSpeedups::indexPath() const {
  return Cache ? ProjectIndex::pathFor(CacheDir, ProjectRoot) : std::string();
}

void RunSpeedups::rekey(size_t Index, ConfigResolver &Configs) {
  if (!Cache)
    return;
  const CompileJob &Job = (*Jobs)[Index];
  DistlintConfig Config;
  std::string ConfigError;
  if (!Configs.configFor(Job.File, Config, ConfigError)) {
    ManifestKeys[Index].clear(); // the worker reports it
    return;
  }
  // The facts of other TUs' functions decide findings like the config.
  ManifestKeys[Index] =
      Cache->manifestKey(Job.File, Job.Directory, effectiveFlags(Job),
                         configDigest(Config, Opts) + Job.FactsDigest);
}

std::optional<TranslationUnitResult>
RunSpeedups::lookup(size_t Index, ConfigResolver &Configs) {
  if (!Cache)
    return std::nullopt;
  rekey(Index, Configs);
  if (ManifestKeys[Index].empty())
    return std::nullopt;
  TranslationUnitResult R;
  if (!Cache->lookup(ManifestKeys[Index], R))
    return std::nullopt;
  log((*Jobs)[Index].File, "cache hit: findings replayed without parsing");
  return R;
}

std::vector<size_t>
RunSpeedups::planPreambles(const std::vector<size_t> &ToAnalyze) {
  if (Opts.Preambles == DriverOptions::PreambleSharing::Off ||
      ToAnalyze.empty())
    return {};
  if (!Preambles) {
    std::string Dir = Cache ? CacheDir : "";
    if (Dir.empty()) {
      llvm::SmallString<256> Made;
      if (llvm::sys::fs::createUniqueDirectory("distlint-preambles", Made))
        return {};
      RunDir = Dir = std::string(Made);
    }
    std::string RunId =
        std::to_string(getpid()) + "-" +
        std::to_string(
            std::chrono::steady_clock::now().time_since_epoch().count());
    Preambles = std::make_unique<PreambleStore>(Dir, RunId, Hasher);
  }
  for (size_t I : ToAnalyze)
    Shapes[I] = computePreambleShape(text((*Jobs)[I], Opts), (*Jobs)[I]);

  // Each TU takes the prefix of its preamble that the most TUs of this run
  // have in common (ties: the longest), or the longest one the directory
  // holds; a prefix nobody else takes is not worth building (unless
  // Always).
  std::map<std::string, unsigned> Count;
  for (size_t I : ToAnalyze)
    if (Shapes[I].Shareable)
      for (const PreambleShape::Prefix &P : Shapes[I].Prefixes)
        ++Count[P.Key];
  std::map<std::string, unsigned> Users;
  for (size_t I : ToAnalyze) {
    PreambleShape &S = Shapes[I];
    if (!S.Shareable)
      continue;
    size_t Best = S.Prefixes.size() - 1;
    for (size_t P = 0; P < S.Prefixes.size(); ++P)
      if (Count[S.Prefixes[P].Key] >= Count[S.Prefixes[Best].Key])
        Best = P;
    if (Count[S.Prefixes[Best].Key] < 2)
      for (size_t P = S.Prefixes.size(); P-- > 0;)
        if (Preambles->onDisk(S.Prefixes[P].Key)) {
          Best = P;
          break;
        }
    S.choose(Best);
    ++Users[S.Key];
  }
  bool Always = Opts.Preambles == DriverOptions::PreambleSharing::Always;
  std::set<std::string> Building;
  std::vector<size_t> Builders;
  for (size_t I : ToAnalyze) {
    const PreambleShape &S = Shapes[I];
    Wants[I] = S.Shareable &&
               (Users[S.Key] >= 2 || Always || Preambles->onDisk(S.Key));
    // One builder per preamble not yet (validly) on disk.
    if (Wants[I] && !Building.count(S.Key) && !Preambles->preload(S.Key)) {
      Building.insert(S.Key);
      Builders.push_back(I);
    }
  }
  return Builders;
}

void RunSpeedups::afterBuilds() {
  if (!Preambles)
    return;
  for (size_t I = 0; I < Wants.size(); ++I)
    if (Wants[I] && !Preambles->preload(Shapes[I].Key))
      Wants[I] = false;
}

bool RunSpeedups::sharesPreamble(size_t Index) const { return Wants[Index]; }

TuPreamble RunSpeedups::preambleFor(size_t Index) {
  if (!Wants[Index])
    return {};
  return {&Shapes[Index], Preambles.get()};
}

void RunSpeedups::store(size_t Index, const TranslationUnitResult &R) {
  if (Cache && !ManifestKeys[Index].empty())
    Cache->store(ManifestKeys[Index], (*Jobs)[Index].File, R);
}

void RunSpeedups::finish(const std::vector<TranslationUnitResult> &Results) {
  if (Preambles && Opts.Verbose) {
    std::map<std::string, std::vector<std::string>> UsersOf;
    std::set<std::string> Wanted;
    for (size_t I = 0; I < Wants.size(); ++I) {
      if (Shapes[I].Shareable && !Shapes[I].Key.empty() &&
          (Wants[I] || Preambles->onDisk(Shapes[I].Key) ||
           Opts.Preambles == DriverOptions::PreambleSharing::Always))
        Wanted.insert(Shapes[I].Key);
      if (Wants[I] && Results[I].UsedPreamble)
        UsersOf[Shapes[I].Key].push_back((*Jobs)[I].File);
    }
    for (const std::shared_ptr<SharedPreamble> &P : Preambles->all()) {
      if (!Wanted.count(P->Key))
        continue;
      std::string Id = P->Key.substr(0, 12);
      if (!P->Pch) {
        log("", "preamble " + Id +
                    ": could not be built; its TUs parsed their includes");
        continue;
      }
      std::vector<std::string> &Users = UsersOf[P->Key];
      std::sort(Users.begin(), Users.end());
      std::string Line =
          "preamble " + Id + " (" + std::to_string(P->Dependencies.size()) +
          " files, " + std::to_string(P->Pch->getBufferSize() >> 20) +
          " MiB) " +
          (P->FromEarlierRun ? std::string("kept from an earlier run")
                             : "built from " + P->BuiltFrom + " in " +
                                   seconds(P->BuildSeconds) + " s") +
          ", used by " + std::to_string(Users.size()) + " TU(s)";
      if (Users.size() > 1 || (P->FromEarlierRun && !Users.empty()))
        Line += "; saved about " +
                seconds(P->BuildSeconds *
                        (Users.size() - (P->FromEarlierRun ? 0 : 1))) +
                " s of parsing";
      log("", Line);
      for (const std::string &U : Users)
        log(U, "shares preamble " + Id);
    }
  }
  if (Cache) {
    log("", "result cache " + CacheDir + ": " +
                std::to_string(Cache->Stats.LocalHits) + " local hit(s), " +
                std::to_string(Cache->Stats.RemoteHits) + " remote hit(s), " +
                std::to_string(Cache->Stats.Misses) + " miss(es), " +
                std::to_string(Cache->Stats.Stores) + " stored" +
                (Opts.RemoteStorage.empty()
                     ? std::string()
                     : ", " + std::to_string(Cache->Stats.RemoteStores) +
                           " uploaded"));
    Cache->evict();
  }
}

} // namespace distlint
