//===- MpiRecording.cpp - What the MPI hooks share ------------------------===//
#include "MpiRecording.h"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace distlint {
namespace rt {
namespace mpi {

using Family = MpiFamily;

/// Open MPI's predefined handles are addresses of library globals.
static void *predefined(const char *Symbol) {
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

CommState *adoptComm(MPI_Comm Comm) {
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

// ---- Handle codes (cached per handle; handles are stable pointers) ----------

struct CodeCacheEntry {
  std::atomic<uintptr_t> Handle;
  std::atomic<int32_t> Code;
};
constexpr unsigned kCodeCache = 256;
static CodeCacheEntry TypeCodes[kCodeCache];

static int32_t computeTypeCode(MPI_Datatype Type) {
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

static int32_t typeCode(MPI_Datatype Type) {
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

static int32_t opCode(MPI_Op Op) {
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

// ---- Requests -> records ----------------------------------------------------

constexpr unsigned kRequestSlots = 8192;
constexpr uintptr_t kTombstone = 1;
struct RequestEntry {
  std::atomic<uintptr_t> Request;
  std::atomic<uint64_t> Slot;
};
static RequestEntry Requests[kRequestSlots];

static unsigned requestHash(uintptr_t R) {
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

/// The entry remembering request Key, or null.
static RequestEntry *findRequest(uintptr_t Key) {
  unsigned S = requestHash(Key);
  for (unsigned Probe = 0; Probe < 64; ++Probe) {
    RequestEntry &E = Requests[(S + Probe) % kRequestSlots];
    uintptr_t Cur = E.Request.load(std::memory_order_acquire);
    if (Cur == 0)
      return nullptr;
    if (Cur == Key)
      return &E;
  }
  return nullptr;
}

bool takeRequest(uintptr_t Key, uint64_t &Slot) {
  if (!Key || Key == uintptr_t(nullRequest()))
    return false;
  RequestEntry *E = findRequest(Key);
  if (!E)
    return false;
  Slot = E->Slot.load(std::memory_order_acquire);
  E->Request.store(kTombstone, std::memory_order_release);
  return true;
}

/// Slot of a request's record without forgetting it.
bool peekRequest(uintptr_t Key, uint64_t &Slot) {
  RequestEntry *E = Key ? findRequest(Key) : nullptr;
  if (!E)
    return false;
  Slot = E->Slot.load(std::memory_order_acquire);
  return true;
}

// ---- Recording --------------------------------------------------------------

DLRT_TLS HandleMemo LastHandles;

int32_t typeCodeMemoMiss(MPI_Datatype Type) {
  int32_t Code = Type ? typeCode(Type) : -1;
  if (Code == -1 || !(Code & kMpiDerivedType)) {
    LastHandles.Type = Type;
    LastHandles.TypeCode = Code;
  }
  return Code;
}

int32_t opCodeMemoMiss(MPI_Op Op) {
  int32_t Code = opCode(Op);
  if (Code != kMpiUserOp) {
    LastHandles.Op = Op;
    LastHandles.OpCode = Code;
  }
  return Code;
}

static void *exitAfterAbortGrace(void *) {
  sleep(kAbortGraceSeconds);
  logLine("rank %d: MPI_Abort did not end the job within %u s; exiting",
          globalRank(), kAbortGraceSeconds);
  _exit(134);
}

static void abortMpi(CommState *C) {
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

__attribute__((constructor)) static void registerMpiAbort() {
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

} // namespace mpi
} // namespace rt
} // namespace distlint
