//===- ApiTable.h - What distlint knows about distributed APIs --*- C++ -*-===//
//
// The API knowledge lives in data: one table per API (C10dApi.cpp,
// NcclApi.cpp, MpiApi.cpp, CudaApi.cpp, TorchApi.cpp, StdApi.cpp). Each row
// names a function, method or class by qualified name and says what role it
// plays. ApiIndex matches Clang declarations against the rows, following
// overridden methods and base classes, so user subclasses and calls through
// intrusive_ptr / shared_ptr / references / pointers match too.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace clang {
class Decl;
class FunctionDecl;
class CXXRecordDecl;
class NamedDecl;
} // namespace clang

namespace distlint {
namespace api {

/// User: rows the config declares. Project: facts of functions defined in
/// another TU of the project (ProjectFacts.h).
enum class Family : uint8_t {
  C10d,
  Nccl,
  Mpi,
  Cuda,
  Torch,
  Std,
  User,
  Project
};

enum class Role : uint8_t {
  Collective,      ///< Every rank of the communicator must call it.
  PointToPoint,    ///< send/recv: rank-conditional by design.
  RankSource,      ///< Returns (or writes through Args.Out) the caller's rank.
  WorldSizeSource, ///< Returns (or writes through Args.Out) the world size.
  LocalDataSource, ///< Differs per rank without a rank id: clocks, rand, files.
  TensorRead,      ///< Reads a tensor's value to the host (item, data_ptr...).
  EnvRead,         ///< getenv-style: Args.Count names the variable argument.
  EnvWrite,        ///< setenv/putenv.
  Parse,           ///< atoi/stoi...: result has the taint of its argument.
  CommSplit,       ///< Creates a sub-communicator / sub-group.
  CommInit,        ///< Creates a communicator (ncclCommInitRank...).
  AsyncErrorCheck, ///< Lets a hung collective be detected or aborted.
  DeviceSync,      ///< Device-wide synchronization.
  StreamSync,      ///< Stream synchronization.
  EventSync,       ///< Event synchronization.
  ImplicitSync,    ///< Copies device data to host (item, cpu, to(kCPU)...).
  HostWaitOnDevice,  ///< Blocks the host on queued device work (cudaMemcpy...).
  TrainingStep,      ///< backward(), optimizer step(), module forward().
  FailStop,          ///< Ends the whole job (exit, abort, MPI_Abort...).
  TimeoutKnob,       ///< A field, argument or env var that sets a timeout.
  ProcessGroupType,  ///< A process-group / backend class.
  StoreType,         ///< A c10d store class.
  SamplerType,       ///< A data sampler class.
  DataLoaderFactory, ///< make_data_loader and friends.
  SetEpoch,          ///< sampler.set_epoch().
  DeviceSelect, ///< Chooses a device (torch::Device, kCUDA, cudaSetDevice).
  UniformValue, ///< Returns the same value on every rank.
  ShapeQuery,   ///< size()/numel()/begin(): reads a container's shape, not its
                ///< contents.
  // Added by the API tables:
  Wait,              ///< Completes a nonblocking operation (Args.Request).
  TimeoutConstant,   ///< A named timeout value (RowFacts::Timeout).
  GroupStart,        ///< Opens a group of fused collectives (ncclGroupStart).
  GroupEnd,          ///< Closes it (ncclGroupEnd); the group issues here.
  DataLoaderIterate, ///< Starts a pass over a data loader (begin()).
  SizeArgument, ///< Tensor factory / view whose integer argument Args.Count
                ///< is a size or length (int-array size parameters count
                ///< without a row): the result's shape follows it.
  DeviceLaunch, ///< Queues computation on the device (kernel launch, cuBLAS):
                ///< a loop doing it every iteration is a step loop.
  Clock,        ///< Reads a host clock or device timing: loops that time
                ///< collectives are benchmarks, not training.
  HostVisibleAlloc, ///< Allocates host memory the device writes (pinned,
                    ///< mapped, managed; Args.Out): host reads of it after a
                    ///< sync need that sync.
  CommDerive,       ///< Creates a communicator (Args.Out) with the members of
              ///< Args.Comm (dup, merge): a sub-communicator's is one too.
  SameShape, ///< Returns a tensor of its receiver's shape (a method: clone,
             ///< to, an in-place update) or of its first tensor argument's
             ///< (empty_like): whatever the values, the shape carries over.
  StoreRead, ///< Reads a key (its first argument) of the job's shared store:
             ///< every rank that reads one key gets the same bytes.
  ElementStorage,   ///< Returns a pointer to its receiver's elements (a
                    ///< container's data()): what is written through it is
                    ///< written into the receiver.
  ObjectAllocation, ///< Returns a new object built from its arguments behind
                    ///< a pointer (make_unique, make_shared): never null;
                    ///< only the object holds what the arguments give.
  UntimedOptions,   ///< Returns process-group options whose timeout is not set
                    ///< on every path (a factory another TU defines).
  /// Queues a copy on a stream (cudaMemcpyAsync; Recv is the destination,
  /// Send the source, Flag the kind): the destination gets the source's
  /// values, the host does not wait.
  AsyncCopy,
  /// Calls its callable argument (Args.Value) with the alternative its
  /// variant argument (Args.Send) holds (std::visit): that variant chooses
  /// which of the callable's overloads runs.
  VariantDispatch,
  /// Sets every byte of a buffer (Args.Recv) to its value argument
  /// (Args.Value): cudaMemset. The contents are that value's.
  Fill,
  /// Reduces a tensor to one element (a 0-dim tensor) in its overloads that
  /// take no dimension (`t.sum()`, `t.norm()`, `at::mean(t)`): the result's
  /// shape is the same whatever the input's. Overloads given a dimension
  /// (`t.sum(1)`, `t.max(other)`) are not this row.
  FullReduction,
  /// Returns a tensor whose length is decided by the values of argument
  /// Args.Value, or of the receiver when none (nonzero(), masked_select's
  /// mask): where those values differ between ranks, so does the shape.
  ShapeFromValues,
  /// Returns the part of its receiver between two indices (Args.Begin and
  /// Args.End: `t.slice(0, begin, end)`): the result's length is their
  /// distance, the same on every rank where the range moves with the rank
  /// but keeps its width (`rank * n` to `(rank + 1) * n`).
  SizeRange,
  /// Tests a stream's state (good(), fail(), `!in`, its bool conversion).
  /// On the stream object itself (`if (!in)` after opening it): whether the
  /// file opened on this node, which differs where a node lacks the file.
  /// On what a read returned (`while (std::getline(in, line))`, `while (in >>
  /// x)`): whether the input ended, which follows the content, as uniform
  /// as what the stream reads (a file every rank names alike, a string).
  StreamState,
  /// A neural-network module class: its constructor builds its structure
  /// (which parameters, their shapes); loading a checkpoint into it fills
  /// their values only.
  ModuleType,
};
/// Number of roles (the last enumerator + 1): tables keyed by role.
constexpr unsigned NumRoles = unsigned(Role::ModuleType) + 1;

const char *roleName(Role R);

/// Argument positions (0-based, -1 = none). For methods, positions count the
/// explicit arguments only; the receiver is the object (for c10d collectives
/// the receiver is the communicator). Tables build rows with the constexpr
/// setters: ArgRoles().send(0).recv(1).count(2).
struct ArgRoles {
  int8_t Comm = -1;    ///< Communicator / process group argument.
  int8_t Count = -1;   ///< Element count that must agree across ranks.
                       ///< EnvRead/EnvWrite: the variable-name argument.
  int8_t Root = -1;    ///< Root rank that must agree.
  int8_t Op = -1;      ///< Reduction op that must agree.
  int8_t DType = -1;   ///< Datatype that must agree.
  int8_t Out = -1;     ///< Result written through a pointer (rank, size, ...).
  int8_t Options = -1; ///< Options struct (c10d options, ncclConfig_t*...).
  int8_t Recv = -1;    ///< Buffer whose contents are uniform afterwards
                       ///< (copies: the destination).
  int8_t Send = -1;    ///< Buffer read by the operation (Parse: the text).
  // Added by the API tables:
  int8_t RecvVaries = -1; ///< Buffer written with data that differs per rank
                          ///< (scatter, reduce at the root, scan, recv).
  int8_t Peer = -1;       ///< Point-to-point partner rank (differs by design).
  int8_t Tag = -1;        ///< Point-to-point tag.
  int8_t Request = -1;    ///< MPI_Request (out for I-calls, in for Wait).
  int8_t Stream = -1;     ///< cudaStream_t the operation is queued on.
  int8_t Timeout = -1;    ///< Timeout argument (TimeoutKnob, Wait).
  int8_t Color = -1;      ///< Split color: who ends up in which sub-comm.
  int8_t Rank = -1;       ///< Rank given to a communicator / sampler.
  int8_t WorldSize = -1;  ///< World size given to a communicator / sampler.
  int8_t Value = -1;      ///< Value argument (setenv value, set_epoch epoch).
  int8_t Flag = -1;       ///< Mode argument (cudaMemcpyKind,
                          ///< allow_duplicates).
  int8_t Sampler = -1;    ///< Sampler argument of make_data_loader.
  /// Buffer that may be the in-place marker (MPI_IN_PLACE): a rank that
  /// passes it there does not read its own Count and DType arguments.
  int8_t InPlace = -1;
  /// Exit status of a call that ends the process (FailStop): 0 there is the
  /// program's normal end, like returning from main, not a job abort.
  int8_t ExitStatus = -1;
  /// First index of a range and the index past its end (SizeRange).
  int8_t Begin = -1;
  int8_t End = -1;
  /// The dimension a view (SizeArgument, SizeRange) cuts along, or a shape
  /// query (ShapeQuery) reads.
  int8_t Dim = -1;
  /// Only overloads with exactly this many parameters match (-1: any).
  int8_t NumParams = -1;

#define DISTLINT_ARG_SETTER(Setter, Field)                                     \
  constexpr ArgRoles Setter(int I) const {                                     \
    ArgRoles R = *this;                                                        \
    R.Field = static_cast<int8_t>(I);                                          \
    return R;                                                                  \
  }
  DISTLINT_ARG_SETTER(comm, Comm)
  DISTLINT_ARG_SETTER(count, Count)
  DISTLINT_ARG_SETTER(root, Root)
  DISTLINT_ARG_SETTER(op, Op)
  DISTLINT_ARG_SETTER(dtype, DType)
  DISTLINT_ARG_SETTER(out, Out)
  DISTLINT_ARG_SETTER(options, Options)
  DISTLINT_ARG_SETTER(recv, Recv)
  DISTLINT_ARG_SETTER(send, Send)
  DISTLINT_ARG_SETTER(recvVaries, RecvVaries)
  DISTLINT_ARG_SETTER(peer, Peer)
  DISTLINT_ARG_SETTER(tag, Tag)
  DISTLINT_ARG_SETTER(request, Request)
  DISTLINT_ARG_SETTER(stream, Stream)
  DISTLINT_ARG_SETTER(timeout, Timeout)
  DISTLINT_ARG_SETTER(color, Color)
  DISTLINT_ARG_SETTER(rank, Rank)
  DISTLINT_ARG_SETTER(worldSize, WorldSize)
  DISTLINT_ARG_SETTER(value, Value)
  DISTLINT_ARG_SETTER(flag, Flag)
  DISTLINT_ARG_SETTER(sampler, Sampler)
  DISTLINT_ARG_SETTER(inPlace, InPlace)
  DISTLINT_ARG_SETTER(exitStatus, ExitStatus)
  DISTLINT_ARG_SETTER(begin, Begin)
  DISTLINT_ARG_SETTER(end, End)
  DISTLINT_ARG_SETTER(dim, Dim)
  DISTLINT_ARG_SETTER(numParams, NumParams)
#undef DISTLINT_ARG_SETTER
};

/// One fact about one API name. A name may have several rows (one per role).
///
/// Name is the qualified name of a function, method, constructor
/// ("c10d::TCPStore::TCPStore"), class, field or variable, without inline
/// namespaces or template arguments. Environment variables are rows of the
/// Std table named "env:<VAR>" (roles RankSource, WorldSizeSource,
/// TimeoutKnob); use envVariable() to look them up.
///
/// What a row means beyond argument positions is in typed fields (Facts);
/// Detail is free text for messages only.

/// Named timeout values (TimeoutConstant rows).
enum class TimeoutValue : uint8_t {
  NotAConstant,
  Infinite, ///< Waits forever (kNoTimeout).
  Default,  ///< The library's default (kDefaultTimeout...).
  Unset,    ///< "Not given" marker (kUnsetTimeout).
};

/// The c10d backend a ProcessGroupType row implements, and the one a
/// TimeoutConstant row is the default of (Unspecified: every backend).
enum class PgBackend : uint8_t { Unspecified, Gloo, Nccl, Mpi, Ucc };

/// The device a DeviceSelect row chooses.
enum class DeviceType : uint8_t { Unspecified, Cuda, Cpu };

/// Which rank a RankSource row gives.
enum class RankScope : uint8_t {
  Unspecified, ///< Some rank-derived id (local, node): not the job's rank.
  Global,      ///< The process's rank in the whole job (world).
};

/// Fields of a c10d options struct (BroadcastOptions, AllreduceOptions...)
/// that must agree across ranks; bits of RowFacts::AgreeingOptions.
enum OptionField : uint8_t {
  RootRank = 1u << 0,
  RootTensor = 1u << 1,
  ReduceOp = 1u << 2,
};

/// Typed facts of a row. Tables build them with the constexpr setters:
/// RowFacts().timeout(TimeoutValue::Infinite).
struct RowFacts {
  /// Collectives with an options struct: OptionField bits.
  uint8_t AgreeingOptions = 0;
  /// TimeoutConstant rows.
  TimeoutValue Timeout = TimeoutValue::NotAConstant;
  /// TimeoutKnob rows naming an environment variable: the integer value
  /// that disables the timeout / abort (-1: none).
  int8_t DisablingValue = -1;
  /// TimeoutKnob rows: the knob is a store's timeout, not a collective's.
  bool StoreTimeout = false;
  /// SamplerType rows: the order is reshuffled by epoch (set_epoch).
  bool ShufflesByEpoch = false;
  /// DeviceSelect rows.
  DeviceType Device = DeviceType::Unspecified;
  /// Collective rows of calls that create the communicator they run on
  /// (ncclCommInitRank): there is no communicator argument to compare.
  bool CreatesCommunicator = false;
  /// PointToPoint rows without a request that still return without waiting
  /// for the peer (MPI_Bsend copies the message into the attached buffer).
  bool CompletesLocally = false;
  /// RankSource rows naming an environment variable: which rank it holds.
  RankScope Scope = RankScope::Unspecified;
  /// ProcessGroupType rows: the backend; TimeoutConstant rows with
  /// TimeoutValue::Default: the backend whose default it is.
  PgBackend Backend = PgBackend::Unspecified;
  /// ProcessGroupType rows: the first LibTorch major release that declares
  /// the class (0: every release), which tells the headers' release.
  uint8_t SinceMajor = 0;

  constexpr RowFacts agree(uint8_t Fields) const {
    RowFacts R = *this;
    R.AgreeingOptions = Fields;
    return R;
  }
  constexpr RowFacts timeout(TimeoutValue V) const {
    RowFacts R = *this;
    R.Timeout = V;
    return R;
  }
  constexpr RowFacts disabledBy(int V) const {
    RowFacts R = *this;
    R.DisablingValue = static_cast<int8_t>(V);
    return R;
  }
  constexpr RowFacts storeTimeout() const {
    RowFacts R = *this;
    R.StoreTimeout = true;
    return R;
  }
  constexpr RowFacts shufflesByEpoch() const {
    RowFacts R = *this;
    R.ShufflesByEpoch = true;
    return R;
  }
  constexpr RowFacts device(DeviceType D) const {
    RowFacts R = *this;
    R.Device = D;
    return R;
  }
  constexpr RowFacts scope(RankScope S) const {
    RowFacts R = *this;
    R.Scope = S;
    return R;
  }
  constexpr RowFacts createsCommunicator() const {
    RowFacts R = *this;
    R.CreatesCommunicator = true;
    return R;
  }
  constexpr RowFacts completesLocally() const {
    RowFacts R = *this;
    R.CompletesLocally = true;
    return R;
  }
  constexpr RowFacts backend(PgBackend B) const {
    RowFacts R = *this;
    R.Backend = B;
    return R;
  }
  constexpr RowFacts since(uint8_t Major) const {
    RowFacts R = *this;
    R.SinceMajor = Major;
    return R;
  }
};

struct ApiEntry {
  Family Fam;
  Role TheRole;
  const char *Name; ///< Qualified name: "c10d::ProcessGroup::allreduce".
  ArgRoles Args;
  const char *Detail = ""; ///< Free text for messages.
  RowFacts Facts;

  constexpr ApiEntry(Family Fam, Role TheRole, const char *Name,
                     ArgRoles Args = {}, const char *Detail = "")
      : Fam(Fam), TheRole(TheRole), Name(Name), Args(Args), Detail(Detail) {}
  constexpr ApiEntry(Family Fam, Role TheRole, const char *Name, ArgRoles Args,
                     RowFacts Facts, const char *Detail = "")
      : Fam(Fam), TheRole(TheRole), Name(Name), Args(Args), Detail(Detail),
        Facts(Facts) {}
};

/// The macro that names the in-place buffer marker (ArgRoles::InPlace).
llvm::StringRef inPlaceMarkerName();
/// The macro that names "no communicator" (what a split hands the ranks
/// that are not members).
llvm::StringRef nullCommunicatorName();
/// The macro a split's colour argument names for "not a member" (the ranks
/// that pass it get nullCommunicatorName()).
llvm::StringRef undefinedColorName();
/// The macro that names the communicator of the calling process alone: a
/// collective on it waits for nobody else.
llvm::StringRef selfCommunicatorName();
/// The macros an inter-communicator collective's root group passes as root
/// (the root itself, the others of its group): where a rank passes one,
/// the roots differ by design.
llvm::ArrayRef<llvm::StringRef> interRootMarkerNames();

llvm::ArrayRef<ApiEntry> c10dTable();
llvm::ArrayRef<ApiEntry> ncclTable();
llvm::ArrayRef<ApiEntry> mpiTable();
llvm::ArrayRef<ApiEntry> cudaTable();
llvm::ArrayRef<ApiEntry> torchTable();
llvm::ArrayRef<ApiEntry> stdTable();

/// A broadcast: the root's buffer arrives in every member's receive buffer
/// (MPI_Bcast, ncclBroadcast), so afterwards it holds the root's values.
inline bool isBroadcast(const ApiEntry &Row) {
  return Row.TheRole == Role::Collective && Row.Args.Root >= 0 &&
         Row.Args.Recv >= 0 && Row.Args.RecvVaries < 0;
}

/// Rows the user declared in a config file (extra rank sources, collective
/// wrappers). Owned strings, converted into ApiEntry rows by ApiIndex.
struct UserApi {
  std::vector<std::string> RankSources;
  std::vector<std::string> CollectiveWrappers;
  std::vector<std::string> WorldSizeSources;
};

struct ProjectFacts;
struct ProjectFact;

/// Matches declarations against all tables. Thread-compatible: one per TU.
class ApiIndex {
public:
  /// Project (may be null; must outlive the index): facts of functions
  /// defined in other TUs, matched by USR for declarations without a body.
  explicit ApiIndex(const UserApi &User = {},
                    const ProjectFacts *Project = nullptr);
  ~ApiIndex();

  /// The project fact a Family::Project row stands for, or null.
  const ProjectFact *projectFact(const ApiEntry *Row) const;

  /// Every row naming this function, directly, through a method it
  /// overrides, or as a method inherited from / declared in a base class.
  llvm::ArrayRef<const ApiEntry *> lookup(const clang::FunctionDecl *FD) const;
  /// The first row with role R, or null.
  const ApiEntry *find(const clang::FunctionDecl *FD, Role R) const;
  bool has(const clang::FunctionDecl *FD, Role R) const {
    return find(FD, R) != nullptr;
  }
  /// Rows naming this class or one of its bases (types: ProcessGroupType...).
  const ApiEntry *findType(const clang::CXXRecordDecl *RD, Role R) const;
  /// Row of role R for a field, static member, variable or enumerator
  /// (TimeoutKnob "c10d::ProcessGroup::Options::timeout", TimeoutConstant
  /// "c10d::Store::kNoTimeout", DeviceSelect "c10::kCUDA"). With
  /// ObjectClass (the class the member is accessed through), a row naming
  /// the member through that class or any of its bases matches too, so
  /// "c10d::ProcessGroupNCCL::Options::timeout" matches opts->timeout.
  const ApiEntry *
  findMember(const clang::NamedDecl *Member, Role R,
             const clang::CXXRecordDecl *ObjectClass = nullptr) const;
  /// Rows by exact qualified name (for tests and fields like "timeout").
  std::vector<const ApiEntry *> byName(llvm::StringRef QualifiedName) const;
  /// All rows of a role, in table order (where order matters, e.g. the
  /// default timeouts, a table lists the preferred row first).
  std::vector<const ApiEntry *> byRole(Role R) const;

private:
  std::vector<ApiEntry> UserRows;
  /// Family::Project rows per USR, and the fact behind each row.
  struct ProjectRows;
  std::unique_ptr<ProjectRows> Project;
  std::vector<const ApiEntry *> InOrder;
  std::vector<std::string> UserNames;
  llvm::StringMap<std::vector<const ApiEntry *>> ByName;
  mutable llvm::DenseMap<const clang::FunctionDecl *,
                         std::vector<const ApiEntry *>>
      FunctionCache;
  void addRow(const ApiEntry &Row);
};

/// The row for an environment variable (rows named "env:NAME", in the Std
/// table) with role R, or null: RankSource (RANK, LOCAL_RANK,
/// OMPI_COMM_WORLD_RANK, SLURM_PROCID...), WorldSizeSource (WORLD_SIZE...),
/// TimeoutKnob (NCCL_ASYNC_ERROR_HANDLING...). Defined in ApiIndex.cpp.
const ApiEntry *envVariable(llvm::StringRef Name, Role R);

/// Qualified name without inline namespaces or template arguments.
std::string qualifiedName(const clang::NamedDecl *D);

} // namespace api
} // namespace distlint
