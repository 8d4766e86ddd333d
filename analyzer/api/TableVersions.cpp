//===- TableVersions.cpp - Releases the API tables describe
//----------------===//
//
// Kept next to the tables: rows added for a newer release update it.
//   MPI       MpiApi.cpp: the MPI-3.1 C API plus MPI-4.0's persistent
//             collectives (MPI_Allreduce_init...).
//   NCCL      NcclApi.cpp: 2.x up to ncclCommShrink; tests/ use the 2.28
//             header and ABI (testdata/include/nccl.h, runtime-check).
//   LibTorch  C10dApi.cpp / TorchApi.cpp: c10d on ProcessGroup (1.13,
//             Debian 12) and on Backend (2.x; tests/torch runs 2.6).
//
//===----------------------------------------------------------------------===//
#include "api/TableVersions.h"

namespace distlint {
namespace api {

llvm::ArrayRef<TableVersion> tableVersions() {
  static const TableVersion Versions[] = {
      {Family::Mpi, "MPI", "4.0"},
      {Family::Nccl, "NCCL", "2.28"},
      {Family::C10d, "LibTorch", "1.13 and 2.6"},
  };
  return Versions;
}

} // namespace api
} // namespace distlint
