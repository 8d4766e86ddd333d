//===- MpiHooks.cpp - MPI through the PMPI profiling interface ------------===//
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
#include "MpiRecording.h"

#include <unistd.h>

#include <cstring>

using namespace distlint::rt;

namespace {
using Family = mpi::MpiFamily;
} // namespace
using namespace distlint::rt::mpi;

// ---- Life cycle -------------------------------------------------------------

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

// ---- Collectives ------------------------------------------------------------
//
// Hooks whose signature is a shape several MPI calls share are generated
// from one row each: the C name and its op-table entry (OpTable.def); the
// others are written out.

/// (send, recv, count, type, op, comm)
#define MPI_REDUCTION_HOOK(Name, Code)                                         \
  INTERCEPTOR(int, Name, const void *Send, void *Recv, int Count,              \
              MPI_Datatype Type, MPI_Op Op, MPI_Comm Comm) {                   \
    HOOK_ENTER(Name, Send, Recv, Count, Type, Op, Comm);                       \
    return recordBlocking(                                                     \
        HOOK_FRAME, reduction(OpCode::Code, Comm, Count, Type, Op),            \
        [&] { return Real(Send, Recv, Count, Type, Op, Comm); });              \
  }

MPI_REDUCTION_HOOK(MPI_Allreduce, MpiAllreduce)
MPI_REDUCTION_HOOK(MPI_Scan, MpiScan)
MPI_REDUCTION_HOOK(MPI_Exscan, MpiExscan)

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

// ---- Point-to-point ---------------------------------------------------------

namespace {
MpiCall p2p(OpCode Op, MPI_Comm Comm, int Count, MPI_Datatype Type, int Peer,
            int Tag) {
  MpiCall A = call(Op, Comm, Count, Type, Peer);
  A.Tag = Tag;
  return A;
}
} // namespace

/// (buf, count, type, dest, tag, comm)
#define MPI_SEND_HOOK(Name, Code)                                              \
  INTERCEPTOR(int, Name, const void *Buf, int Count, MPI_Datatype Type,        \
              int Dest, int Tag, MPI_Comm Comm) {                              \
    HOOK_ENTER(Name, Buf, Count, Type, Dest, Tag, Comm);                       \
    return recordBlocking(                                                     \
        HOOK_FRAME, p2p(OpCode::Code, Comm, Count, Type, Dest, Tag),           \
        [&] { return Real(Buf, Count, Type, Dest, Tag, Comm); });              \
  }
/// (buf, count, type, dest, tag, comm, request)
#define MPI_ISEND_HOOK(Name, Code)                                             \
  INTERCEPTOR(int, Name, const void *Buf, int Count, MPI_Datatype Type,        \
              int Dest, int Tag, MPI_Comm Comm, MPI_Request *Request) {        \
    HOOK_ENTER(Name, Buf, Count, Type, Dest, Tag, Comm, Request);              \
    return recordNonBlocking(                                                  \
        HOOK_FRAME, p2p(OpCode::Code, Comm, Count, Type, Dest, Tag), Request,  \
        [&] { return Real(Buf, Count, Type, Dest, Tag, Comm, Request); });     \
  }

MPI_SEND_HOOK(MPI_Send, MpiSend)
MPI_SEND_HOOK(MPI_Ssend, MpiSsend)
MPI_ISEND_HOOK(MPI_Isend, MpiIsend)
MPI_ISEND_HOOK(MPI_Issend, MpiIssend)

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

// ---- Completion -------------------------------------------------------------

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

// ---- Communicators ----------------------------------------------------------

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
