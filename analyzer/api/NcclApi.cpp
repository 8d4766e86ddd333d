//===- NcclApi.cpp - NCCL 2.x ----------------------------------------------===//
//
// Every collective and point-to-point call takes (..., comm, stream) last.
// Communicator creation is itself collective over the future members
// (ncclCommInitRank blocks until all nranks joined; ncclCommSplit is
// collective over the parent), so those rows appear as Collective too.
//
//===----------------------------------------------------------------------===//
#include "ApiTable.h"

namespace distlint {
namespace api {
namespace {

constexpr ArgRoles A;
constexpr Family F = Family::Nccl;

const ApiEntry Rows[] = {
    // Collectives.
    {F, Role::Collective, "ncclAllReduce",
     A.send(0).recv(1).count(2).dtype(3).op(4).comm(5).stream(6)},
    {F, Role::Collective, "ncclBroadcast",
     A.send(0).recv(1).count(2).dtype(3).root(4).comm(5).stream(6)},
    {F, Role::Collective, "ncclBcast",
     A.send(0).recv(0).count(1).dtype(2).root(3).comm(4).stream(5)},
    {F, Role::Collective, "ncclReduce",
     A.send(0).recvVaries(1).count(2).dtype(3).op(4).root(5).comm(6).stream(
         7)},
    {F, Role::Collective, "ncclAllGather",
     A.send(0).recv(1).count(2).dtype(3).comm(4).stream(5)},
    {F, Role::Collective, "ncclReduceScatter",
     A.send(0).recvVaries(1).count(2).dtype(3).op(4).comm(5).stream(6)},
    {F, Role::Collective, "ncclAlltoAll",
     A.send(0).recvVaries(1).count(2).dtype(3).comm(4).stream(5)},
    {F, Role::Collective, "ncclGather",
     A.send(0).recvVaries(1).count(2).dtype(3).root(4).comm(5).stream(6)},
    {F, Role::Collective, "ncclScatter",
     A.send(0).recvVaries(1).count(2).dtype(3).root(4).comm(5).stream(6)},

    // Point-to-point.
    {F, Role::PointToPoint, "ncclSend",
     A.send(0).count(1).dtype(2).peer(3).comm(4).stream(5)},
    {F, Role::PointToPoint, "ncclRecv",
     A.recvVaries(0).count(1).dtype(2).peer(3).comm(4).stream(5)},

    // Group calls: collectives between them are issued at ncclGroupEnd.
    {F, Role::GroupStart, "ncclGroupStart", A},
    {F, Role::GroupEnd, "ncclGroupEnd", A},

    // Communicator creation (blocking unless ncclConfig_t::blocking = 0).
    {F, Role::CommInit, "ncclCommInitRank",
     A.out(0).worldSize(1).rank(3)},
    {F, Role::CommInit, "ncclCommInitRankConfig",
     A.out(0).worldSize(1).rank(3).options(4), "ncclConfig_t::blocking"},
    {F, Role::CommInit, "ncclCommInitRankScalable",
     A.out(0).worldSize(1).rank(2).options(5), "ncclConfig_t::blocking"},
    {F, Role::CommInit, "ncclCommInitAll", A.out(0).worldSize(1),
     "single process, all devices"},
    {F, Role::CommInit, "ncclCommSplit",
     A.comm(0).color(1).out(3).options(4)},
    {F, Role::CommInit, "ncclCommShrink", A.comm(0).out(3).options(4)},
    {F, Role::Collective, "ncclCommInitRank", A.worldSize(1).rank(3),
     RowFacts().createsCommunicator(), "communicator creation"},
    {F, Role::Collective, "ncclCommInitRankConfig", A.worldSize(1).rank(3),
     RowFacts().createsCommunicator(), "communicator creation"},
    {F, Role::Collective, "ncclCommInitRankScalable", A.worldSize(1).rank(2),
     RowFacts().createsCommunicator(), "communicator creation"},
    {F, Role::Collective, "ncclCommSplit", A.comm(0),
     RowFacts().createsCommunicator(), "communicator creation"},
    {F, Role::Collective, "ncclCommShrink", A.comm(0),
     RowFacts().createsCommunicator(), "communicator creation"},
    {F, Role::CommSplit, "ncclCommSplit", A.comm(0).color(1).out(3)},
    {F, Role::CommSplit, "ncclCommShrink", A.comm(0).out(3)},

    // Detecting and aborting hung communicators.
    {F, Role::AsyncErrorCheck, "ncclCommGetAsyncError", A.comm(0).out(1)},
    {F, Role::AsyncErrorCheck, "ncclCommAbort", A.comm(0)},
    {F, Role::AsyncErrorCheck, "ncclCommRevoke", A.comm(0)},

    // Rank and size of a communicator.
    {F, Role::RankSource, "ncclCommUserRank", A.comm(0).out(1)},
    {F, Role::WorldSizeSource, "ncclCommCount", A.comm(0).out(1)},
    {F, Role::RankSource, "ncclCommCuDevice", A.comm(0).out(1),
     "device of this rank (usually its local rank)"},
};

} // namespace

llvm::ArrayRef<ApiEntry> ncclTable() { return Rows; }

} // namespace api
} // namespace distlint
