//===- LiveSources.cpp - The traces the live comparison follows -----------===//
#include "LiveSources.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace distlint {
namespace rt {
namespace live {

bool copyRecord(const TraceRecord &R, uint64_t Slot, Snapshot &Out,
                uint32_t &Kind) {
  if (R.Commit.load(std::memory_order_acquire) != Slot + 1)
    return false;
  Out.Slot = Slot;
  Out.Seq = R.Seq;
  Out.CommId = R.CommId;
  Out.Count = R.Count;
  Out.StartNs = R.StartNs;
  Out.Aux = R.Aux;
  Out.Op = R.Op;
  Out.ApiId = R.ApiId;
  Out.DataType = R.DataType;
  Out.RedOp = R.RedOp;
  Out.Peer = R.Peer;
  Out.CommRank = R.CommRank;
  Out.CommSize = R.CommSize;
  Out.Tid = R.Tid;
  Out.Frame = R.Frames[0];
  Kind = R.Kind;
  std::atomic_thread_fence(std::memory_order_acquire);
  return R.Commit.load(std::memory_order_relaxed) == Slot + 1;
}

namespace {

/// Maps a trace of another rank of this run, or returns null.
std::unique_ptr<Source> mapPeer(const std::string &Path, uint64_t RunId,
                                int OwnPid) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (Fd < 0)
    return nullptr;
  struct stat St;
  TraceHeader Peek;
  bool Ok =
      fstat(Fd, &St) == 0 && size_t(St.st_size) >= sizeof(TraceHeader) &&
      pread(Fd, &Peek, sizeof(Peek), 0) == ssize_t(sizeof(Peek)) &&
      std::memcmp(Peek.Magic, kTraceMagic, sizeof(kTraceMagic)) == 0 &&
      Peek.Version == kTraceVersion &&
      Peek.RecordBytes == sizeof(TraceRecord) && Peek.RunId == RunId &&
      Peek.Pid != OwnPid && Peek.ForkParentPid == 0 &&
      Peek.FileBytes <= uint64_t(St.st_size) &&
      Peek.RecordsOffset + uint64_t(Peek.Capacity) * sizeof(TraceRecord) <=
          Peek.FileBytes &&
      Peek.Capacity && (Peek.Capacity & (Peek.Capacity - 1)) == 0;
  if (!Ok) {
    close(Fd);
    return nullptr;
  }
  void *Map = mmap(nullptr, Peek.FileBytes, PROT_READ, MAP_SHARED, Fd, 0);
  close(Fd);
  if (Map == MAP_FAILED)
    return nullptr;
  auto S = std::make_unique<Source>();
  S->Pid = Peek.Pid;
  S->Map = Map;
  S->Bytes = Peek.FileBytes;
  S->Header = static_cast<const TraceHeader *>(Map);
  S->Ring = reinterpret_cast<const TraceRecord *>(
      static_cast<const char *>(Map) + Peek.RecordsOffset);
  S->Mask = Peek.Capacity - 1;
  return S;
}

/// Which other ranks this one follows: all of them in small jobs, else its
/// neighbours by global rank.
bool wanted(int OwnRank, int PeerRank, int WorldSize) {
  if (WorldSize <= int(kLiveAllPairsLimit) || OwnRank < 0 || PeerRank < 0)
    return true;
  return PeerRank == (OwnRank + 1) % WorldSize ||
         PeerRank == (OwnRank + WorldSize - 1) % WorldSize;
}

} // namespace

void scanDirectory(const std::string &Dir, Sources &Followed,
                   TraceWriter &Own) {
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return;
  const TraceHeader &OwnH = Own.header();
  int OwnRank = OwnH.Rank.load(std::memory_order_relaxed);
  while (dirent *E = readdir(D)) {
    const char *Name = E->d_name;
    size_t Len = std::strlen(Name);
    if (std::strncmp(Name, "distlint-rt.", 12) != 0 || Len < 7 ||
        std::strcmp(Name + Len - 6, ".trace") != 0)
      continue;
    // The pid is the last dotted part before ".trace".
    const char *End = Name + Len - 6, *Dot = End;
    while (Dot > Name && Dot[-1] != '.')
      --Dot;
    int Pid = std::atoi(Dot);
    bool Known = Pid == OwnH.Pid;
    for (const auto &Src : Followed)
      Known |= Src->Pid == Pid;
    if (Known)
      continue;
    auto Peer = mapPeer(Dir + "/" + Name, OwnH.RunId, OwnH.Pid);
    if (!Peer)
      continue;
    if (!wanted(OwnRank, Peer->rank(), OwnH.WorldSize)) {
      munmap(Peer->Map, Peer->Bytes);
      continue;
    }
    Followed.push_back(std::move(Peer));
  }
  closedir(D);
}

} // namespace live
} // namespace rt
} // namespace distlint
