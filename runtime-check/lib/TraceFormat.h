//===- TraceFormat.h - The per-rank trace file ------------------*- C++ -*-===//
//
// One file per rank, memory-mapped by the preload library and read by
// distlint-rt. Writers append fixed-size records to a ring without locks; a
// record is valid once its Commit field equals its slot number + 1, so a
// reader of a killed process's file can tell finished records from torn ones.
//
// Layout: TraceHeader | module table | sync-site table | record ring.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace distlint {
namespace rt {

/// C10d: LibTorch process groups (ProcessGroupGloo, ProcessGroupNCCL).
enum class Api : uint16_t { None = 0, Nccl = 1, Mpi = 2, Cuda = 3, C10d = 4 };
constexpr unsigned kNumApis = 5;

enum class OpCategory : uint8_t {
  Collective,
  Send,
  Recv,
  SendRecv,
  CommCreate,
  CommEnd,
  Wait,
  DeviceSync,
  Lifecycle
};

enum class OpCode : uint16_t {
  None = 0,
#define OP(Enum, Name, ApiId, Category) Enum,
#include "OpTable.def"
  NumOps
};

struct OpInfo {
  const char *Name;
  Api ApiId;
  OpCategory Category;
};

/// Indexed by OpCode. In the header so that a hook's lookup of its own
/// (constant) code folds away.
inline constexpr OpInfo OpTable[] = {
    {"<none>", Api::None, OpCategory::Lifecycle},
#define OP(Enum, Name, ApiId, Category)                                        \
  {Name, Api::ApiId, OpCategory::Category},
#include "OpTable.def"
};
static_assert(sizeof(OpTable) / sizeof(OpTable[0]) == size_t(OpCode::NumOps),
              "one OpTable entry per OpCode");

/// Name, API and category of Code; a neutral entry for unknown codes.
constexpr const OpInfo &opInfo(OpCode Code) {
  auto Index = static_cast<unsigned>(Code);
  return OpTable[Index < static_cast<unsigned>(OpCode::NumOps) ? Index : 0];
}
/// Collectives whose root is part of the fingerprint (Peer holds it).
bool opIsRooted(OpCode Code);
constexpr const OpInfo &opInfo(uint16_t Code) { return opInfo(OpCode(Code)); }

enum class RecordKind : uint32_t {
  Op = 1,            ///< A call to an intercepted operation.
  CommCreate = 2,    ///< A communicator this rank joined (Aux: parent id).
  Hang = 3,          ///< The watchdog saw record Aux pending past the timeout.
  WatchdogAbort = 4, ///< The watchdog aborted the communicator.
  ProcessExit = 5,   ///< The process called exit() normally.
  AsyncError = 6,    ///< ncclCommGetAsyncError reported an error (Result).
  /// The watchdog saw, while the job ran, that another rank (Peer: its
  /// global rank; Aux: its record's slot in its own trace, Tag: the
  /// MismatchKind) disagrees with this rank's collective Seq on CommId
  /// (Count .. Frames: this rank's side, or the peer's when this rank never
  /// issued it).
  LiveMismatch = 7,
  /// The Python startup hook saw a defect (Tag: PythonCheckKind) at
  /// Frames[0], in the call Op; Count: the epoch (SamplerEpochRepeated) or
  /// the default timeout in seconds (NoTimeout); DataType: the backend
  /// (PythonBackendNames index, -1 unknown); Peer: torch's version, major *
  /// 100 + minor.
  PythonCheck = 8,
};

enum class PythonCheckKind : int32_t {
  SamplerEpochRepeated = 1, ///< Iterated twice with the same epoch.
  NoTimeout = 2, ///< A process group created without an explicit timeout.
};
/// Backend codes of PythonCheck records.
constexpr const char *PythonBackendNames[] = {"gloo", "nccl", "mpi", "ucc"};

/// Why the live comparison reported a LiveMismatch.
enum class MismatchKind : int32_t {
  Fingerprint =
      1, ///< Same sequence number, different op/count/type/reduction/root.
  MovedOn =
      2, ///< The peer ended (finalize, exit, communicator end) without it.
  /// This rank waits in collective Seq of CommId for the peer, which waits
  /// (Aux: its record) in a collective of another communicator for this rank.
  CrossWait = 3,
};

/// Bits of TraceRecord::State and ::Progress.
enum StateBits : uint32_t {
  StateReturned = 1u << 0,  ///< The real call returned (Result is valid).
  StateCompleted = 1u << 1, ///< The operation finished (GPU work included).
  StateHung = 1u << 2,      ///< Reported by the watchdog.
  StateCaptured = 1u << 3,  ///< Issued during CUDA stream capture: not tracked.
  StateUntracked = 1u << 4, ///< Completion could not be observed.
  StateFailed = 1u << 5,    ///< The real call returned an error.
  StateInGroup = 1u << 6,   ///< Issued between ncclGroupStart/End.
};

/// A code address: module index + 1 in the top 16 bits, offset in the
/// module (link-time address of the call instruction) in the low 48.
using PackedFrame = uint64_t;
constexpr unsigned kFrameOffsetBits = 48;
inline PackedFrame packFrame(uint32_t Module, uint64_t Offset) {
  return (uint64_t(Module + 1) << kFrameOffsetBits) |
         (Offset & ((uint64_t(1) << kFrameOffsetBits) - 1));
}
inline bool frameValid(PackedFrame F) { return (F >> kFrameOffsetBits) != 0; }
inline uint32_t frameModule(PackedFrame F) {
  return uint32_t(F >> kFrameOffsetBits) - 1;
}
inline uint64_t frameOffset(PackedFrame F) {
  return F & ((uint64_t(1) << kFrameOffsetBits) - 1);
}

/// Python code has no loaded object: its frames name a pseudo-module
/// "python:<how>:<function>:<file>" and carry the line as their offset.
/// <how> is one PythonSiteKind letter.
constexpr char kPythonModulePrefix[] = "python:";
enum class PythonSiteKind : char {
  Call = 'c',        ///< Issued by the Python call on this line.
  Backward = 'b',    ///< Issued by LibTorch during backward() on this line.
  OtherThread = 't', ///< Issued by a LibTorch thread while backward() ran.
  Event = 'e',       ///< Where the startup hook saw a Python-level event.
};
struct PythonSiteName {
  PythonSiteKind Kind = PythonSiteKind::Call;
  const char *Function = nullptr; ///< Not terminated: FunctionLength.
  unsigned FunctionLength = 0;
  const char *File = nullptr; ///< Terminated.
};
/// Splits a pseudo-module path; false for real modules.
inline bool parsePythonModule(const char *Path, PythonSiteName &Out) {
  const unsigned PrefixLength = sizeof(kPythonModulePrefix) - 1;
  for (unsigned I = 0; I < PrefixLength; ++I)
    if (Path[I] != kPythonModulePrefix[I])
      return false;
  const char *P = Path + PrefixLength;
  if (!P[0] || P[1] != ':')
    return false;
  Out.Kind = PythonSiteKind(P[0]);
  Out.Function = P + 2;
  const char *Colon = Out.Function;
  while (*Colon && *Colon != ':')
    ++Colon;
  if (!*Colon)
    return false;
  Out.FunctionLength = unsigned(Colon - Out.Function);
  Out.File = Colon + 1;
  return true;
}

constexpr unsigned kRecordFrames = 3;
constexpr int32_t kNoPeer = -1;

struct TraceRecord {
  std::atomic<uint64_t> Commit; ///< Slot + 1 once the record is complete.
  uint64_t Seq;     ///< Per communicator (collectives) or per peer (p2p).
  uint64_t CommId;  ///< The same on every member of a communicator.
  uint64_t Count;   ///< Elements, as passed (for v-variants: this rank's).
  uint64_t StartNs; ///< CLOCK_MONOTONIC at entry.
  /// When an operation completed after its call returned (a CUDA event, an
  /// MPI request), when a stream operation failed, or when a hang was
  /// reported; 0 for a blocking call, which completes when it returns (State
  /// says so): no report reads that time, and a second clock read was a
  /// tenth of the call's recording cost.
  std::atomic<uint64_t> EndNs;
  uint64_t Aux;                ///< Kind-specific, see RecordKind.
  uint32_t Kind;               ///< RecordKind.
  uint16_t ApiId;              ///< Api.
  uint16_t Op;                 ///< OpCode.
  int32_t DataType;            ///< NCCL: ncclDataType_t; MPI: see MpiTypeCodes.
  int32_t RedOp; ///< NCCL: ncclRedOp_t; MPI: see MpiTypeCodes; -1 none.
  int32_t Peer;  ///< Root for rooted collectives, peer for p2p, or -1.
  int32_t CommRank;
  int32_t CommSize;
  uint32_t Group; ///< This thread's group ordinal (NCCL), 0 outside.
  /// StateBits the calling thread sets (it is their only writer, so no
  /// locked instruction is needed on the call's path).
  std::atomic<uint16_t> State;
  /// StateBits others set later: the watchdog (Completed, Hung) and request
  /// completion on other threads. A record's state is State | Progress.
  std::atomic<uint16_t> Progress;
  int32_t Result; ///< What the real call returned.
  uint32_t Tid;
  int32_t Tag;                       ///< MPI tag, split color, …
  PackedFrame Frames[kRecordFrames]; ///< First user frame, then its callers.
};
static_assert(sizeof(TraceRecord) == 128, "trace records are 128 bytes");

constexpr size_t kModulePathBytes = 248;
struct ModuleEntry {
  std::atomic<uint32_t> Ready; ///< Path is complete.
  uint32_t Reserved;
  char Path[kModulePathBytes];
};
static_assert(sizeof(ModuleEntry) == 256, "module entries are 256 bytes");

/// Per-call-site counters of host synchronizations (no ring record each).
struct alignas(64) SyncSite {
  std::atomic<uint64_t> Key; ///< syncSiteKey(op, frame); 0 = free.
  std::atomic<uint64_t> Count;
  std::atomic<uint64_t> TotalNs;
  std::atomic<uint64_t> MaxNs;
};
/// Op in the top 8 bits, then 12 bits of module index + 1, 44 bits offset.
inline uint64_t syncSiteKey(OpCode Op, PackedFrame F) {
  uint64_t Module = F >> kFrameOffsetBits;
  return (uint64_t(Op) << 56) | ((Module & 0xfff) << 44) |
         (frameOffset(F) & ((uint64_t(1) << 44) - 1));
}
inline OpCode syncSiteOp(uint64_t Key) { return OpCode(Key >> 56); }
inline PackedFrame syncSiteFrame(uint64_t Key) {
  uint64_t Module = (Key >> 44) & 0xfff;
  return Module
             ? (Module << kFrameOffsetBits) | (Key & ((uint64_t(1) << 44) - 1))
             : 0;
}

constexpr char kTraceMagic[8] = {'D', 'L', 'R', 'T', 'R', 'A', 'C', 'E'};
constexpr uint32_t kTraceVersion = 2;

/// Bits of TraceHeader::Flags.
enum HeaderFlags : uint32_t {
  HeaderExited = 1u << 0,  ///< The process ran its exit handlers.
  HeaderAborted = 1u << 1, ///< The watchdog aborted a communicator.
  HeaderWrapped = 1u << 2, ///< The ring overwrote old records.
};

struct TraceHeader {
  char Magic[8];
  uint32_t Version;
  uint32_t HeaderBytes;
  uint32_t RecordBytes;
  uint32_t Capacity; ///< Records in the ring.
  uint32_t ModuleCapacity;
  uint32_t SyncSiteCapacity;
  uint64_t ModulesOffset;
  uint64_t SyncSitesOffset;
  uint64_t RecordsOffset;
  uint64_t FileBytes;
  std::atomic<int32_t> Rank; ///< Global rank (-1 unknown; MPI_Init fills it).
  int32_t WorldSize;
  int32_t LocalRank;
  int32_t Pid;
  uint64_t StartRealtimeNs;
  uint64_t StartMonotonicNs;
  uint64_t TimeoutNs;
  char Host[64];
  char Program[256];
  std::atomic<uint64_t> Head; ///< Next slot to claim.
  std::atomic<uint32_t> HangCount;
  std::atomic<uint32_t> ModuleCount;
  std::atomic<uint32_t> Flags;
  std::atomic<uint32_t> MismatchCount;  ///< Live divergences this rank saw.
  std::atomic<uint64_t> UntrackedOps;   ///< Pending table was full.
  std::atomic<uint64_t> HeartbeatNs;    ///< Watchdog's last poll (monotonic).
  std::atomic<uint64_t> LastActivityNs; ///< Last record appended.
  /// The launch this rank belongs to (DISTLINT_RT_RUN_ID, or derived from the
  /// MPI/Slurm/torchrun job id); 0 unknown. Reports never mix runs.
  uint64_t RunId;
  /// Non-zero in a process forked from a rank (its parent's pid): not a rank.
  int32_t ForkParentPid;
  int32_t Reserved1;
};

/// Offsets of the regions for given capacities (page-aligned).
struct TraceLayout {
  uint64_t ModulesOffset;
  uint64_t SyncSitesOffset;
  uint64_t RecordsOffset;
  uint64_t FileBytes;
};
inline TraceLayout traceLayout(uint32_t Records, uint32_t Modules,
                               uint32_t SyncSites) {
  auto Align = [](uint64_t V) { return (V + 4095) & ~uint64_t(4095); };
  TraceLayout L;
  L.ModulesOffset = Align(sizeof(TraceHeader));
  L.SyncSitesOffset =
      Align(L.ModulesOffset + uint64_t(Modules) * sizeof(ModuleEntry));
  L.RecordsOffset =
      Align(L.SyncSitesOffset + uint64_t(SyncSites) * sizeof(SyncSite));
  L.FileBytes =
      Align(L.RecordsOffset + uint64_t(Records) * sizeof(TraceRecord));
  return L;
}

// ---- MPI handle codes
// -------------------------------------------------------- MPI handles are
// process-local (pointers in Open MPI), so records carry codes that mean the
// same on every rank.

/// Predefined datatypes by their MPI_Type_get_name spelling; code = index + 1.
/// Other types: kMpiDerivedType | size in bytes.
extern const char *const MpiTypeNames[];
extern const unsigned NumMpiTypeNames;
constexpr int32_t kMpiDerivedType = 0x40000000;
/// Predefined reduction operations; code = index + 1; user ops kMpiUserOp.
extern const char *const MpiOpNames[];
extern const unsigned NumMpiOpNames;
constexpr int32_t kMpiUserOp = 100;

/// c10::ScalarType names ("float32"), null beyond the table.
const char *c10dScalarTypeName(int32_t Code);
/// "shape [2, 3]" for an exact dlrtShapeCode (TorchAbi.h); false when the
/// code is a hash.
bool formatShapeCode(uint64_t Code, char *Buf, unsigned long Size);

} // namespace rt
} // namespace distlint
