//===- MpiApi.cpp - MPI-3 C API --------------------------------------------===//
//
// Count/DType/Root/Op are the arguments every rank must pass alike. The
// v-variants (Gatherv, Scatterv, Allgatherv, Alltoallv, Reduce_scatter) take
// per-rank counts by design, so their Count is left unset. Recv marks a buffer
// that holds the same data on every rank afterwards; RecvVaries one whose
// contents differ per rank (scatter, reduce at the root, scan, receives).
//
//===----------------------------------------------------------------------===//
#include "ApiTable.h"

namespace distlint {
namespace api {
namespace {

constexpr ArgRoles A;
constexpr Family F = Family::Mpi;

// MPI_Reduce / MPI_Allreduce-shaped arguments.
constexpr ArgRoles AllreduceArgs = A.send(0).recv(1).count(2).dtype(3).op(4);
constexpr ArgRoles ScanArgs = A.send(0).recvVaries(1).count(2).dtype(3).op(4);
// MPI_Gather / MPI_Allgather / MPI_Alltoall-shaped arguments.
// MPI_IN_PLACE as the send buffer: the rank's send count and type are not
// read (gather at the root, allgather, alltoall).
constexpr ArgRoles GatherArgs = A.send(0).inPlace(0).count(1).dtype(2);
/// Scatter: the receive side counts (the root's buffer may be MPI_IN_PLACE).
constexpr ArgRoles ScatterArgs =
    A.send(0).recvVaries(3).inPlace(3).count(4).dtype(5).root(6).comm(7);
constexpr ArgRoles SendArgs = A.send(0).count(1).dtype(2).peer(3).tag(4);
constexpr ArgRoles RecvArgs = A.recvVaries(0).count(1).dtype(2).peer(3).tag(4);

const ApiEntry Rows[] = {
    // Blocking collectives.
    {F, Role::Collective, "MPI_Barrier", A.comm(0)},
    {F, Role::Collective, "MPI_Bcast",
     A.send(0).recv(0).count(1).dtype(2).root(3).comm(4)},
    {F, Role::Collective, "MPI_Reduce",
     A.send(0).recvVaries(1).count(2).dtype(3).op(4).root(5).comm(6)},
    {F, Role::Collective, "MPI_Allreduce", AllreduceArgs.comm(5)},
    {F, Role::Collective, "MPI_Gather",
     GatherArgs.recvVaries(3).root(6).comm(7)},
    {F, Role::Collective, "MPI_Gatherv",
     A.send(0).inPlace(0).dtype(2).recvVaries(3).root(7).comm(8)},
    {F, Role::Collective, "MPI_Scatter", ScatterArgs},
    {F, Role::Collective, "MPI_Scatterv",
     A.send(0).recvVaries(4).inPlace(4).dtype(6).root(7).comm(8)},
    {F, Role::Collective, "MPI_Allgather", GatherArgs.recv(3).comm(6)},
    {F, Role::Collective, "MPI_Allgatherv",
     A.send(0).inPlace(0).dtype(2).recv(3).comm(7)},
    {F, Role::Collective, "MPI_Alltoall", GatherArgs.recvVaries(3).comm(6)},
    {F, Role::Collective, "MPI_Alltoallv",
     A.send(0).inPlace(0).dtype(3).recvVaries(4).comm(8)},
    {F, Role::Collective, "MPI_Reduce_scatter",
     A.send(0).recvVaries(1).dtype(3).op(4).comm(5)},
    {F, Role::Collective, "MPI_Reduce_scatter_block", ScanArgs.comm(5)},
    {F, Role::Collective, "MPI_Scan", ScanArgs.comm(5)},
    {F, Role::Collective, "MPI_Exscan", ScanArgs.comm(5)},

    // Nonblocking collectives: collective at the call, completed by Wait.
    {F, Role::Collective, "MPI_Ibarrier", A.comm(0).request(1)},
    {F, Role::Collective, "MPI_Ibcast",
     A.send(0).recv(0).count(1).dtype(2).root(3).comm(4).request(5)},
    {F, Role::Collective, "MPI_Ireduce",
     A.send(0).recvVaries(1).count(2).dtype(3).op(4).root(5).comm(6).request(
         7)},
    {F, Role::Collective, "MPI_Iallreduce", AllreduceArgs.comm(5).request(6)},
    {F, Role::Collective, "MPI_Igather",
     GatherArgs.recvVaries(3).root(6).comm(7).request(8)},
    {F, Role::Collective, "MPI_Iscatter", ScatterArgs.request(8)},
    {F, Role::Collective, "MPI_Iallgather",
     GatherArgs.recv(3).comm(6).request(7)},
    {F, Role::Collective, "MPI_Ialltoall",
     GatherArgs.recvVaries(3).comm(6).request(7)},
    {F, Role::Collective, "MPI_Ireduce_scatter_block",
     ScanArgs.comm(5).request(6)},
    {F, Role::Collective, "MPI_Iscan", ScanArgs.comm(5).request(6)},
    {F, Role::Collective, "MPI_Iexscan", ScanArgs.comm(5).request(6)},
    {F, Role::Collective, "MPI_Igatherv",
     A.send(0).inPlace(0).dtype(2).recvVaries(3).root(7).comm(8).request(9)},
    {F, Role::Collective, "MPI_Iscatterv",
     A.send(0).recvVaries(4).inPlace(4).dtype(6).root(7).comm(8).request(9)},
    {F, Role::Collective, "MPI_Iallgatherv",
     A.send(0).inPlace(0).dtype(2).recv(3).comm(7).request(8)},
    {F, Role::Collective, "MPI_Ialltoallv",
     A.send(0).inPlace(0).dtype(3).recvVaries(4).comm(8).request(9)},
    {F, Role::Collective, "MPI_Alltoallw", A.send(0).recvVaries(4).comm(8)},
    {F, Role::Collective, "MPI_Ialltoallw",
     A.send(0).recvVaries(4).comm(8).request(9)},
    {F, Role::Collective, "MPI_Ireduce_scatter",
     A.send(0).recvVaries(1).dtype(3).op(4).comm(5).request(6)},

    // Neighborhood collectives: collective over the whole communicator
    // (every member calls them, in the same order); counts are per neighbor.
    {F, Role::Collective, "MPI_Neighbor_allgather",
     GatherArgs.recvVaries(3).comm(6)},
    {F, Role::Collective, "MPI_Ineighbor_allgather",
     GatherArgs.recvVaries(3).comm(6).request(7)},
    {F, Role::Collective, "MPI_Neighbor_allgatherv",
     A.send(0).dtype(2).recvVaries(3).comm(7)},
    {F, Role::Collective, "MPI_Ineighbor_allgatherv",
     A.send(0).dtype(2).recvVaries(3).comm(7).request(8)},
    {F, Role::Collective, "MPI_Neighbor_alltoall",
     GatherArgs.recvVaries(3).comm(6)},
    {F, Role::Collective, "MPI_Ineighbor_alltoall",
     GatherArgs.recvVaries(3).comm(6).request(7)},
    {F, Role::Collective, "MPI_Neighbor_alltoallv",
     A.send(0).inPlace(0).dtype(3).recvVaries(4).comm(8)},
    {F, Role::Collective, "MPI_Ineighbor_alltoallv",
     A.send(0).inPlace(0).dtype(3).recvVaries(4).comm(8).request(9)},
    {F, Role::Collective, "MPI_Neighbor_alltoallw",
     A.send(0).recvVaries(4).comm(8)},
    {F, Role::Collective, "MPI_Ineighbor_alltoallw",
     A.send(0).recvVaries(4).comm(8).request(9)},

    // MPI-4 persistent collectives: the *_init call is itself collective
    // (every member, same order); MPI_Start then runs the operation.
    {F, Role::Collective, "MPI_Barrier_init", A.comm(0).request(2)},
    {F, Role::Collective, "MPI_Bcast_init",
     A.send(0).recv(0).count(1).dtype(2).root(3).comm(4).request(6)},
    {F, Role::Collective, "MPI_Reduce_init",
     A.send(0).recvVaries(1).count(2).dtype(3).op(4).root(5).comm(6).request(
         8)},
    {F, Role::Collective, "MPI_Allreduce_init",
     AllreduceArgs.comm(5).request(7)},
    {F, Role::Collective, "MPI_Gather_init",
     GatherArgs.recvVaries(3).root(6).comm(7).request(9)},
    {F, Role::Collective, "MPI_Scatter_init", ScatterArgs.request(9)},
    {F, Role::Collective, "MPI_Allgather_init",
     GatherArgs.recv(3).comm(6).request(8)},
    {F, Role::Collective, "MPI_Alltoall_init",
     GatherArgs.recvVaries(3).comm(6).request(8)},
    {F, Role::Collective, "MPI_Reduce_scatter_block_init",
     ScanArgs.comm(5).request(7)},
    {F, Role::Collective, "MPI_Scan_init", ScanArgs.comm(5).request(7)},
    {F, Role::Collective, "MPI_Exscan_init", ScanArgs.comm(5).request(7)},

    // Communicator management is collective over the parent communicator.
    {F, Role::Collective, "MPI_Comm_split", A.comm(0)},
    {F, Role::Collective, "MPI_Comm_split_type", A.comm(0)},
    {F, Role::Collective, "MPI_Comm_dup", A.comm(0)},
    {F, Role::Collective, "MPI_Comm_create", A.comm(0)},
    // MPI_Comm_free is collective in the standard, which advises that it be
    // implemented local, and every implementation does: it never waits for
    // the other members, so freeing in another order or on some ranks only
    // hangs nobody (a leak at most). It is left out like MPI_Finalize.
    {F, Role::Collective, "MPI_Cart_sub", A.comm(0)},
    {F, Role::CommSplit, "MPI_Comm_split", A.comm(0).color(1).out(3)},
    {F, Role::CommSplit, "MPI_Comm_split_type", A.comm(0).color(1).out(4)},
    {F, Role::CommSplit, "MPI_Comm_create", A.comm(0).out(2)},
    // Called by the members only: whoever holds the new communicator called
    // it, so a branch around the call and its collectives does not split
    // the members.
    {F, Role::CommSplit, "MPI_Comm_create_group", A.out(3)},
    {F, Role::CommSplit, "MPI_Intercomm_create", A.out(5)},
    // The same for the two sides of a connection through a port.
    {F, Role::CommSplit, "MPI_Comm_accept", A.out(4)},
    {F, Role::CommSplit, "MPI_Comm_connect", A.out(4)},
    {F, Role::CommDerive, "MPI_Comm_dup", A.comm(0).out(1)},
    {F, Role::CommDerive, "MPI_Comm_dup_with_info", A.comm(0).out(2)},
    {F, Role::CommDerive, "MPI_Comm_idup", A.comm(0).out(1)},
    {F, Role::CommDerive, "MPI_Intercomm_merge", A.comm(0).out(2)},
    {F, Role::CommSplit, "MPI_Cart_sub", A.comm(0).out(2)},

    // Collective I/O: collective over the communicator the file was opened
    // on, which the file handle stands for (its membership too: a file
    // opened on MPI_COMM_SELF is the caller's alone). Counts and offsets
    // are each rank's own; what is read differs per rank.
    {F, Role::Collective, "MPI_File_open", A.comm(0)},
    {F, Role::CommDerive, "MPI_File_open", A.comm(0).out(4)},
    {F, Role::Collective, "MPI_File_close", A.comm(0)},
    {F, Role::Collective, "MPI_File_set_view", A.comm(0)},
    {F, Role::Collective, "MPI_File_set_size", A.comm(0)},
    {F, Role::Collective, "MPI_File_preallocate", A.comm(0)},
    {F, Role::Collective, "MPI_File_sync", A.comm(0)},
    {F, Role::Collective, "MPI_File_set_atomicity", A.comm(0)},
    {F, Role::Collective, "MPI_File_read_all", A.comm(0).recvVaries(1)},
    {F, Role::Collective, "MPI_File_write_all", A.comm(0).send(1)},
    {F, Role::Collective, "MPI_File_read_at_all", A.comm(0).recvVaries(2)},
    {F, Role::Collective, "MPI_File_write_at_all", A.comm(0).send(2)},
    {F, Role::Collective, "MPI_File_read_ordered", A.comm(0).recvVaries(1)},
    {F, Role::Collective, "MPI_File_write_ordered", A.comm(0).send(1)},
    {F, Role::Collective, "MPI_File_iread_all",
     A.comm(0).recvVaries(1).request(4)},
    {F, Role::Collective, "MPI_File_iwrite_all", A.comm(0).send(1).request(4)},
    {F, Role::Collective, "MPI_File_iread_at_all",
     A.comm(0).recvVaries(2).request(5)},
    {F, Role::Collective, "MPI_File_iwrite_at_all",
     A.comm(0).send(2).request(5)},

    // MPI_Init/MPI_Finalize are collective in the standard but are left out:
    // every rank-conditional early exit would otherwise be reported a second
    // time at MPI_Finalize (and leaving main without it is a job abort).

    // Point-to-point.
    {F, Role::PointToPoint, "MPI_Send", SendArgs.comm(5)},
    {F, Role::PointToPoint, "MPI_Ssend", SendArgs.comm(5)},
    // A buffered send returns once the message is copied into the buffer
    // the process attached (MPI_Buffer_attach), whether or not the receive
    // is posted: like a posted send, the peer's receive completes later.
    {F, Role::PointToPoint, "MPI_Bsend", SendArgs.comm(5),
     RowFacts().completesLocally()},
    {F, Role::PointToPoint, "MPI_Rsend", SendArgs.comm(5)},
    {F, Role::PointToPoint, "MPI_Recv", RecvArgs.comm(5)},
    {F, Role::PointToPoint, "MPI_Isend", SendArgs.comm(5).request(6)},
    {F, Role::PointToPoint, "MPI_Issend", SendArgs.comm(5).request(6)},
    {F, Role::PointToPoint, "MPI_Irecv", RecvArgs.comm(5).request(6)},
    {F, Role::PointToPoint, "MPI_Sendrecv", SendArgs.recvVaries(5).comm(10)},
    {F, Role::PointToPoint, "MPI_Sendrecv_replace",
     SendArgs.recvVaries(0).comm(7)},
    {F, Role::PointToPoint, "MPI_Probe", A.peer(0).tag(1).comm(2)},
    {F, Role::PointToPoint, "MPI_Iprobe", A.peer(0).tag(1).comm(2)},

    // Completion.
    {F, Role::Wait, "MPI_Wait", A.request(0)},
    {F, Role::Wait, "MPI_Waitall", A.request(1)},
    {F, Role::Wait, "MPI_Waitany", A.request(1)},

    // Rank and size.
    {F, Role::RankSource, "MPI_Comm_rank", A.comm(0).out(1)},
    {F, Role::RankSource, "MPI_Group_rank", A.out(1)},
    {F, Role::WorldSizeSource, "MPI_Comm_size", A.comm(0).out(1)},
    {F, Role::WorldSizeSource, "MPI_Group_size", A.out(1)},

    // Values that differ per rank without a rank id: timing, completion
    // state, host names.
    {F, Role::LocalDataSource, "MPI_Wtime", A, "local clock"},
    {F, Role::Clock, "MPI_Wtime", A},
    {F, Role::LocalDataSource, "MPI_Get_processor_name", A.out(0), "host name"},
    {F, Role::LocalDataSource, "MPI_Test", A.out(1), "completion state"},
    {F, Role::LocalDataSource, "MPI_Testall", A.out(2), "completion state"},
    {F, Role::LocalDataSource, "MPI_Iprobe", A.out(3), "message arrival"},
    {F, Role::LocalDataSource, "MPI_Waitany", A.out(2), "completion order"},
    {F, Role::UniformValue, "MPI_Wtick", A},

    {F, Role::FailStop, "MPI_Abort", A.comm(0)},
};

} // namespace

llvm::StringRef inPlaceMarkerName() { return "MPI_IN_PLACE"; }
llvm::StringRef nullCommunicatorName() { return "MPI_COMM_NULL"; }
llvm::StringRef undefinedColorName() { return "MPI_UNDEFINED"; }
llvm::StringRef selfCommunicatorName() { return "MPI_COMM_SELF"; }
llvm::ArrayRef<llvm::StringRef> interRootMarkerNames() {
  static const llvm::StringRef Names[] = {"MPI_ROOT", "MPI_PROC_NULL"};
  return Names;
}

llvm::ArrayRef<ApiEntry> mpiTable() { return Rows; }

} // namespace api
} // namespace distlint
