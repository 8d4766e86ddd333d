//===- MpiRecording.h - What the MPI hooks share ----------------*- C++ -*-===//
//
// The MPI hooks' family (Intercept.h), Open MPI's predefined handles found
// at run time, the communicator and request tables, and the record
// sequences of a blocking call, a non-blocking one, a wait and a derived
// communicator. MpiHooks.cpp holds the hooks themselves.
//
//===----------------------------------------------------------------------===//
#pragma once

#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include "Intercept.h"
#include "Runtime.h"

namespace distlint {
namespace rt {
namespace mpi {

inline constexpr int kMpiErrIntern = 16; // MPI_ERR_INTERN in Open MPI.
inline constexpr uint64_t kWorldId = 0x574f524c44ull; // "WORLD"
inline constexpr uint64_t kSelfId = 0x53454c46ull;    // "SELF"
/// How long MPI_Abort may take to end the job before this rank exits itself.
inline constexpr unsigned kAbortGraceSeconds = 10;

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

inline bool failed(int R) { return R != MPI_SUCCESS; }

MPI_Comm worldComm();
MPI_Comm selfComm();
MPI_Comm nullComm();
MPI_Request nullRequest();
/// Asks MPI (not through our hooks) for rank and size.
void rankAndSize(MPI_Comm Comm, int &Rank, int &Size);
/// The state of a communicator met for the first time (registered), or
/// null (MPI_COMM_NULL).
CommState *adoptComm(MPI_Comm Comm);
/// The communicator's state; one met for the first time is adopted.
inline CommState *commState(MPI_Comm Comm) {
  if (CommState *C = findComm(Api::Mpi, uintptr_t(Comm)))
    return C;
  return adoptComm(Comm);
}

/// The operation a request belongs to, by the record's slot.
void rememberRequest(MPI_Request Request, uint64_t Slot);
bool takeRequest(uintptr_t Key, uint64_t &Slot);
/// Slot of a request's record without forgetting it.
bool peekRequest(uintptr_t Key, uint64_t &Slot);

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

inline MpiCall call(OpCode Op, MPI_Comm Comm, int Count = 0,
                    MPI_Datatype Type = nullptr, int Peer = kNoPeer) {
  return MpiCall{Op, Comm, Count, Type, nullptr, false, Peer, 0, 0};
}
inline MpiCall reduction(OpCode Op, MPI_Comm Comm, int Count, MPI_Datatype Type,
                         MPI_Op RedOp, int Root = kNoPeer) {
  return MpiCall{Op, Comm, Count, Type, RedOp, true, Root, 0, 0};
}

/// The type and operation of this thread's last call and their codes: a
/// loop calls MPI with the same ones over and over (the communicator's
/// memo is findComm's). Only predefined ones are kept: derived types and
/// user operations may be freed and their address reused.
struct HandleMemo {
  MPI_Datatype Type = nullptr;
  int32_t TypeCode = -1;
  MPI_Op Op = nullptr;
  int32_t OpCode = kMpiUserOp; ///< What the table says of a null handle.
};
extern DLRT_TLS HandleMemo LastHandles;
/// Look the handle up and remember it when its answer is stable.
int32_t typeCodeMemoMiss(MPI_Datatype Type);
int32_t opCodeMemoMiss(MPI_Op Op);

/// The record's fields for call A, and its sequence number (taken).
DLRT_ALWAYS_INLINE OpDesc describe(const MpiCall &A) {
  const HandleMemo &M = LastHandles;
  OpDesc D;
  D.Op = A.Op;
  D.Comm = commState(A.Comm);
  D.Count = uint64_t(A.Count < 0 ? 0 : A.Count);
  D.DataType =
      DLRT_LIKELY(A.Type == M.Type) ? M.TypeCode : typeCodeMemoMiss(A.Type);
  if (A.HasRedOp)
    D.RedOp = DLRT_LIKELY(A.RedOp == M.Op) ? M.OpCode : opCodeMemoMiss(A.RedOp);
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

/// After MPI_Init*: the world communicator and the global rank.
void afterInit(int R, void *HookFrame);

/// A blocking MPI call: watched until it returns.
template <class Call>
DLRT_ALWAYS_INLINE int recordBlocking(void *HookFrame, const MpiCall &A,
                                      Call &&Real) {
  RecordedCall Rec(HookFrame);
  if (!Rec)
    return Real();
  TraceWriter *T = Rec.trace();
  const CallSite &Site = Rec.site();
  OpHandle H = beginOp(*T, describe(A), Site, /*Track=*/true);
  int R = Real();
  ErrnoKeeper Keep;
  endOpBlocking(H, R, failed(R));
  return R;
}

/// A non-blocking MPI call: complete when its request is.
template <class Call>
DLRT_ALWAYS_INLINE int recordNonBlocking(void *HookFrame, const MpiCall &A,
                                         MPI_Request *Request, Call &&Real) {
  RecordedCall Rec(HookFrame);
  if (!Rec)
    return Real();
  TraceWriter *T = Rec.trace();
  const CallSite &Site = Rec.site();
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

/// Derived communicators: a collective over the parent, then registration
/// with an id all members compute alike.
template <class Call>
int recordDerive(void *HookFrame, OpCode Op, MPI_Comm Parent, int Color,
                 MPI_Comm *NewComm, Call &&Real) {
  RecordedCall Rec(HookFrame);
  if (!Rec)
    return Real();
  TraceWriter *T = Rec.trace();
  const CallSite &Site = Rec.site();
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

} // namespace mpi
} // namespace rt
} // namespace distlint
