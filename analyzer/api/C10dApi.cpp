//===- C10dApi.cpp - LibTorch c10d: process groups, backends, stores ------===//
//
// LibTorch 1.13 declares the collectives on c10d::ProcessGroup; 2.x declares
// them on c10d::Backend (ProcessGroupGloo/NCCL/MPI derive from it) and keeps
// same-named dispatching wrappers on ProcessGroup. Rows name the base-class
// methods; ApiIndex reaches them from subclasses, overrides and every kind of
// receiver. Argument positions count explicit arguments; the receiver is the
// communicator. Root and reduce op live in the options struct: the rows list
// the option fields that must agree across ranks (RowFacts::agree).
//
//===----------------------------------------------------------------------===//
#include "ApiTable.h"

namespace distlint {
namespace api {
namespace {

constexpr ArgRoles A;
constexpr Family F = Family::C10d;

// Collective methods, shared by c10d::ProcessGroup and c10d::Backend.
#define C10D_METHOD_ROWS(Class, TypeFacts)                                     \
  {F, Role::Collective, Class "::broadcast",                                   \
   A.send(0).recv(0).options(1), RowFacts().agree(RootRank | RootTensor)},     \
  {F, Role::Collective, Class "::allreduce",                                   \
   A.send(0).recv(0).options(1), RowFacts().agree(ReduceOp)},                  \
  {F, Role::Collective, Class "::allreduce_coalesced",                         \
   A.send(0).recv(0).options(1), RowFacts().agree(ReduceOp)},                  \
  {F, Role::Collective, Class "::reduce",                                      \
   A.send(0).recvVaries(0).options(1),                                         \
   RowFacts().agree(ReduceOp | RootRank | RootTensor)},                        \
  {F, Role::Collective, Class "::allgather",                                   \
   A.recv(0).send(1).options(2)},                                              \
  {F, Role::Collective, Class "::_allgather_base",                             \
   A.recv(0).send(1).options(2)},                                              \
  {F, Role::Collective, Class "::allgather_coalesced",                         \
   A.recv(0).send(1).options(2)},                                              \
  {F, Role::Collective, Class "::gather",                                      \
   A.recvVaries(0).send(1).options(2), RowFacts().agree(RootRank)},            \
  {F, Role::Collective, Class "::scatter",                                     \
   A.recvVaries(0).send(1).options(2), RowFacts().agree(RootRank)},            \
  {F, Role::Collective, Class "::reduce_scatter",                              \
   A.recvVaries(0).send(1).options(2), RowFacts().agree(ReduceOp)},            \
  {F, Role::Collective, Class "::_reduce_scatter_base",                        \
   A.recvVaries(0).send(1).options(2), RowFacts().agree(ReduceOp)},            \
  {F, Role::Collective, Class "::alltoall_base",                               \
   A.recvVaries(0).send(1).options(4)},                                        \
  {F, Role::Collective, Class "::alltoall",                                    \
   A.recvVaries(0).send(1).options(2)},                                        \
  {F, Role::Collective, Class "::barrier", A.options(0)},                      \
  {F, Role::Collective, Class "::monitoredBarrier", A.options(0)},             \
  {F, Role::Collective, Class "::setSequenceNumberForGroup", A},               \
  {F, Role::PointToPoint, Class "::send", A.send(0).peer(1).tag(2)},           \
  {F, Role::PointToPoint, Class "::recv", A.recvVaries(0).peer(1).tag(2)},     \
  {F, Role::PointToPoint, Class "::recvAnysource", A.recvVaries(0).tag(1)},    \
  {F, Role::RankSource, Class "::getRank", A},                                 \
  {F, Role::WorldSizeSource, Class "::getSize", A},                            \
  {F, Role::UniformValue, Class "::getBackendName", A},                        \
  {F, Role::GroupStart, Class "::startCoalescing", A},                         \
  {F, Role::GroupEnd, Class "::endCoalescing", A},                             \
  {F, Role::ProcessGroupType, Class, A, TypeFacts}

const ApiEntry Rows[] = {
    C10D_METHOD_ROWS("c10d::ProcessGroup", RowFacts()),
    C10D_METHOD_ROWS("c10d::Backend", RowFacts().since(2)),

    // ProcessGroupNCCL's out-of-place extras.
    {F, Role::Collective, "c10d::ProcessGroupNCCL::_broadcast_oop",
     A.recv(0).send(1).options(2), RowFacts().agree(RootRank | RootTensor)},
    {F, Role::Collective, "c10d::ProcessGroupNCCL::_reduce_oop",
     A.recvVaries(0).send(1).options(2),
     RowFacts().agree(ReduceOp | RootRank | RootTensor)},

    // c10d::ops (LibTorch 1.13; gone in 2.x): the process group is argument 0.
    {F, Role::Collective, "c10d::ops::broadcast",
     A.comm(0).send(1).recv(1).options(2),
     RowFacts().agree(RootRank | RootTensor)},
    {F, Role::Collective, "c10d::ops::allreduce",
     A.comm(0).send(1).recv(1).options(2), RowFacts().agree(ReduceOp)},
    {F, Role::Collective, "c10d::ops::allgather",
     A.comm(0).recv(1).send(2).options(3)},
    {F, Role::Collective, "c10d::ops::reduce_scatter",
     A.comm(0).recvVaries(1).send(2).options(3), RowFacts().agree(ReduceOp)},
    {F, Role::Collective, "c10d::ops::reduce",
     A.comm(0).send(1).recvVaries(1).options(2),
     RowFacts().agree(ReduceOp | RootRank | RootTensor)},
    {F, Role::Collective, "c10d::ops::gather",
     A.comm(0).recvVaries(1).send(2).options(3), RowFacts().agree(RootRank)},
    {F, Role::Collective, "c10d::ops::scatter",
     A.comm(0).recvVaries(1).send(2).options(3), RowFacts().agree(RootRank)},
    {F, Role::Collective, "c10d::ops::alltoall",
     A.comm(0).recvVaries(1).send(2).options(3)},
    {F, Role::Collective, "c10d::ops::barrier", A.comm(0).options(1)},
    {F, Role::PointToPoint, "c10d::ops::send",
     A.comm(0).send(1).peer(2).tag(3)},
    {F, Role::PointToPoint, "c10d::ops::recv",
     A.comm(0).recvVaries(1).peer(2).tag(3)},

    // Process-group / backend classes.
    {F, Role::ProcessGroupType, "c10d::ProcessGroupGloo", A,
     RowFacts().backend(PgBackend::Gloo)},
    {F, Role::ProcessGroupType, "c10d::ProcessGroupNCCL", A,
     RowFacts().backend(PgBackend::Nccl)},
    {F, Role::ProcessGroupType, "c10d::ProcessGroupMPI", A,
     RowFacts().backend(PgBackend::Mpi)},
    {F, Role::ProcessGroupType, "c10d::ProcessGroupUCC", A,
     RowFacts().backend(PgBackend::Ucc)},

    // Communicator creation. Options carry the timeout (see TimeoutKnob).
    {F, Role::CommInit, "c10d::ProcessGroupGloo::ProcessGroupGloo",
     A.rank(1).worldSize(2).options(3), "c10d::ProcessGroupGloo::Options"},
    {F, Role::CommInit, "c10d::ProcessGroupNCCL::ProcessGroupNCCL",
     A.rank(1).worldSize(2).options(3).numParams(4),
     "c10d::ProcessGroupNCCL::Options"},
    {F, Role::CommInit, "c10d::ProcessGroupNCCL::ProcessGroupNCCL",
     A.rank(1).worldSize(2).options(4).numParams(5),
     "c10d::ProcessGroupNCCL::Options (deprecated groupName overload)"},
    {F, Role::CommInit, "c10d::ProcessGroupGloo::createProcessGroupGloo",
     A.rank(1).worldSize(2).timeout(3), "LibTorch 2.x"},
    {F, Role::CommInit, "c10d::ProcessGroupMPI::createProcessGroupMPI", A,
     "no timeout: MPI has none"},
    {F, Role::CommInit, "c10d::ProcessGroupMPI::ProcessGroupMPI",
     A.rank(0).worldSize(1).comm(2)},
    {F, Role::CommInit, "c10d::ProcessGroup::ProcessGroup",
     A.rank(1).worldSize(2).numParams(3),
     "LibTorch 2.x wrapper; backends are set with setBackend"},

    // Timeout knobs: option fields. Rows name the declaring class (what a
    // MemberExpr refers to) and, for findMember's ObjectClass lookup, the
    // classes users spell.
    {F, Role::TimeoutKnob, "c10d::ProcessGroup::Options::timeout", A,
     "1.13 base of Gloo/NCCL options; default 30 min"},
    {F, Role::TimeoutKnob, "c10d::Backend::Options::timeout", A,
     "2.x base of Gloo/NCCL options; default 30 min"},
    {F, Role::TimeoutKnob, "c10d::Options::timeout", A,
     "1.13 Backend.hpp options"},
    {F, Role::TimeoutKnob, "c10d::ProcessGroupGloo::Options::timeout", A},
    {F, Role::TimeoutKnob, "c10d::ProcessGroupNCCL::Options::timeout", A},
    {F, Role::TimeoutKnob, "c10d::TCPStoreOptions::timeout", A,
     RowFacts().storeTimeout(), "store timeout; default 300 s"},
    {F, Role::TimeoutKnob, "c10d::DistributedBackendOptions::timeout", A},
    // Timeout knobs: constructor and factory arguments.
    {F, Role::TimeoutKnob, "c10d::ProcessGroup::Options::Options",
     A.timeout(1)},
    {F, Role::TimeoutKnob, "c10d::Backend::Options::Options", A.timeout(1)},
    {F, Role::TimeoutKnob, "c10d::Options::Options", A.timeout(1)},
    {F, Role::TimeoutKnob, "c10d::ProcessGroupGloo::Options::Options",
     A.timeout(0)},
    {F, Role::TimeoutKnob, "c10d::ProcessGroupGloo::Options::create",
     A.timeout(0)},
    {F, Role::TimeoutKnob, "c10d::ProcessGroupGloo::createProcessGroupGloo",
     A.timeout(3)},
    {F, Role::TimeoutKnob, "c10d::Store::Store", A.timeout(0).numParams(1)},
    {F, Role::TimeoutKnob, "c10d::Store::setTimeout", A.timeout(0)},
    // Raw Gloo (the transport under c10d's Gloo backend): a context's
    // timeout bounds every wait of its collectives.
    {F, Role::TimeoutKnob, "gloo::Context::setTimeout", A.timeout(0)},
    {F, Role::TimeoutKnob, "c10d::TCPStore::TCPStore",
     A.timeout(4).numParams(6), "1.13 deprecated (host, port, ...) overload"},
    {F, Role::TimeoutKnob, "c10d::TCPStore::TCPStore",
     A.options(1).numParams(2), "c10d::TCPStoreOptions::timeout"},
    // The env-var name constants of ProcessGroupNCCL.hpp (setenv(c10d::
    // NCCL_ASYNC_ERROR_HANDLING, "0", 1) disables the watchdog's abort).
    {F, Role::TimeoutKnob, "c10d::NCCL_ASYNC_ERROR_HANDLING", A,
     RowFacts().disabledBy(0)},
    {F, Role::TimeoutKnob, "c10d::TORCH_NCCL_ASYNC_ERROR_HANDLING", A,
     RowFacts().disabledBy(0)},
    {F, Role::TimeoutKnob, "c10d::TORCH_NCCL_ENABLE_MONITORING", A,
     RowFacts().disabledBy(0)},
    // Named timeout values.
    {F, Role::TimeoutConstant, "kNoTimeout", A,
     RowFacts().timeout(TimeoutValue::Infinite)},
    {F, Role::TimeoutConstant, "c10d::Store::kNoTimeout", A,
     RowFacts().timeout(TimeoutValue::Infinite)},
    {F, Role::TimeoutConstant, "gloo::kNoTimeout", A,
     RowFacts().timeout(TimeoutValue::Infinite)},
    {F, Role::TimeoutConstant, "c10d::Store::kDefaultTimeout", A,
     RowFacts().timeout(TimeoutValue::Default).storeTimeout()},
    {F, Role::TimeoutConstant, "c10d::kUnsetTimeout", A,
     RowFacts().timeout(TimeoutValue::Unset)},
    // The process-group defaults, a backend's own first (2.2 and later:
    // NCCL's is 10 minutes), then 2.x's backend default, then 1.13's; the
    // first one the headers declare applies.
    {F, Role::TimeoutConstant, "c10d::kProcessGroupNCCLDefaultTimeout", A,
     RowFacts().timeout(TimeoutValue::Default).backend(PgBackend::Nccl)},
    {F, Role::TimeoutConstant, "kBackendDefaultTimeout", A,
     RowFacts().timeout(TimeoutValue::Default)},
    {F, Role::TimeoutConstant, "kProcessGroupDefaultTimeout", A,
     RowFacts().timeout(TimeoutValue::Default)},
    {F, Role::TimeoutConstant, "kDefaultTimeout", A,
     RowFacts().timeout(TimeoutValue::Default)},

    // Stores.
    {F, Role::StoreType, "c10d::Store", A},
    {F, Role::StoreType, "c10d::FileStore", A},
    {F, Role::StoreType, "c10d::TCPStore", A},
    {F, Role::StoreType, "c10d::PrefixStore", A},
    {F, Role::StoreType, "c10d::HashStore", A},
    // One rank sets a key, every reader waits for it and gets its bytes
    // (overrides of the base method match too).
    {F, Role::StoreRead, "c10d::Store::get", A},

    // Completion of asynchronous work.
    {F, Role::Wait, "c10d::Work::wait", A.timeout(0)},
    {F, Role::AsyncErrorCheck, "c10d::Work::abort", A},
    {F, Role::AsyncErrorCheck, "c10d::ProcessGroupMPI::abort", A},
};

#undef C10D_METHOD_ROWS

} // namespace

llvm::ArrayRef<ApiEntry> c10dTable() { return Rows; }

} // namespace api
} // namespace distlint
