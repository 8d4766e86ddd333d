//===- MpiHooks.cpp - MPI through the PMPI profiling interface
//--------------===//
//
// Each MPI_X hook records the call and forwards to PMPI_X, resolved at run
// time so the library has no link-time MPI dependency (and never references
// MPI's predefined-handle symbols, which would tie every process to libmpi).
// Built against Open MPI's <mpi.h>: its handle ABI (pointers) is what the
// hooks understand.
//
// Completion: blocking calls complete when they return; non-blocking ones
// when MPI_Wait*/MPI_Test* report their request done.
//
//===----------------------------------------------------------------------===//
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include "Intercept.h"
#include "Runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <cstring>

using namespace distlint::rt;

namespace {

constexpr int kMpiErrIntern = 16;              // MPI_ERR_INTERN in Open MPI.
constexpr uint64_t kWorldId = 0x574f524c44ull; // "WORLD"
constexpr uint64_t kSelfId = 0x53454c46ull;    // "SELF"
/// How long MPI_Abort may take to end the job before this rank exits itself.
constexpr unsigned kAbortGraceSeconds = 10;

/// What the MPI hooks forward to (Intercept.h): the profiling twin, so a
/// library that wraps MPI itself (PMPI tools) still sees the calls.
struct MpiFamily {
  static constexpr const char *Api = "MPI";
  static constexpr const char *const Sonames[] = {
      "libmpi.so.40", "libmpi.so.12", "libmpi.so", nullptr};
  static constexpr const char *RealPrefix = "P";
  static constexpr bool MustExist = false;
  static int missing(const char *Name) {
    reportMissingReal(Api, Name);
    return kMpiErrIntern;
  }
};
using Family = MpiFamily;

bool failed(int R) { return R != MPI_SUCCESS; }

/// Open MPI's predefined handles are addresses of library globals.
void *predefined(const char *Symbol) {
  void *P = dlsym(RTLD_DEFAULT, Symbol);
  if (!P)
    for (const char *const *S = Family::Sonames; *S && !P; ++S)
      if (void *Lib = dlopen(*S, RTLD_NOLOAD | RTLD_LAZY))
        P = dlsym(Lib, Symbol);
  return P;
}

MPI_Comm worldComm() {
  static void *W = predefined("ompi_mpi_comm_world");
  return static_cast<MPI_Comm>(W);
}
MPI_Comm selfComm() {
  static void *S = predefined("ompi_mpi_comm_self");
  return static_cast<MPI_Comm>(S);
}
MPI_Comm nullComm() {
  static void *N = predefined("ompi_mpi_comm_null");
  return static_cast<MPI_Comm>(N);
}
MPI_Request nullRequest() {
  static void *N = predefined("ompi_request_null");
  return static_cast<MPI_Request>(N);
}

/// Asks MPI (not through our hooks) for rank and size.
void rankAndSize(MPI_Comm Comm, int &Rank, int &Size) {
  Rank = -1;
  Size = 0;
  if (auto Real = REAL(MPI_Comm_rank))
    Real(Comm, &Rank);
  if (auto Real = REAL(MPI_Comm_size))
    Real(Comm, &Size);
}

CommState *commState(MPI_Comm Comm) {
  if (!Comm || Comm == nullComm())
    return nullptr;
  if (CommState *C = findComm(Api::Mpi, uintptr_t(Comm)))
    return C;
  int Rank, Size;
  rankAndSize(Comm, Rank, Size);
  uint64_t Id;
  if (Comm == worldComm())
    Id = kWorldId;
  else if (Comm == selfComm())
    Id = hashMix(kSelfId, uint64_t(uint32_t(globalRank())));
  else
    Id = adoptedCommId(Api::Mpi);
  CommState *C = addComm(Api::Mpi, uintptr_t(Comm), Id, Rank, Size);
  CallSite None;
  recordCommCreate(C, OpCode::None, 0, 0, None, MPI_SUCCESS);
  return C;
}

// ---- Handle codes (cached per handle; handles are stable pointers)
// -------------

struct CodeCacheEntry {
  std::atomic<uintptr_t> Handle;
  std::atomic<int32_t> Code;
};
constexpr unsigned kCodeCache = 256;
CodeCacheEntry TypeCodes[kCodeCache];

int32_t computeTypeCode(MPI_Datatype Type) {
  char Name[MPI_MAX_OBJECT_NAME] = {0};
  int Len = 0;
  if (auto Real = REAL(MPI_Type_get_name))
    Real(Type, Name, &Len);
  for (unsigned I = 0; I < NumMpiTypeNames; ++I)
    if (std::strcmp(Name, MpiTypeNames[I]) == 0)
      return int32_t(I + 1);
  int Size = 0;
  if (auto Real = REAL(MPI_Type_size))
    Real(Type, &Size);
  return kMpiDerivedType | (Size & 0xffffff);
}

int32_t typeCode(MPI_Datatype Type) {
  uintptr_t Key = uintptr_t(Type);
  if (!Key)
    return -1;
  unsigned S = unsigned((Key * 0x9E3779B97F4A7C15ull) >> 56) % kCodeCache;
  for (unsigned Probe = 0; Probe < 16; ++Probe) {
    CodeCacheEntry &E = TypeCodes[(S + Probe) % kCodeCache];
    uintptr_t H = E.Handle.load(std::memory_order_acquire);
    if (H == Key)
      return E.Code.load(std::memory_order_relaxed);
    if (H == 0) {
      // Derived types can be freed and their address reused: only cache
      // predefined ones.
      int32_t Code = computeTypeCode(Type);
      if (Code & kMpiDerivedType)
        return Code;
      E.Code.store(Code, std::memory_order_relaxed);
      uintptr_t Expected = 0;
      E.Handle.compare_exchange_strong(Expected, Key,
                                       std::memory_order_release);
      return Code;
    }
  }
  return computeTypeCode(Type);
}

int32_t opCode(MPI_Op Op) {
  static const char *const Symbols[] = {
      "ompi_mpi_op_sum",     "ompi_mpi_op_prod",   "ompi_mpi_op_max",
      "ompi_mpi_op_min",     "ompi_mpi_op_land",   "ompi_mpi_op_band",
      "ompi_mpi_op_lor",     "ompi_mpi_op_bor",    "ompi_mpi_op_lxor",
      "ompi_mpi_op_bxor",    "ompi_mpi_op_maxloc", "ompi_mpi_op_minloc",
      "ompi_mpi_op_replace", "ompi_mpi_op_no_op"};
  static_assert(sizeof(Symbols) / sizeof(Symbols[0]) == 14,
                "matches MpiOpNames");
  static void *Handles[14];
  static std::atomic<int> Ready{0};
  if (!Ready.load(std::memory_order_acquire)) {
    for (unsigned I = 0; I < 14; ++I)
      Handles[I] = predefined(Symbols[I]);
    Ready.store(1, std::memory_order_release);
  }
  for (unsigned I = 0; I < 14; ++I)
    if (Handles[I] && Handles[I] == static_cast<void *>(Op))
      return int32_t(I + 1);
  return kMpiUserOp;
}

// ---- Requests -> records
// ------------------------------------------------------------

constexpr unsigned kRequestSlots = 8192;
constexpr uintptr_t kTombstone = 1;
struct RequestEntry {
  std::atomic<uintptr_t> Request;
  std::atomic<uint64_t> Slot;
};
RequestEntry Requests[kRequestSlots];

unsigned requestHash(uintptr_t R) {
  return unsigned((R * 0x9E3779B97F4A7C15ull) >> 40) % kRequestSlots;
}

void rememberRequest(MPI_Request Request, uint64_t Slot) {
  uintptr_t Key = uintptr_t(Request);
  if (!Key || Request == nullRequest())
    return;
  unsigned S = requestHash(Key);
  for (unsigned Probe = 0; Probe < 64; ++Probe) {
    RequestEntry &E = Requests[(S + Probe) % kRequestSlots];
    uintptr_t Cur = E.Request.load(std::memory_order_acquire);
    if (Cur == Key) { // A handle reused after completion we did not see.
      E.Slot.store(Slot, std::memory_order_release);
      return;
    }
    if (Cur == 0 || Cur == kTombstone) {
      if (E.Request.compare_exchange_strong(Cur, Key)) {
        E.Slot.store(Slot, std::memory_order_release);
        return;
      }
    }
  }
}

bool takeRequest(uintptr_t Key, uint64_t &Slot) {
  if (!Key || Key == uintptr_t(nullRequest()))
    return false;
  unsigned S = requestHash(Key);
  for (unsigned Probe = 0; Probe < 64; ++Probe) {
    RequestEntry &E = Requests[(S + Probe) % kRequestSlots];
    uintptr_t Cur = E.Request.load(std::memory_order_acquire);
    if (Cur == 0)
      return false;
    if (Cur == Key) {
      Slot = E.Slot.load(std::memory_order_acquire);
      E.Request.store(kTombstone, std::memory_order_release);
      return true;
    }
  }
  return false;
}

/// Slot of a request's record without forgetting it.
bool peekRequest(uintptr_t Key, uint64_t &Slot) {
  if (!Key)
    return false;
  unsigned S = requestHash(Key);
  for (unsigned Probe = 0; Probe < 64; ++Probe) {
    RequestEntry &E = Requests[(S + Probe) % kRequestSlots];
    uintptr_t Cur = E.Request.load(std::memory_order_acquire);
    if (Cur == 0)
      return false;
    if (Cur == Key) {
      Slot = E.Slot.load(std::memory_order_acquire);
      return true;
    }
  }
  return false;
}

// ---- Recording
// ----------------------------------------------------------------------------

struct MpiCall {
  OpCode Op;
  MPI_Comm Comm;
  int Count;
  MPI_Datatype Type;
  MPI_Op RedOp;
  bool HasRedOp;
  int Peer; ///< Root, destination or source.
  int Tag;
  int64_t Aux; ///< Sendrecv: source rank.
};

MpiCall call(OpCode Op, MPI_Comm Comm, int Count = 0,
             MPI_Datatype Type = nullptr, int Peer = kNoPeer) {
  return MpiCall{Op, Comm, Count, Type, nullptr, false, Peer, 0, 0};
}
MpiCall reduction(OpCode Op, MPI_Comm Comm, int Count, MPI_Datatype Type,
                  MPI_Op RedOp, int Root = kNoPeer) {
  return MpiCall{Op, Comm, Count, Type, RedOp, true, Root, 0, 0};
}

OpDesc describe(const MpiCall &A) {
  OpDesc D;
  D.Op = A.Op;
  D.Comm = commState(A.Comm);
  D.Count = uint64_t(A.Count < 0 ? 0 : A.Count);
  D.DataType = A.Type ? typeCode(A.Type) : -1;
  D.RedOp = A.HasRedOp ? opCode(A.RedOp) : -1;
  D.Peer = A.Peer;
  D.Tag = A.Tag;
  D.Aux = uint64_t(A.Aux);
  CommState *C = D.Comm;
  if (!C)
    return D;
  OpCategory Cat = opInfo(A.Op).Category;
  bool PeerOk = A.Peer >= 0 && A.Peer < C->Size;
  // MPI requires every rank to order its collectives on a communicator, so
  // they never race on one (point-to-point may: those counts are atomic).
  if (Cat == OpCategory::Collective || Cat == OpCategory::CommCreate) {
    D.Seq = C->CollSeq.load(std::memory_order_relaxed) + 1;
    C->CollSeq.store(D.Seq, std::memory_order_relaxed);
  } else if ((Cat == OpCategory::Send || Cat == OpCategory::SendRecv) && PeerOk)
    D.Seq = C->SendSeq[A.Peer].fetch_add(1, std::memory_order_relaxed) + 1;
  else if (Cat == OpCategory::Recv && PeerOk)
    D.Seq = C->RecvSeq[A.Peer].fetch_add(1, std::memory_order_relaxed) + 1;
  else if (Cat == OpCategory::Recv && A.Peer == MPI_ANY_SOURCE)
    D.Seq = C->AnySourceSeq.fetch_add(1, std::memory_order_relaxed) + 1;
  return D;
}

/// A blocking MPI call: watched until it returns.
template <class Call>
int recordBlocking(void *HookFrame, const MpiCall &A, Call &&Real) {
  TraceWriter *T = trace();
  if (!T)
    return Real();
  HookScope Guard;
  CallSite Site;
  captureCallSite(HookFrame, Site);
  OpHandle H = beginOp(*T, describe(A), Site, /*Track=*/true);
  int R = Real();
  ErrnoKeeper Keep;
  endOpBlocking(H, R, failed(R));
  return R;
}

/// A non-blocking MPI call: complete when its request is.
template <class Call>
int recordNonBlocking(void *HookFrame, const MpiCall &A, MPI_Request *Request,
                      Call &&Real) {
  TraceWriter *T = trace();
  if (!T)
    return Real();
  HookScope Guard;
  CallSite Site;
  captureCallSite(HookFrame, Site);
  OpHandle H = beginOp(*T, describe(A), Site, /*Track=*/false);
  int R = Real();
  ErrnoKeeper Keep;
  endOpIssued(H, R, failed(R));
  if (!failed(R) && Request)
    rememberRequest(*Request, H.Slot);
  return R;
}

/// MPI_Wait*: a blocking record pointing at the first request's operation;
/// the operations of completed requests are marked complete.
template <class Call>
int recordWait(void *HookFrame, OpCode Op, int Count, const MPI_Request *Reqs,
               Call &&Real, const int *FlagOut = nullptr,
               const int *IndexOut = nullptr) {
  TraceWriter *T = trace();
  if (!T)
    return Real();
  HookScope Guard;
  constexpr int kMaxWatched = 64;
  uintptr_t Keys[kMaxWatched];
  int Watched = Count < kMaxWatched ? Count : kMaxWatched;
  for (int I = 0; I < Watched; ++I)
    Keys[I] = Reqs ? uintptr_t(Reqs[I]) : 0;
  bool Blocking = Op == OpCode::MpiWait || Op == OpCode::MpiWaitall ||
                  Op == OpCode::MpiWaitany;
  OpHandle H;
  if (Blocking) {
    CallSite Site;
    captureCallSite(HookFrame, Site);
    OpDesc D;
    D.Op = Op;
    D.Count = uint64_t(Count);
    uint64_t First;
    for (int I = 0; I < Watched; ++I)
      if (peekRequest(Keys[I], First)) {
        if (TraceRecord *Target = T->recordAt(First)) {
          D.Aux = First + 1; // The operation waited for; 0 means none.
          D.Peer = Target->Peer;
        }
        break;
      }
    H = beginOp(*T, D, Site, /*Track=*/true);
  }
  int R = Real();
  ErrnoKeeper Keep;
  if (H)
    endOpBlocking(H, R, failed(R));
  if (failed(R))
    return R;
  uint64_t Slot;
  if (Op == OpCode::MpiWaitany) {
    if (IndexOut && *IndexOut >= 0 && *IndexOut < Watched &&
        takeRequest(Keys[*IndexOut], Slot))
      markCompleted(*T, Slot);
    return R;
  }
  if (FlagOut && !*FlagOut)
    return R;
  for (int I = 0; I < Watched; ++I)
    if (takeRequest(Keys[I], Slot))
      markCompleted(*T, Slot);
  return R;
}

void *exitAfterAbortGrace(void *) {
  sleep(kAbortGraceSeconds);
  logLine("rank %d: MPI_Abort did not end the job within %u s; exiting",
          globalRank(), kAbortGraceSeconds);
  _exit(134);
}

void abortMpi(CommState *C) {
  // MPI_Abort runs on the watchdog thread while the main thread is blocked
  // inside MPI; in an MPI_THREAD_SINGLE program Open MPI does not always end
  // the job from there (seen on loaded machines). A rank that exits on its
  // own makes mpirun end the others, so that is the fallback.
  pthread_t Timer;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&Timer, &Attr, exitAfterAbortGrace, nullptr);
  pthread_attr_destroy(&Attr);
  if (auto Real = REAL(MPI_Abort))
    Real(reinterpret_cast<MPI_Comm>(C->Handle.load()), 1);
}

__attribute__((constructor)) void registerMpiAbort() {
  setAbortHandler(Api::Mpi, abortMpi);
}

void afterInit(int R, void *HookFrame) {
  if (failed(R) || insideHook())
    return;
  HookScope Guard;
  CallSite Site;
  captureCallSite(HookFrame, Site);
  int Rank, Size;
  rankAndSize(worldComm(), Rank, Size);
  setGlobalRank(Rank, Size);
  if (!findComm(Api::Mpi, uintptr_t(worldComm()))) {
    CommState *C =
        addComm(Api::Mpi, uintptr_t(worldComm()), kWorldId, Rank, Size);
    recordCommCreate(C, OpCode::MpiInit, 0, 0, Site, R);
  }
}

/// Derived communicators: a collective over the parent, then registration
/// with an id all members compute alike.
template <class Call>
int recordDerive(void *HookFrame, OpCode Op, MPI_Comm Parent, int Color,
                 MPI_Comm *NewComm, Call &&Real) {
  TraceWriter *T = trace();
  if (!T)
    return Real();
  HookScope Guard;
  CallSite Site;
  captureCallSite(HookFrame, Site);
  MpiCall A = call(Op, Parent);
  A.Tag = Color;
  OpDesc D = describe(A);
  CommState *P = D.Comm;
  uint64_t Ordinal = P ? P->Children.fetch_add(1) + 1 : 0;
  OpHandle H = beginOp(*T, D, Site, /*Track=*/true);
  int R = Real();
  ErrnoKeeper Keep;
  endOpBlocking(H, R, failed(R));
  if (!failed(R) && NewComm && *NewComm && *NewComm != nullComm()) {
    int Rank, Size;
    rankAndSize(*NewComm, Rank, Size);
    uint64_t ParentId = P ? P->Id : 0;
    uint64_t Id =
        hashMix(hashMix(ParentId, Ordinal), uint64_t(uint32_t(Color)));
    CommState *C = addComm(Api::Mpi, uintptr_t(*NewComm), Id, Rank, Size);
    recordCommCreate(C, Op, ParentId, Color, Site, R);
  }
  return R;
}

} // namespace

// ---- Life cycle
// -------------------------------------------------------------------------------

INTERCEPTOR(int, MPI_Init, int *Argc, char ***Argv) {
  HOOK_ENTER(MPI_Init, Argc, Argv);
  int R;
  {
    HookScope Guard;
    R = Real(Argc, Argv);
  }
  ErrnoKeeper Keep;
  afterInit(R, HOOK_FRAME);
  return R;
}

INTERCEPTOR(int, MPI_Init_thread, int *Argc, char ***Argv, int Required,
            int *Provided) {
  HOOK_ENTER(MPI_Init_thread, Argc, Argv, Required, Provided);
  int R;
  {
    HookScope Guard;
    R = Real(Argc, Argv, Required, Provided);
  }
  ErrnoKeeper Keep;
  afterInit(R, HOOK_FRAME);
  return R;
}

INTERCEPTOR(int, MPI_Finalize, void) {
  HOOK_ENTER(MPI_Finalize);
  // Finalize synchronizes the job in practice: watch it like a collective.
  return recordBlocking(HOOK_FRAME, call(OpCode::MpiFinalize, nullptr),
                        [&] { return Real(); });
}

INTERCEPTOR(int, MPI_Abort, MPI_Comm Comm, int Code) {
  HOOK_ENTER(MPI_Abort, Comm, Code);
  if (TraceWriter *T = trace()) {
    HookScope Guard;
    CallSite Site;
    captureCallSite(HOOK_FRAME, Site);
    MpiCall A = call(OpCode::MpiAbort, Comm);
    A.Tag = Code;
    OpDesc D = describe(A);
    OpHandle H = beginOp(*T, D, Site, false);
    endOpIssued(H, 0, false);
  }
  return Real(Comm, Code);
}

// ---- Collectives
// -------------------------------------------------------------------------------

INTERCEPTOR(int, MPI_Barrier, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Barrier, Comm);
  return recordBlocking(HOOK_FRAME, call(OpCode::MpiBarrier, Comm),
                        [&] { return Real(Comm); });
}

INTERCEPTOR(int, MPI_Bcast, void *Buf, int Count, MPI_Datatype Type, int Root,
            MPI_Comm Comm) {
  HOOK_ENTER(MPI_Bcast, Buf, Count, Type, Root, Comm);
  return recordBlocking(HOOK_FRAME,
                        call(OpCode::MpiBcast, Comm, Count, Type, Root),
                        [&] { return Real(Buf, Count, Type, Root, Comm); });
}

INTERCEPTOR(int, MPI_Reduce, const void *Send, void *Recv, int Count,
            MPI_Datatype Type, MPI_Op Op, int Root, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Reduce, Send, Recv, Count, Type, Op, Root, Comm);
  return recordBlocking(
      HOOK_FRAME, reduction(OpCode::MpiReduce, Comm, Count, Type, Op, Root),
      [&] { return Real(Send, Recv, Count, Type, Op, Root, Comm); });
}

INTERCEPTOR(int, MPI_Allreduce, const void *Send, void *Recv, int Count,
            MPI_Datatype Type, MPI_Op Op, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Allreduce, Send, Recv, Count, Type, Op, Comm);
  return recordBlocking(
      HOOK_FRAME, reduction(OpCode::MpiAllreduce, Comm, Count, Type, Op),
      [&] { return Real(Send, Recv, Count, Type, Op, Comm); });
}

INTERCEPTOR(int, MPI_Gather, const void *Send, int SendCount,
            MPI_Datatype SendType, void *Recv, int RecvCount,
            MPI_Datatype RecvType, int Root, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Gather, Send, SendCount, SendType, Recv, RecvCount, RecvType,
             Root, Comm);
  return recordBlocking(
      HOOK_FRAME, call(OpCode::MpiGather, Comm, SendCount, SendType, Root),
      [&] {
        return Real(Send, SendCount, SendType, Recv, RecvCount, RecvType, Root,
                    Comm);
      });
}

INTERCEPTOR(int, MPI_Gatherv, const void *Send, int SendCount,
            MPI_Datatype SendType, void *Recv, const int RecvCounts[],
            const int Displs[], MPI_Datatype RecvType, int Root,
            MPI_Comm Comm) {
  HOOK_ENTER(MPI_Gatherv, Send, SendCount, SendType, Recv, RecvCounts, Displs,
             RecvType, Root, Comm);
  // Counts legitimately differ per rank in v-variants: not part of the
  // fingerprint (recorded as 0).
  return recordBlocking(HOOK_FRAME,
                        call(OpCode::MpiGatherv, Comm, 0, SendType, Root), [&] {
                          return Real(Send, SendCount, SendType, Recv,
                                      RecvCounts, Displs, RecvType, Root, Comm);
                        });
}

INTERCEPTOR(int, MPI_Scatter, const void *Send, int SendCount,
            MPI_Datatype SendType, void *Recv, int RecvCount,
            MPI_Datatype RecvType, int Root, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Scatter, Send, SendCount, SendType, Recv, RecvCount, RecvType,
             Root, Comm);
  return recordBlocking(
      HOOK_FRAME, call(OpCode::MpiScatter, Comm, RecvCount, RecvType, Root),
      [&] {
        return Real(Send, SendCount, SendType, Recv, RecvCount, RecvType, Root,
                    Comm);
      });
}

INTERCEPTOR(int, MPI_Scatterv, const void *Send, const int SendCounts[],
            const int Displs[], MPI_Datatype SendType, void *Recv,
            int RecvCount, MPI_Datatype RecvType, int Root, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Scatterv, Send, SendCounts, Displs, SendType, Recv, RecvCount,
             RecvType, Root, Comm);
  return recordBlocking(
      HOOK_FRAME, call(OpCode::MpiScatterv, Comm, 0, RecvType, Root), [&] {
        return Real(Send, SendCounts, Displs, SendType, Recv, RecvCount,
                    RecvType, Root, Comm);
      });
}

INTERCEPTOR(int, MPI_Allgather, const void *Send, int SendCount,
            MPI_Datatype SendType, void *Recv, int RecvCount,
            MPI_Datatype RecvType, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Allgather, Send, SendCount, SendType, Recv, RecvCount,
             RecvType, Comm);
  return recordBlocking(
      HOOK_FRAME, call(OpCode::MpiAllgather, Comm, RecvCount, RecvType), [&] {
        return Real(Send, SendCount, SendType, Recv, RecvCount, RecvType, Comm);
      });
}

INTERCEPTOR(int, MPI_Allgatherv, const void *Send, int SendCount,
            MPI_Datatype SendType, void *Recv, const int RecvCounts[],
            const int Displs[], MPI_Datatype RecvType, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Allgatherv, Send, SendCount, SendType, Recv, RecvCounts,
             Displs, RecvType, Comm);
  return recordBlocking(HOOK_FRAME,
                        call(OpCode::MpiAllgatherv, Comm, 0, RecvType), [&] {
                          return Real(Send, SendCount, SendType, Recv,
                                      RecvCounts, Displs, RecvType, Comm);
                        });
}

INTERCEPTOR(int, MPI_Alltoall, const void *Send, int SendCount,
            MPI_Datatype SendType, void *Recv, int RecvCount,
            MPI_Datatype RecvType, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Alltoall, Send, SendCount, SendType, Recv, RecvCount, RecvType,
             Comm);
  return recordBlocking(
      HOOK_FRAME, call(OpCode::MpiAlltoall, Comm, SendCount, SendType), [&] {
        return Real(Send, SendCount, SendType, Recv, RecvCount, RecvType, Comm);
      });
}

INTERCEPTOR(int, MPI_Alltoallv, const void *Send, const int SendCounts[],
            const int SendDispls[], MPI_Datatype SendType, void *Recv,
            const int RecvCounts[], const int RecvDispls[],
            MPI_Datatype RecvType, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Alltoallv, Send, SendCounts, SendDispls, SendType, Recv,
             RecvCounts, RecvDispls, RecvType, Comm);
  return recordBlocking(
      HOOK_FRAME, call(OpCode::MpiAlltoallv, Comm, 0, SendType), [&] {
        return Real(Send, SendCounts, SendDispls, SendType, Recv, RecvCounts,
                    RecvDispls, RecvType, Comm);
      });
}

INTERCEPTOR(int, MPI_Reduce_scatter, const void *Send, void *Recv,
            const int RecvCounts[], MPI_Datatype Type, MPI_Op Op,
            MPI_Comm Comm) {
  HOOK_ENTER(MPI_Reduce_scatter, Send, Recv, RecvCounts, Type, Op, Comm);
  return recordBlocking(
      HOOK_FRAME, reduction(OpCode::MpiReduceScatter, Comm, 0, Type, Op),
      [&] { return Real(Send, Recv, RecvCounts, Type, Op, Comm); });
}

INTERCEPTOR(int, MPI_Reduce_scatter_block, const void *Send, void *Recv,
            int RecvCount, MPI_Datatype Type, MPI_Op Op, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Reduce_scatter_block, Send, Recv, RecvCount, Type, Op, Comm);
  return recordBlocking(
      HOOK_FRAME,
      reduction(OpCode::MpiReduceScatterBlock, Comm, RecvCount, Type, Op),
      [&] { return Real(Send, Recv, RecvCount, Type, Op, Comm); });
}

INTERCEPTOR(int, MPI_Scan, const void *Send, void *Recv, int Count,
            MPI_Datatype Type, MPI_Op Op, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Scan, Send, Recv, Count, Type, Op, Comm);
  return recordBlocking(
      HOOK_FRAME, reduction(OpCode::MpiScan, Comm, Count, Type, Op),
      [&] { return Real(Send, Recv, Count, Type, Op, Comm); });
}

INTERCEPTOR(int, MPI_Exscan, const void *Send, void *Recv, int Count,
            MPI_Datatype Type, MPI_Op Op, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Exscan, Send, Recv, Count, Type, Op, Comm);
  return recordBlocking(
      HOOK_FRAME, reduction(OpCode::MpiExscan, Comm, Count, Type, Op),
      [&] { return Real(Send, Recv, Count, Type, Op, Comm); });
}

INTERCEPTOR(int, MPI_Ibarrier, MPI_Comm Comm, MPI_Request *Request) {
  HOOK_ENTER(MPI_Ibarrier, Comm, Request);
  return recordNonBlocking(HOOK_FRAME, call(OpCode::MpiIbarrier, Comm), Request,
                           [&] { return Real(Comm, Request); });
}

INTERCEPTOR(int, MPI_Ibcast, void *Buf, int Count, MPI_Datatype Type, int Root,
            MPI_Comm Comm, MPI_Request *Request) {
  HOOK_ENTER(MPI_Ibcast, Buf, Count, Type, Root, Comm, Request);
  return recordNonBlocking(
      HOOK_FRAME, call(OpCode::MpiIbcast, Comm, Count, Type, Root), Request,
      [&] { return Real(Buf, Count, Type, Root, Comm, Request); });
}

INTERCEPTOR(int, MPI_Ireduce, const void *Send, void *Recv, int Count,
            MPI_Datatype Type, MPI_Op Op, int Root, MPI_Comm Comm,
            MPI_Request *Request) {
  HOOK_ENTER(MPI_Ireduce, Send, Recv, Count, Type, Op, Root, Comm, Request);
  return recordNonBlocking(
      HOOK_FRAME, reduction(OpCode::MpiIreduce, Comm, Count, Type, Op, Root),
      Request,
      [&] { return Real(Send, Recv, Count, Type, Op, Root, Comm, Request); });
}

INTERCEPTOR(int, MPI_Iallreduce, const void *Send, void *Recv, int Count,
            MPI_Datatype Type, MPI_Op Op, MPI_Comm Comm, MPI_Request *Request) {
  HOOK_ENTER(MPI_Iallreduce, Send, Recv, Count, Type, Op, Comm, Request);
  return recordNonBlocking(
      HOOK_FRAME, reduction(OpCode::MpiIallreduce, Comm, Count, Type, Op),
      Request,
      [&] { return Real(Send, Recv, Count, Type, Op, Comm, Request); });
}

INTERCEPTOR(int, MPI_Iallgather, const void *Send, int SendCount,
            MPI_Datatype SendType, void *Recv, int RecvCount,
            MPI_Datatype RecvType, MPI_Comm Comm, MPI_Request *Request) {
  HOOK_ENTER(MPI_Iallgather, Send, SendCount, SendType, Recv, RecvCount,
             RecvType, Comm, Request);
  return recordNonBlocking(
      HOOK_FRAME, call(OpCode::MpiIallgather, Comm, RecvCount, RecvType),
      Request, [&] {
        return Real(Send, SendCount, SendType, Recv, RecvCount, RecvType, Comm,
                    Request);
      });
}

INTERCEPTOR(int, MPI_Ialltoall, const void *Send, int SendCount,
            MPI_Datatype SendType, void *Recv, int RecvCount,
            MPI_Datatype RecvType, MPI_Comm Comm, MPI_Request *Request) {
  HOOK_ENTER(MPI_Ialltoall, Send, SendCount, SendType, Recv, RecvCount,
             RecvType, Comm, Request);
  return recordNonBlocking(
      HOOK_FRAME, call(OpCode::MpiIalltoall, Comm, SendCount, SendType),
      Request, [&] {
        return Real(Send, SendCount, SendType, Recv, RecvCount, RecvType, Comm,
                    Request);
      });
}

// ---- Point-to-point
// -------------------------------------------------------------------------------

namespace {
MpiCall p2p(OpCode Op, MPI_Comm Comm, int Count, MPI_Datatype Type, int Peer,
            int Tag) {
  MpiCall A = call(Op, Comm, Count, Type, Peer);
  A.Tag = Tag;
  return A;
}
} // namespace

INTERCEPTOR(int, MPI_Send, const void *Buf, int Count, MPI_Datatype Type,
            int Dest, int Tag, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Send, Buf, Count, Type, Dest, Tag, Comm);
  return recordBlocking(
      HOOK_FRAME, p2p(OpCode::MpiSend, Comm, Count, Type, Dest, Tag),
      [&] { return Real(Buf, Count, Type, Dest, Tag, Comm); });
}

INTERCEPTOR(int, MPI_Ssend, const void *Buf, int Count, MPI_Datatype Type,
            int Dest, int Tag, MPI_Comm Comm) {
  HOOK_ENTER(MPI_Ssend, Buf, Count, Type, Dest, Tag, Comm);
  return recordBlocking(
      HOOK_FRAME, p2p(OpCode::MpiSsend, Comm, Count, Type, Dest, Tag),
      [&] { return Real(Buf, Count, Type, Dest, Tag, Comm); });
}

INTERCEPTOR(int, MPI_Isend, const void *Buf, int Count, MPI_Datatype Type,
            int Dest, int Tag, MPI_Comm Comm, MPI_Request *Request) {
  HOOK_ENTER(MPI_Isend, Buf, Count, Type, Dest, Tag, Comm, Request);
  return recordNonBlocking(
      HOOK_FRAME, p2p(OpCode::MpiIsend, Comm, Count, Type, Dest, Tag), Request,
      [&] { return Real(Buf, Count, Type, Dest, Tag, Comm, Request); });
}

INTERCEPTOR(int, MPI_Issend, const void *Buf, int Count, MPI_Datatype Type,
            int Dest, int Tag, MPI_Comm Comm, MPI_Request *Request) {
  HOOK_ENTER(MPI_Issend, Buf, Count, Type, Dest, Tag, Comm, Request);
  return recordNonBlocking(
      HOOK_FRAME, p2p(OpCode::MpiIssend, Comm, Count, Type, Dest, Tag), Request,
      [&] { return Real(Buf, Count, Type, Dest, Tag, Comm, Request); });
}

INTERCEPTOR(int, MPI_Recv, void *Buf, int Count, MPI_Datatype Type, int Source,
            int Tag, MPI_Comm Comm, MPI_Status *Status) {
  HOOK_ENTER(MPI_Recv, Buf, Count, Type, Source, Tag, Comm, Status);
  return recordBlocking(
      HOOK_FRAME, p2p(OpCode::MpiRecv, Comm, Count, Type, Source, Tag),
      [&] { return Real(Buf, Count, Type, Source, Tag, Comm, Status); });
}

INTERCEPTOR(int, MPI_Irecv, void *Buf, int Count, MPI_Datatype Type, int Source,
            int Tag, MPI_Comm Comm, MPI_Request *Request) {
  HOOK_ENTER(MPI_Irecv, Buf, Count, Type, Source, Tag, Comm, Request);
  return recordNonBlocking(
      HOOK_FRAME, p2p(OpCode::MpiIrecv, Comm, Count, Type, Source, Tag),
      Request,
      [&] { return Real(Buf, Count, Type, Source, Tag, Comm, Request); });
}

INTERCEPTOR(int, MPI_Sendrecv, const void *Send, int SendCount,
            MPI_Datatype SendType, int Dest, int SendTag, void *Recv,
            int RecvCount, MPI_Datatype RecvType, int Source, int RecvTag,
            MPI_Comm Comm, MPI_Status *Status) {
  HOOK_ENTER(MPI_Sendrecv, Send, SendCount, SendType, Dest, SendTag, Recv,
             RecvCount, RecvType, Source, RecvTag, Comm, Status);
  MpiCall A =
      p2p(OpCode::MpiSendrecv, Comm, SendCount, SendType, Dest, SendTag);
  A.Aux = Source;
  return recordBlocking(HOOK_FRAME, A, [&] {
    return Real(Send, SendCount, SendType, Dest, SendTag, Recv, RecvCount,
                RecvType, Source, RecvTag, Comm, Status);
  });
}

INTERCEPTOR(int, MPI_Probe, int Source, int Tag, MPI_Comm Comm,
            MPI_Status *Status) {
  HOOK_ENTER(MPI_Probe, Source, Tag, Comm, Status);
  MpiCall A = call(OpCode::MpiProbe, Comm, 0, nullptr, Source);
  A.Tag = Tag;
  return recordBlocking(HOOK_FRAME, A,
                        [&] { return Real(Source, Tag, Comm, Status); });
}

// ---- Completion
// ---------------------------------------------------------------------------------------

INTERCEPTOR(int, MPI_Wait, MPI_Request *Request, MPI_Status *Status) {
  HOOK_ENTER(MPI_Wait, Request, Status);
  return recordWait(HOOK_FRAME, OpCode::MpiWait, 1, Request,
                    [&] { return Real(Request, Status); });
}

INTERCEPTOR(int, MPI_Waitall, int Count, MPI_Request Requests[],
            MPI_Status Statuses[]) {
  HOOK_ENTER(MPI_Waitall, Count, Requests, Statuses);
  return recordWait(HOOK_FRAME, OpCode::MpiWaitall, Count, Requests,
                    [&] { return Real(Count, Requests, Statuses); });
}

INTERCEPTOR(int, MPI_Waitany, int Count, MPI_Request Requests[], int *Index,
            MPI_Status *Status) {
  HOOK_ENTER(MPI_Waitany, Count, Requests, Index, Status);
  return recordWait(
      HOOK_FRAME, OpCode::MpiWaitany, Count, Requests,
      [&] { return Real(Count, Requests, Index, Status); }, nullptr, Index);
}

INTERCEPTOR(int, MPI_Test, MPI_Request *Request, int *Flag,
            MPI_Status *Status) {
  HOOK_ENTER(MPI_Test, Request, Flag, Status);
  return recordWait(
      HOOK_FRAME, OpCode::MpiTest, 1, Request,
      [&] { return Real(Request, Flag, Status); }, Flag);
}

INTERCEPTOR(int, MPI_Testall, int Count, MPI_Request Requests[], int *Flag,
            MPI_Status Statuses[]) {
  HOOK_ENTER(MPI_Testall, Count, Requests, Flag, Statuses);
  return recordWait(
      HOOK_FRAME, OpCode::MpiTestall, Count, Requests,
      [&] { return Real(Count, Requests, Flag, Statuses); }, Flag);
}

// ---- Communicators
// -------------------------------------------------------------------------------------

INTERCEPTOR(int, MPI_Comm_split, MPI_Comm Comm, int Color, int Key,
            MPI_Comm *NewComm) {
  HOOK_ENTER(MPI_Comm_split, Comm, Color, Key, NewComm);
  return recordDerive(HOOK_FRAME, OpCode::MpiCommSplit, Comm, Color, NewComm,
                      [&] { return Real(Comm, Color, Key, NewComm); });
}

INTERCEPTOR(int, MPI_Comm_split_type, MPI_Comm Comm, int SplitType, int Key,
            MPI_Info Info, MPI_Comm *NewComm) {
  HOOK_ENTER(MPI_Comm_split_type, Comm, SplitType, Key, Info, NewComm);
  // Members of one node get one communicator; the id cannot tell nodes
  // apart, so include the host name.
  char Host[64] = {0};
  gethostname(Host, sizeof(Host) - 1);
  int Color = int(hashBytes(Host, std::strlen(Host)) & 0x7fffffff) ^ SplitType;
  return recordDerive(
      HOOK_FRAME, OpCode::MpiCommSplitType, Comm, Color, NewComm,
      [&] { return Real(Comm, SplitType, Key, Info, NewComm); });
}

INTERCEPTOR(int, MPI_Comm_dup, MPI_Comm Comm, MPI_Comm *NewComm) {
  HOOK_ENTER(MPI_Comm_dup, Comm, NewComm);
  return recordDerive(HOOK_FRAME, OpCode::MpiCommDup, Comm, 0, NewComm,
                      [&] { return Real(Comm, NewComm); });
}

INTERCEPTOR(int, MPI_Comm_create, MPI_Comm Comm, MPI_Group Group,
            MPI_Comm *NewComm) {
  HOOK_ENTER(MPI_Comm_create, Comm, Group, NewComm);
  return recordDerive(HOOK_FRAME, OpCode::MpiCommCreate, Comm, 0, NewComm,
                      [&] { return Real(Comm, Group, NewComm); });
}

INTERCEPTOR(int, MPI_Comm_free, MPI_Comm *Comm) {
  HOOK_ENTER(MPI_Comm_free, Comm);
  CommState *C = Comm ? findComm(Api::Mpi, uintptr_t(*Comm)) : nullptr;
  int R = Real(Comm);
  if (!failed(R))
    dropComm(C);
  return R;
}
