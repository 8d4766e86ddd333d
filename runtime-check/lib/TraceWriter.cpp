//===- TraceWriter.cpp - Append records to this rank's trace file
//----------===//
//
// The file is created once (first intercepted call or communicator set-up),
// fully allocated so later stores cannot fault on a full disk, and written
// only through the mapping: the collective's path does no file I/O, and what
// was written survives the process being killed.
//
//===----------------------------------------------------------------------===//
#include "TraceWriter.h"
#include "Support.h"

#include <fcntl.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace distlint {
namespace rt {

namespace {

constexpr uint32_t kModuleCapacity = 4095;
constexpr uint32_t kSyncSiteCapacity = 1024; // A power of two.
/// The part of the ring faulted in at creation (the default ring is 8 MiB).
constexpr uint64_t kPrefaultBytes = 64ull << 20;

/// mkdir -p; new directories are private to the user.
bool makeDirs(const std::string &Dir) {
  std::string Partial;
  size_t Pos = 0;
  while (Pos != std::string::npos) {
    Pos = Dir.find('/', Pos + 1);
    Partial = Dir.substr(0, Pos);
    if (Partial.empty())
      continue;
    if (mkdir(Partial.c_str(), 0700) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

std::string fileName(const std::string &Dir, const std::string &Host,
                     int Rank) {
  char Buf[128];
  if (Rank >= 0)
    std::snprintf(Buf, sizeof(Buf), "rank%d", Rank);
  else
    std::snprintf(Buf, sizeof(Buf), "rank-unknown");
  return Dir + "/distlint-rt." + Host + "." + Buf + "." +
         std::to_string(getpid()) + ".trace";
}

std::string programName() {
  char Buf[256] = {0};
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N > 0)
    Buf[N] = 0;
  return Buf;
}

} // namespace

TraceWriter *TraceWriter::create(const TraceOptions &Options,
                                 std::string &Error) {
  if (!makeDirs(Options.Dir)) {
    Error = "cannot create trace directory " + Options.Dir + ": " +
            std::strerror(errno);
    return nullptr;
  }
  char HostBuf[64] = {0};
  gethostname(HostBuf, sizeof(HostBuf) - 1);
  std::string Host = HostBuf[0] ? HostBuf : "host";
  for (char &C : Host)
    if (C == '/' || C == '.')
      C = '_';
  std::string Path = fileName(Options.Dir, Host, Options.Rank);
  // A power of two, so finding a slot is a mask, not a division.
  uint32_t Records = 64;
  while (Records < Options.Records && Records < (1u << 30))
    Records <<= 1;
  TraceLayout Layout = traceLayout(Records, kModuleCapacity, kSyncSiteCapacity);

  int Fd = open(Path.c_str(),
                O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (Fd < 0 && errno == EEXIST) { // A recycled pid from an earlier run.
    unlink(Path.c_str());
    Fd = open(Path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
              0600);
  }
  if (Fd < 0) {
    Error = "cannot create " + Path + ": " + std::strerror(errno);
    return nullptr;
  }
  int Err = posix_fallocate(Fd, 0, off_t(Layout.FileBytes));
  if (Err != 0 && ftruncate(Fd, off_t(Layout.FileBytes)) != 0) {
    Error = "cannot size " + Path + ": " + std::strerror(Err);
    close(Fd);
    unlink(Path.c_str());
    return nullptr;
  }
  void *Map = mmap(nullptr, Layout.FileBytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED, Fd, 0);
  close(Fd);
  if (Map == MAP_FAILED) {
    Error = "cannot map " + Path + ": " + std::strerror(errno);
    unlink(Path.c_str());
    return nullptr;
  }
  auto *W = new TraceWriter();
  W->Dir = Options.Dir;
  W->Path = Path;
  W->Host = Host;
  W->Capacity = Records;
  W->Mask = Records - 1;
  char *Base = static_cast<char *>(Map);
  W->Header = reinterpret_cast<TraceHeader *>(Base);
  W->Modules = reinterpret_cast<ModuleEntry *>(Base + Layout.ModulesOffset);
  W->SyncSites = reinterpret_cast<SyncSite *>(Base + Layout.SyncSitesOffset);
  W->Records = reinterpret_cast<TraceRecord *>(Base + Layout.RecordsOffset);

  // The first store to each page of a shared file mapping faults (tens of
  // microseconds in a virtual machine): take those faults now rather than
  // on every 32nd call of the ring's first lap. The ring is all zeros, so
  // storing zero changes nothing a reader could see.
  uint64_t Touch = std::min<uint64_t>(Layout.FileBytes - Layout.RecordsOffset,
                                      kPrefaultBytes);
  for (uint64_t Offset = 0; Offset < Touch; Offset += 4096)
    *reinterpret_cast<volatile uint64_t *>(Base + Layout.RecordsOffset +
                                           Offset) = 0;

  TraceHeader &H = *W->Header;
  H.Version = kTraceVersion;
  H.HeaderBytes = sizeof(TraceHeader);
  H.RecordBytes = sizeof(TraceRecord);
  H.Capacity = Records;
  H.ModuleCapacity = kModuleCapacity;
  H.SyncSiteCapacity = kSyncSiteCapacity;
  H.ModulesOffset = Layout.ModulesOffset;
  H.SyncSitesOffset = Layout.SyncSitesOffset;
  H.RecordsOffset = Layout.RecordsOffset;
  H.FileBytes = Layout.FileBytes;
  H.Rank.store(Options.Rank);
  H.WorldSize = Options.WorldSize;
  H.LocalRank = Options.LocalRank;
  H.Pid = int32_t(getpid());
  H.StartRealtimeNs = realtimeNs();
  H.StartMonotonicNs = monotonicNs();
  H.TimeoutNs = Options.TimeoutNs;
  H.RunId = Options.RunId;
  H.ForkParentPid = Options.ForkParentPid;
  std::snprintf(H.Host, sizeof(H.Host), "%s", HostBuf);
  std::snprintf(H.Program, sizeof(H.Program), "%s", programName().c_str());
  // The magic goes last: a reader never sees a half-initialized header.
  std::atomic_thread_fence(std::memory_order_release);
  std::memcpy(H.Magic, kTraceMagic, sizeof(kTraceMagic));
  // A thread may own the head only if shareHead() can take it back.
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0,
              0) == 0)
    W->HeadOwner.store(nullptr);
  return W;
}

TraceRecord *TraceWriter::claimShared(uint64_t &Slot) {
  const void *Owner = HeadOwner.load(std::memory_order_acquire);
  if (Owner == nullptr &&
      HeadOwner.compare_exchange_strong(Owner, threadToken()))
    return claim(Slot); // The first claim: this thread owns the head now.
  if (Owner != kHeadShared)
    shareHead();
  Slot = Header->Head.fetch_add(1, std::memory_order_relaxed);
  return slotRecord(Slot);
}

// The asymmetric fence of userspace RCU: the owner announces (OwnerBusy),
// then looks at HeadOwner; here we change HeadOwner, then membarrier() runs
// a full fence on every thread of the process. After it, either the owner's
// announcement is visible, so we wait for its increment to end, or its look
// comes after our change, so it does not increment.
void TraceWriter::shareHead() {
  std::lock_guard<std::mutex> Lock(ShareMu);
  if (HeadOwner.load(std::memory_order_acquire) == kHeadShared)
    return;
  HeadOwner.store(kHeadSharing, std::memory_order_seq_cst);
  // Registered in create(), so it does not fail; were it to, the wait below
  // still covers an owner whose announcement is already visible.
  syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
  while (OwnerBusy.load(std::memory_order_acquire))
    sched_yield();
  HeadOwner.store(kHeadShared, std::memory_order_release);
}

void TraceWriter::countSync(OpCode Op, PackedFrame Site, uint64_t DurationNs) {
  uint64_t Key = syncSiteKey(Op, Site);
  if (Key == 0)
    return;
  const uint32_t Mask = kSyncSiteCapacity - 1;
  uint32_t Start = uint32_t((Key * 0x9E3779B97F4A7C15ull) >> 40) & Mask;
  for (uint32_t Probe = 0; Probe < 64; ++Probe) {
    SyncSite &S = SyncSites[(Start + Probe) & Mask];
    uint64_t Current = S.Key.load(std::memory_order_acquire);
    if (Current == 0) {
      if (!S.Key.compare_exchange_strong(Current, Key) && Current != Key)
        continue;
    } else if (Current != Key) {
      continue;
    }
    S.Count.fetch_add(1, std::memory_order_relaxed);
    S.TotalNs.fetch_add(DurationNs, std::memory_order_relaxed);
    uint64_t Max = S.MaxNs.load(std::memory_order_relaxed);
    while (DurationNs > Max &&
           !S.MaxNs.compare_exchange_weak(Max, DurationNs,
                                          std::memory_order_relaxed)) {
    }
    return;
  }
}

void TraceWriter::writeModule(uint32_t Index, const char *Path) {
  if (Index >= Header->ModuleCapacity)
    return;
  ModuleEntry &M = Modules[Index];
  if (M.Ready.load(std::memory_order_acquire))
    return;
  std::snprintf(M.Path, sizeof(M.Path), "%s", Path);
  M.Ready.store(1, std::memory_order_release);
  uint32_t Count = Header->ModuleCount.load();
  while (Count < Index + 1 &&
         !Header->ModuleCount.compare_exchange_weak(Count, Index + 1)) {
  }
}

void TraceWriter::setRank(int Rank, int WorldSize) {
  int Old = Header->Rank.exchange(Rank);
  if (WorldSize > 0)
    Header->WorldSize = WorldSize;
  if (Old == Rank)
    return;
  std::string NewPath = fileName(Dir, Host, Rank);
  if (rename(Path.c_str(), NewPath.c_str()) == 0)
    Path = NewPath;
}

} // namespace rt
} // namespace distlint
