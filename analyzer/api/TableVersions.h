//===- TableVersions.h - Releases the API tables describe -------*- C++ -*-===//
#pragma once

#include "api/ApiTable.h"

namespace distlint {
namespace api {

/// Which release of an API its table describes (`distlint --version`).
/// Other releases work as far as they keep these names; calls only they
/// have are not known.
struct TableVersion {
  Family Fam;
  const char *Api;      ///< "MPI", "NCCL", "LibTorch"
  const char *Releases; ///< "4.0"; "1.13 and 2.6" where rows cover both.
};

/// One entry per distributed API: MPI, NCCL, LibTorch (c10d and tensors).
llvm::ArrayRef<TableVersion> tableVersions();

} // namespace api
} // namespace distlint
