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
#include <mutex>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class CXXRecordDecl;
class NamedDecl;
} // namespace clang

namespace distlint {
namespace api {

enum class Family : uint8_t { C10d, Nccl, Mpi, Cuda, Torch, Std, User };

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
  HostWaitOnDevice,///< Blocks the host on queued device work (cudaMemcpy...).
  TrainingStep,    ///< backward(), optimizer step(), module forward().
  FailStop,        ///< Ends the whole job (exit, abort, MPI_Abort...).
  TimeoutKnob,     ///< A field, argument or env var that sets a timeout.
  ProcessGroupType,///< A process-group / backend class.
  StoreType,       ///< A c10d store class.
  SamplerType,     ///< A data sampler class.
  DataLoaderFactory, ///< make_data_loader and friends.
  SetEpoch,        ///< sampler.set_epoch().
  DeviceSelect,    ///< Chooses a device (torch::Device, kCUDA, cudaSetDevice).
  UniformValue,    ///< Returns the same value on every rank.
  ShapeQuery,      ///< size()/numel()/begin(): reads a container's shape, not its contents.
};

const char *roleName(Role R);

/// Argument positions (0-based, -1 = none). For methods, positions count the
/// explicit arguments only; the receiver is the object.
struct ArgRoles {
  int8_t Comm = -1;    ///< Communicator / process group argument.
  int8_t Count = -1;   ///< Element count that must agree across ranks.
  int8_t Root = -1;    ///< Root / peer rank that must agree.
  int8_t Op = -1;      ///< Reduction op that must agree.
  int8_t DType = -1;   ///< Datatype that must agree.
  int8_t Out = -1;     ///< Result written through a pointer (rank, size, ...).
  int8_t Options = -1; ///< c10d options struct.
  int8_t Recv = -1;    ///< Buffer whose contents are uniform afterwards.
  int8_t Send = -1;    ///< Buffer read by the operation.
};

struct ApiEntry {
  Family Fam;
  Role TheRole;
  const char *Name; ///< Qualified name: "c10d::ProcessGroup::allreduce".
  ArgRoles Args;
  const char *Detail = ""; ///< Free text: env var name, option field, ...
};

llvm::ArrayRef<ApiEntry> c10dTable();
llvm::ArrayRef<ApiEntry> ncclTable();
llvm::ArrayRef<ApiEntry> mpiTable();
llvm::ArrayRef<ApiEntry> cudaTable();
llvm::ArrayRef<ApiEntry> torchTable();
llvm::ArrayRef<ApiEntry> stdTable();

/// Rows the user declared in a config file (extra rank sources, collective
/// wrappers). Owned strings, converted into ApiEntry rows by ApiIndex.
struct UserApi {
  std::vector<std::string> RankSources;
  std::vector<std::string> CollectiveWrappers;
  std::vector<std::string> WorldSizeSources;
};

/// Matches declarations against all tables. Thread-compatible: one per TU.
class ApiIndex {
public:
  explicit ApiIndex(const UserApi &User = {});

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
  /// Rows by exact qualified name (for tests and fields like "timeout").
  std::vector<const ApiEntry *> byName(llvm::StringRef QualifiedName) const;
  /// All rows of a role.
  std::vector<const ApiEntry *> byRole(Role R) const;

private:
  std::vector<ApiEntry> UserRows;
  std::vector<std::string> UserNames;
  llvm::StringMap<std::vector<const ApiEntry *>> ByName;
  mutable llvm::DenseMap<const clang::FunctionDecl *,
                         std::vector<const ApiEntry *>>
      FunctionCache;
  void addRow(const ApiEntry &Row);
};

/// The row for an environment variable (rows named "env:NAME") with role R
/// (RankSource or WorldSizeSource), or null. Defined in ApiIndex.cpp.
const ApiEntry *envVariable(llvm::StringRef Name, Role R);

/// Qualified name without inline namespaces or template arguments.
std::string qualifiedName(const clang::NamedDecl *D);

} // namespace api
} // namespace distlint
