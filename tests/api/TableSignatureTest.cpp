//===- TableSignatureTest.cpp - Table rows against the declarations -------===//
//
// Every row must name something that exists, and every argument position
// must point at a parameter of the right kind: a communicator where Comm
// says, a datatype where DType says, and so on. Checked against the
// project's declarations (LibTorch 1.13 and 2.x modes), against the real
// MPI/NCCL/CUDA headers of this machine, and (torch stage) against Debian's
// LibTorch headers.
//
//===----------------------------------------------------------------------===//
#include "ApiTestSupport.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <cstdlib>
#include <set>

using namespace clang;
using namespace distlint;
using namespace distlint::api;
using distlint::apitest::Snippet;

namespace {

const char *AllTestdataHeaders = R"cpp(
#include <mpi.h>
#include <nccl.h>
#include <cuda_runtime.h>
#include <torch/torch.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cublas_v2.h>
#include <gloo/context.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#if TORCH_VERSION_MAJOR < 2
#include <torch/csrc/distributed/c10d/Ops.hpp>
#endif
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupMPI.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <variant>
#include <vector>
)cpp";

/// Rows whose name is not itself declared, on purpose.
const std::set<std::string> NotDeclared = {
    // Matched through the method name in Module subclasses (Module declares
    // no forward()).
    "torch::nn::Module::forward",
    // Spelled through the class users write; the field is declared in the
    // options base class (ApiIndex::findMember's ObjectClass lookup).
    "c10d::ProcessGroupGloo::Options::timeout",
    "c10d::ProcessGroupNCCL::Options::timeout",
    // Not modelled by testdata/include.
    "c10d::ProcessGroupUCC",
};

std::vector<llvm::ArrayRef<ApiEntry>> allTables() {
  return {c10dTable(), ncclTable(), mpiTable(),
          cudaTable(), torchTable(), stdTable()};
}

bool hasArgs(const ArgRoles &A) {
  for (int8_t V :
       {A.Comm,    A.Count,  A.Root,    A.Op,         A.DType, A.Out,
        A.Options, A.Recv,   A.Send,    A.RecvVaries, A.Peer,  A.Tag,
        A.Request, A.Stream, A.Timeout, A.Color,      A.Rank,  A.WorldSize,
        A.Value,   A.Flag,   A.Sampler, A.Dim})
    if (V >= 0)
      return true;
  return false;
}

std::string text(QualType T) {
  return T.getNonReferenceType().getUnqualifiedType().getAsString();
}
std::string canon(QualType T) {
  return T.getNonReferenceType().getCanonicalType().getUnqualifiedType()
      .getAsString();
}
bool contains(QualType T, llvm::StringRef Word) {
  return llvm::StringRef(text(T)).contains(Word) ||
         llvm::StringRef(canon(T)).contains(Word);
}
bool isInteger(QualType T) {
  QualType C = T.getNonReferenceType().getCanonicalType();
  return C->isIntegerType() && !C->isBooleanType() && !C->isEnumeralType();
}
bool isPointer(QualType T) {
  return T.getNonReferenceType().getCanonicalType()->isPointerType();
}
bool isCharPointer(QualType T) {
  QualType C = T.getNonReferenceType().getCanonicalType();
  return C->isPointerType() && C->getPointeeType()->isCharType();
}

/// Does parameter Param fit the argument role Field of row E? On failure,
/// says why.
bool fits(const ApiEntry &E, llvm::StringRef Field, const ParmVarDecl *Param,
          std::string &Why) {
  QualType T = Param->getType();
  bool Ok = true;
  if (Field == "Comm")
    // A file handle stands for the communicator it was opened on.
    Ok = contains(T, "MPI_Comm") || contains(T, "ncclComm_t") ||
         contains(T, "ProcessGroup") || contains(T, "MPI_File");
  else if (Field == "DType")
    Ok = contains(T, "MPI_Datatype") || contains(T, "ncclDataType_t");
  else if (Field == "Op")
    Ok = contains(T, "MPI_Op") || contains(T, "ncclRedOp_t");
  else if (Field == "Count" &&
           (E.TheRole == Role::EnvRead || E.TheRole == Role::EnvWrite))
    Ok = isCharPointer(T);
  else if (Field == "Count" && E.TheRole == Role::SizeArgument)
    Ok = isInteger(T) || contains(T, "Scalar"); // arange(end)
  else if (Field == "Count" || Field == "Root" || Field == "Peer" ||
           Field == "Tag" || Field == "Color" || Field == "Rank" ||
           Field == "WorldSize" || Field == "Dim")
    Ok = isInteger(T);
  else if (Field == "Out" && E.TheRole == Role::LocalDataSource &&
           E.Args.Send >= 0)
    // A loader fills its first argument: torch::load(Value &value, file).
    Ok = isPointer(T) || (T->isLValueReferenceType() &&
                          !T.getNonReferenceType().isConstQualified());
  else if (Field == "Out")
    Ok = isPointer(T);
  else if (Field == "Send" && E.TheRole == Role::LocalDataSource)
    // The file read: a path or stream, possibly forwarded through a pack.
    Ok = Param->isParameterPack() || isCharPointer(T) ||
         contains(T, "basic_string") || contains(T, "istream");
  else if (Field == "Send" && E.TheRole == Role::VariantDispatch)
    // The variants visited (a pack in std::visit's declaration).
    Ok = Param->isParameterPack() || contains(T, "variant");
  else if (Field == "Request")
    Ok = contains(T, "MPI_Request");
  else if (Field == "Stream")
    Ok = contains(T, "cudaStream_t");
  else if (Field == "Timeout")
    Ok = contains(T, "std::chrono::duration");
  else if (Field == "Options")
    Ok = contains(T, "Options") || contains(T, "ncclConfig_t");
  else if (Field == "Send" || Field == "Recv" || Field == "RecvVaries") {
    if (E.Fam == Family::C10d)
      Ok = contains(T, "at::Tensor");
    else if (E.TheRole == Role::Parse)
      Ok = isCharPointer(T) || contains(T, "basic_string");
    else
      Ok = isPointer(T);
  } else if (Field == "Flag")
    Ok = E.Fam == Family::Cuda ? contains(T, "cudaMemcpyKind")
                               : T->isBooleanType();
  else if (Field == "Sampler")
    Ok = Param->getName() == "sampler";
  if (!Ok)
    Why = (Field + " -> parameter '" + Param->getName() + "' of type '" +
           text(T) + "'")
              .str();
  return Ok;
}

/// Does FD fit every argument role of E?
bool fitsAll(const ApiEntry &E, const FunctionDecl *FD, std::string &Why) {
  const ArgRoles &A = E.Args;
  if (A.NumParams >= 0 && (int)FD->getNumParams() != A.NumParams) {
    Why = "parameter count " + std::to_string(FD->getNumParams());
    return false;
  }
  std::pair<const char *, int8_t> Fields[] = {
      {"Comm", A.Comm},       {"Count", A.Count},
      {"Root", A.Root},       {"Op", A.Op},
      {"DType", A.DType},     {"Out", A.Out},
      {"Options", A.Options}, {"Recv", A.Recv},
      {"Send", A.Send},       {"RecvVaries", A.RecvVaries},
      {"Peer", A.Peer},       {"Tag", A.Tag},
      {"Request", A.Request}, {"Stream", A.Stream},
      {"Timeout", A.Timeout}, {"Color", A.Color},
      {"Rank", A.Rank},       {"WorldSize", A.WorldSize},
      {"Value", A.Value},     {"Flag", A.Flag},
      {"Sampler", A.Sampler}, {"Dim", A.Dim}};
  for (auto [Field, Index] : Fields) {
    if (Index < 0)
      continue;
    if (Index >= (int)FD->getNumParams()) {
      Why = std::string(Field) + " index " + std::to_string(Index) +
            " past the last parameter";
      return false;
    }
    if (!fits(E, Field, FD->getParamDecl(Index), Why))
      return false;
  }
  return true;
}

/// The functions a row's name can mean: functions, function templates, and
/// for a class name its constructors.
std::vector<const FunctionDecl *>
functionsNamed(const std::vector<const NamedDecl *> &Decls) {
  std::vector<const FunctionDecl *> Out;
  for (const NamedDecl *D : Decls) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      Out.push_back(FD);
    else if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      Out.push_back(FT->getTemplatedDecl());
    else if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      if (RD->hasDefinition())
        for (const CXXConstructorDecl *C : RD->getDefinition()->ctors())
          Out.push_back(C);
  }
  return Out;
}

struct Check {
  std::vector<std::string> Missing;
  std::vector<std::string> Mismatched;
};

/// Checks the rows selected by Keep against the declarations of the parsed
/// TUs: every name must be declared in at least one of them, and where a
/// row has argument positions at least one declaration must fit them all.
Check checkRows(const std::vector<const Snippet *> &TUs,
                llvm::function_ref<bool(const ApiEntry &)> Keep,
                const std::set<std::string> &MayBeMissing) {
  Check Result;
  for (auto Table : allTables())
    for (const ApiEntry &E : Table) {
      if (!Keep(E) || llvm::StringRef(E.Name).starts_with("env:"))
        continue;
      std::vector<const NamedDecl *> Decls;
      for (const Snippet *S : TUs) {
        auto Found = S->allDecls(E.Name);
        Decls.insert(Decls.end(), Found.begin(), Found.end());
      }
      if (Decls.empty()) {
        if (!NotDeclared.count(E.Name) && !MayBeMissing.count(E.Name))
          Result.Missing.push_back(E.Name);
        continue;
      }
      // "Name/N": only the row for the N-parameter overload may not fit.
      std::string Overload =
          std::string(E.Name) + "/" + std::to_string(E.Args.NumParams);
      if ((!hasArgs(E.Args) && E.Args.NumParams < 0) ||
          MayBeMissing.count(E.Name) || MayBeMissing.count(Overload))
        continue;
      std::string Why = "no function of this name";
      bool Any = false;
      for (const FunctionDecl *FD : functionsNamed(Decls))
        if (fitsAll(E, FD, Why)) {
          Any = true;
          break;
        }
      if (!Any)
        Result.Mismatched.push_back(std::string(E.Name) + " [" +
                                    roleName(E.TheRole) + "]: " + Why);
    }
  return Result;
}

std::string join(const std::vector<std::string> &V) {
  std::string S;
  for (const std::string &X : V)
    S += "\n  " + X;
  return S;
}

TEST(Tables, RowsAreWellFormed) {
  std::set<std::pair<std::string, int>> Seen;
  for (auto Table : allTables())
    for (const ApiEntry &E : Table) {
      ASSERT_NE(E.Name, nullptr);
      EXPECT_FALSE(llvm::StringRef(E.Name).empty());
      EXPECT_FALSE(llvm::StringRef(E.Name).starts_with("::")) << E.Name;
      EXPECT_TRUE(Seen.insert({E.Name, (int)E.TheRole}).second ||
                  E.Args.NumParams >= 0)
          << "duplicate row " << E.Name << " " << roleName(E.TheRole);
      bool Raw = E.Fam == Family::Mpi || E.Fam == Family::Nccl;
      if (Raw && (E.TheRole == Role::Collective ||
                  E.TheRole == Role::PointToPoint) &&
          !E.Facts.CreatesCommunicator)
        EXPECT_GE(E.Args.Comm, 0) << E.Name << " needs its communicator";
      if (Raw && E.TheRole == Role::PointToPoint &&
          llvm::StringRef(E.Name) != "MPI_Iprobe" &&
          llvm::StringRef(E.Name) != "MPI_Probe")
        EXPECT_GE(E.Args.Peer, 0) << E.Name << " needs its peer";
      if (E.TheRole == Role::Collective && E.Fam == Family::Nccl &&
          !E.Facts.CreatesCommunicator)
        EXPECT_GE(E.Args.Stream, 0) << E.Name;
      if (E.TheRole == Role::RankSource || E.TheRole == Role::WorldSizeSource)
        if (E.Fam == Family::Mpi || E.Fam == Family::Nccl)
          EXPECT_GE(E.Args.Out, 0) << E.Name << " writes through a pointer";
    }
}

TEST(Tables, RowsMatchTestdataDeclarations) {
  Snippet V113(AllTestdataHeaders);
  Snippet V2(AllTestdataHeaders, {"-DDISTLINT_TORCH_2X"});
  ASSERT_TRUE(V113.ok());
  ASSERT_TRUE(V2.ok());
  Check C = checkRows({&V113, &V2}, [](const ApiEntry &) { return true; }, {});
  EXPECT_TRUE(C.Missing.empty()) << "rows naming nothing:" << join(C.Missing);
  EXPECT_TRUE(C.Mismatched.empty())
      << "argument positions that do not fit:" << join(C.Mismatched);

  // The version switch really switches: collectives live on Backend in 2.x.
  EXPECT_FALSE(V113.allDecls("c10d::Backend::Options").size());
  EXPECT_TRUE(V2.allDecls("c10d::Backend::Options").size());
  EXPECT_TRUE(V2.allDecls("c10d::ProcessGroup::getBackend").size());
  EXPECT_FALSE(V113.allDecls("c10d::ProcessGroup::getBackend").size());
}

/// Directory if it exists, else empty.
std::string existing(const std::string &Dir) {
  return llvm::sys::fs::is_directory(Dir) ? Dir : std::string();
}

/// MPI-4 persistent collectives: rows exist, Open MPI 4.1 does not declare
/// them yet.
std::set<std::string> mpi4PersistentCollectives() {
  std::set<std::string> Out;
  for (const ApiEntry &E : mpiTable())
    if (llvm::StringRef(E.Name).ends_with("_init") &&
        E.TheRole == Role::Collective)
      Out.insert(E.Name);
  return Out;
}

TEST(Tables, RowsMatchRealMpiNcclCudaHeaders) {
  std::string Mpi = existing("/usr/lib/x86_64-linux-gnu/openmpi/include");
  std::string Cuda = existing("/usr/local/cuda/include");
  if (Mpi.empty() || Cuda.empty())
    GTEST_SKIP() << "real Open MPI or CUDA/NCCL headers not installed";
  Snippet Real("#include <mpi.h>\n#include <nccl.h>\n#include <cuda_runtime.h>\n"
               "#include <cublas_v2.h>\n",
               {"-I" + Mpi, "-I" + Cuda}, /*UseTestdataInclude=*/false);
  ASSERT_TRUE(Real.ok());
  Check C = checkRows(
      {&Real},
      [](const ApiEntry &E) {
        return E.Fam == Family::Mpi || E.Fam == Family::Nccl ||
               E.Fam == Family::Cuda;
      },
      mpi4PersistentCollectives());
  EXPECT_TRUE(C.Missing.empty()) << "rows naming nothing:" << join(C.Missing);
  EXPECT_TRUE(C.Mismatched.empty())
      << "argument positions that do not fit:" << join(C.Mismatched);
}

/// Flags that make Debian's LibTorch headers parse like a find_package(Torch)
/// build with the Gloo, NCCL and MPI backends (as the torch stage does).
std::vector<std::string> realTorchFlags(const std::vector<std::string> &Roots) {
  std::vector<std::string> Args;
  for (const std::string &Root : Roots)
    Args.push_back("-isystem" + Root);
  Args.push_back("-isystem" + std::string(DISTLINT_SOURCE_DIR) +
                 "/tests/torch/support");
  for (const char *D : {"-DUSE_DISTRIBUTED", "-DUSE_C10D_GLOO"})
    Args.push_back(D);
  std::string Cuda = existing("/usr/local/cuda/include");
  if (!Cuda.empty()) {
    Args.push_back("-isystem" + Cuda);
    Args.push_back("-DUSE_C10D_NCCL");
  }
  std::string Mpi = existing("/usr/lib/x86_64-linux-gnu/openmpi/include");
  if (!Mpi.empty()) {
    Args.push_back("-isystem" + Mpi);
    Args.push_back("-DUSE_C10D_MPI");
  }
  return Args;
}

const char *RealTorchCode = R"cpp(
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#if __has_include(<torch/csrc/distributed/c10d/Ops.hpp>)
#include <torch/csrc/distributed/c10d/Ops.hpp>
#endif
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef USE_C10D_NCCL
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#ifdef USE_C10D_MPI
#include <torch/csrc/distributed/c10d/ProcessGroupMPI.hpp>
#endif
)cpp";

/// Names the real headers of one generation do not have (the other
/// generation's API), or that need a build this machine lacks.
const std::set<std::string> Only2x = {
    "c10d::Backend::Options::timeout",
    "c10d::Backend::Options::Options",
    "c10d::Backend::startCoalescing",
    "c10d::Backend::endCoalescing",
    "c10d::ProcessGroupGloo::createProcessGroupGloo",
    "c10d::TORCH_NCCL_ASYNC_ERROR_HANDLING",
    "c10d::TORCH_NCCL_ENABLE_MONITORING",
    "kBackendDefaultTimeout",
    "c10d::kProcessGroupNCCLDefaultTimeout", // since 2.2
    "c10d::ProcessGroup::ProcessGroup", // the (store, rank, size) wrapper
};
const std::set<std::string> Only113 = {
    "c10d::TCPStore::TCPStore/6", // the positional overload
    "c10d::ProcessGroup::Options::timeout",
    "c10d::ProcessGroup::Options::Options",
    "c10d::Options::timeout",
    "c10d::Options::Options",
    "c10d::NCCL_ASYNC_ERROR_HANDLING",
    "kDefaultTimeout",
    "c10d::ops::broadcast", "c10d::ops::allreduce", "c10d::ops::allgather",
    "c10d::ops::reduce_scatter", "c10d::ops::reduce", "c10d::ops::gather",
    "c10d::ops::scatter", "c10d::ops::alltoall", "c10d::ops::barrier",
    "c10d::ops::send", "c10d::ops::recv",
};

Check checkRealTorch(const Snippet &Real, const std::set<std::string> &Skip) {
  std::set<std::string> MayBeMissing = Skip;
  if (existing("/usr/local/cuda/include").empty())
    for (const char *N :
         {"c10d::ProcessGroupNCCL", "c10d::ProcessGroupNCCL::ProcessGroupNCCL",
          "c10d::ProcessGroupNCCL::_broadcast_oop",
          "c10d::ProcessGroupNCCL::_reduce_oop",
          "c10::cuda::device_synchronize", "c10::cuda::stream_synchronize",
          "c10::cuda::CUDAStream::synchronize",
          "at::cuda::CUDAEvent::synchronize", "c10::cuda::set_device",
          "c10::cuda::CUDAGuard::CUDAGuard", "c10::cuda::device_count",
          "c10d::NCCL_ASYNC_ERROR_HANDLING",
          "c10d::TORCH_NCCL_ASYNC_ERROR_HANDLING",
          "c10d::TORCH_NCCL_ENABLE_MONITORING"})
      MayBeMissing.insert(N);
  if (existing("/usr/lib/x86_64-linux-gnu/openmpi/include").empty())
    for (const char *N :
         {"c10d::ProcessGroupMPI", "c10d::ProcessGroupMPI::ProcessGroupMPI",
          "c10d::ProcessGroupMPI::createProcessGroupMPI",
          "c10d::ProcessGroupMPI::abort"})
      MayBeMissing.insert(N);
  return checkRows(
      {&Real},
      [](const ApiEntry &E) {
        return E.Fam == Family::C10d || E.Fam == Family::Torch;
      },
      MayBeMissing);
}

// Debian's LibTorch 1.13 (bookworm's libtorch-dev).
TEST(Tables, RowsMatchRealLibTorch113Headers) {
  std::string Torch = existing("/usr/include/torch/csrc/api/include");
  if (Torch.empty())
    GTEST_SKIP() << "libtorch-dev not installed";
  Snippet Real(RealTorchCode, realTorchFlags({Torch}),
               /*UseTestdataInclude=*/false);
  ASSERT_TRUE(Real.ok());
  Check C = checkRealTorch(Real, Only2x);
  EXPECT_TRUE(C.Missing.empty()) << "rows naming nothing:" << join(C.Missing);
  EXPECT_TRUE(C.Mismatched.empty())
      << "argument positions that do not fit:" << join(C.Mismatched);
}

// LibTorch 2.x: Debian trixie's libtorch-dev headers, fetched (and cached in
// the build tree, shared with the torch stage) by scripts/torch-fetch-2x.sh.
TEST(Tables, RowsMatchRealLibTorch2xHeaders) {
  std::string Dest = std::string(DISTLINT_BINARY_DIR) + "/torch-stage/libtorch-2.x";
  std::string Script =
      std::string(DISTLINT_SOURCE_DIR) + "/scripts/torch-fetch-2x.sh";
  std::string Include = Dest + "/root/usr/include";
  if (!llvm::sys::fs::exists(Include +
                             "/torch/csrc/distributed/c10d/Backend.hpp")) {
    std::string Cmd = "bash '" + Script + "' '" + Dest + "' >/dev/null 2>&1";
    if (std::system(Cmd.c_str()) != 0)
      GTEST_SKIP() << "LibTorch 2.x headers unavailable (" << Script << ")";
  }
  Snippet Real(RealTorchCode,
               realTorchFlags({Include, Include + "/torch/csrc/api/include"}),
               /*UseTestdataInclude=*/false);
  ASSERT_TRUE(Real.ok());
  Check C = checkRealTorch(Real, Only113);
  EXPECT_TRUE(C.Missing.empty()) << "rows naming nothing:" << join(C.Missing);
  EXPECT_TRUE(C.Mismatched.empty())
      << "argument positions that do not fit:" << join(C.Mismatched);
}

} // namespace
