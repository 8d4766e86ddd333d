//===- TraceReader.cpp - Load the per-rank trace files
//---------------------===//
#include "TraceReader.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

namespace distlint {
namespace rt {

const Record *RankTrace::bySlot(uint64_t Slot) const {
  auto It =
      std::lower_bound(Records.begin(), Records.end(), Slot,
                       [](const Record &R, uint64_t S) { return R.Slot < S; });
  return It != Records.end() && It->Slot == Slot ? &*It : nullptr;
}

namespace {

std::string boundedString(const char *Text, size_t Max) {
  return std::string(Text, strnlen(Text, Max));
}

Record copyRecord(const TraceRecord &R, uint64_t Slot) {
  Record Out;
  Out.Slot = Slot;
  Out.Seq = R.Seq;
  Out.CommId = R.CommId;
  Out.Count = R.Count;
  Out.StartNs = R.StartNs;
  Out.EndNs = R.EndNs.load(std::memory_order_relaxed);
  Out.Aux = R.Aux;
  Out.Kind = RecordKind(R.Kind);
  Out.ApiId = Api(R.ApiId);
  Out.Op = OpCode(R.Op);
  Out.DataType = R.DataType;
  Out.RedOp = R.RedOp;
  Out.Peer = R.Peer;
  Out.CommRank = R.CommRank;
  Out.CommSize = R.CommSize;
  Out.Group = R.Group;
  Out.State = uint32_t(R.State.load(std::memory_order_relaxed)) |
              uint32_t(R.Progress.load(std::memory_order_relaxed));
  Out.Result = R.Result;
  Out.Tid = R.Tid;
  Out.Tag = R.Tag;
  for (unsigned I = 0; I < kRecordFrames; ++I)
    Out.Frames[I] = R.Frames[I];
  return Out;
}

} // namespace

bool readTraceFile(const std::string &Path, RankTrace &Out,
                   std::string &Error) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0) {
    Error = Path + ": " + std::strerror(errno);
    return false;
  }
  struct stat St;
  if (fstat(Fd, &St) != 0 || size_t(St.st_size) < sizeof(TraceHeader)) {
    close(Fd);
    Error = Path + ": not a distlint-rt trace (too small)";
    return false;
  }
  size_t Bytes = size_t(St.st_size);
  void *Map = mmap(nullptr, Bytes, PROT_READ, MAP_SHARED, Fd, 0);
  close(Fd);
  if (Map == MAP_FAILED) {
    Error = Path + ": " + std::strerror(errno);
    return false;
  }
  const char *Base = static_cast<const char *>(Map);
  const auto &H = *reinterpret_cast<const TraceHeader *>(Base);
  auto Fail = [&](const std::string &Why) {
    munmap(Map, Bytes);
    Error = Path + ": " + Why;
    return false;
  };
  if (std::memcmp(H.Magic, kTraceMagic, sizeof(kTraceMagic)) != 0)
    return Fail("not a distlint-rt trace (bad magic)");
  if (H.Version != kTraceVersion || H.RecordBytes != sizeof(TraceRecord))
    return Fail("trace format version " + std::to_string(H.Version) +
                " is not the one this distlint-rt reads (" +
                std::to_string(kTraceVersion) + ")");
  TraceLayout L = traceLayout(H.Capacity, H.ModuleCapacity, H.SyncSiteCapacity);
  if (L.FileBytes > Bytes || L.RecordsOffset != H.RecordsOffset ||
      L.ModulesOffset != H.ModulesOffset ||
      L.SyncSitesOffset != H.SyncSitesOffset)
    return Fail("truncated or inconsistent trace file");

  Out = RankTrace();
  Out.Path = Path;
  Out.Rank = H.Rank.load();
  Out.WorldSize = H.WorldSize;
  Out.LocalRank = H.LocalRank;
  Out.Pid = H.Pid;
  Out.Host = boundedString(H.Host, sizeof(H.Host));
  Out.Program = boundedString(H.Program, sizeof(H.Program));
  Out.StartRealtimeNs = H.StartRealtimeNs;
  Out.StartMonotonicNs = H.StartMonotonicNs;
  Out.TimeoutNs = H.TimeoutNs;
  Out.RunId = H.RunId;
  Out.ForkParentPid = H.ForkParentPid;
  Out.HeartbeatNs = H.HeartbeatNs.load();
  Out.Flags = H.Flags.load();
  Out.HangCount = H.HangCount.load();
  Out.UntrackedOps = H.UntrackedOps.load();
  Out.Head = H.Head.load();
  Out.Capacity = H.Capacity;

  const auto *Modules =
      reinterpret_cast<const ModuleEntry *>(Base + H.ModulesOffset);
  uint32_t ModuleCount = std::min(H.ModuleCount.load(), H.ModuleCapacity);
  for (uint32_t I = 0; I < ModuleCount; ++I)
    Out.Modules.push_back(Modules[I].Ready.load()
                              ? boundedString(Modules[I].Path, kModulePathBytes)
                              : std::string());

  const auto *Sites =
      reinterpret_cast<const SyncSite *>(Base + H.SyncSitesOffset);
  for (uint32_t I = 0; I < H.SyncSiteCapacity; ++I) {
    uint64_t Key = Sites[I].Key.load();
    if (!Key)
      continue;
    Out.Syncs.push_back({syncSiteOp(Key), syncSiteFrame(Key),
                         Sites[I].Count.load(), Sites[I].TotalNs.load(),
                         Sites[I].MaxNs.load()});
  }

  const auto *Ring =
      reinterpret_cast<const TraceRecord *>(Base + H.RecordsOffset);
  for (uint32_t I = 0; I < H.Capacity; ++I) {
    uint64_t Commit = Ring[I].Commit.load(std::memory_order_acquire);
    if (Commit == 0 || (Commit - 1) % H.Capacity != I)
      continue; // Never written, or torn by a kill mid-write.
    Out.Records.push_back(copyRecord(Ring[I], Commit - 1));
  }
  std::sort(Out.Records.begin(), Out.Records.end(),
            [](const Record &A, const Record &B) { return A.Slot < B.Slot; });
  munmap(Map, Bytes);
  return true;
}

static std::string hexId(uint64_t Id) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%016llx", (unsigned long long)Id);
  return Buf;
}

bool selectRun(std::vector<RankTrace> &Traces, uint64_t WantRunId,
               std::vector<std::string> &Notes, std::string &Error) {
  if (Traces.empty())
    return true;
  bool Wanted = WantRunId && std::any_of(Traces.begin(), Traces.end(),
                                         [&](const RankTrace &T) {
                                           return T.RunId == WantRunId;
                                         });
  uint64_t Run = WantRunId;
  if (!Wanted) {
    const RankTrace *Newest = &Traces.front();
    for (const RankTrace &T : Traces)
      if (T.StartRealtimeNs > Newest->StartRealtimeNs)
        Newest = &T;
    Run = Newest->RunId;
  }
  std::vector<RankTrace> Kept;
  std::set<uint64_t> OtherRuns;
  size_t Others = 0;
  for (RankTrace &T : Traces) {
    if (T.RunId == Run) {
      Kept.push_back(std::move(T));
    } else {
      ++Others;
      OtherRuns.insert(T.RunId);
    }
  }
  Traces = std::move(Kept);
  if (Others)
    Notes.push_back("ignored " + std::to_string(Others) + " trace file(s) of " +
                    std::to_string(OtherRuns.size()) +
                    " other run(s) in the directory " + "(this report: run " +
                    hexId(Run) + ")");
  std::map<int, const RankTrace *> ByRank;
  for (const RankTrace &T : Traces) {
    if (T.Rank < 0 || T.ForkParentPid != 0)
      continue; // Unknown ranks and forked children claim nothing.
    auto [It, Fresh] = ByRank.emplace(T.Rank, &T);
    if (!Fresh) {
      Error = "two traces claim rank " + std::to_string(T.Rank) + " of run " +
              hexId(Run) + ": " + It->second->Path + " (pid " +
              std::to_string(It->second->Pid) + ") and " + T.Path + " (pid " +
              std::to_string(T.Pid) +
              "); were the ranks started as separate singleton jobs?";
      return false;
    }
  }
  return true;
}

bool peekTraceHeader(const std::string &Path, TraceHeaderPeek &Out) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  alignas(TraceHeader) char Buf[sizeof(TraceHeader)];
  ssize_t N = pread(Fd, Buf, sizeof(Buf), 0);
  close(Fd);
  if (N != ssize_t(sizeof(Buf)))
    return false;
  const auto &H = *reinterpret_cast<const TraceHeader *>(Buf);
  if (std::memcmp(H.Magic, kTraceMagic, sizeof(kTraceMagic)) != 0)
    return false;
  Out.Rank = H.Rank.load();
  Out.Pid = H.Pid;
  Out.HangCount = H.HangCount.load();
  Out.Flags = H.Flags.load();
  Out.Head = H.Head.load();
  Out.RunId = H.RunId;
  Out.MismatchCount = H.MismatchCount.load();
  return true;
}

std::vector<RankTrace> readTraceDir(const std::string &Dir,
                                    std::vector<std::string> &Errors) {
  std::vector<RankTrace> Traces;
  DIR *D = opendir(Dir.c_str());
  if (!D) {
    Errors.push_back(Dir + ": " + std::strerror(errno));
    return Traces;
  }
  std::vector<std::string> Names;
  while (dirent *E = readdir(D)) {
    std::string Name = E->d_name;
    if (Name.rfind("distlint-rt.", 0) == 0 && Name.size() > 6 &&
        Name.compare(Name.size() - 6, 6, ".trace") == 0)
      Names.push_back(Name);
  }
  closedir(D);
  std::sort(Names.begin(), Names.end());
  for (const std::string &Name : Names) {
    RankTrace T;
    std::string Error;
    if (readTraceFile(Dir + "/" + Name, T, Error))
      Traces.push_back(std::move(T));
    else
      Errors.push_back(Error);
  }
  std::stable_sort(Traces.begin(), Traces.end(),
                   [](const RankTrace &A, const RankTrace &B) {
                     return A.Rank != B.Rank ? A.Rank < B.Rank : A.Pid < B.Pid;
                   });
  return Traces;
}

} // namespace rt
} // namespace distlint
