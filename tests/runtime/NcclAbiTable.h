//===- NcclAbiTable.h - Shape of each NCCL entry point --------*- C++ -*-===//
//
// Two translation units fill this table: one from the preload library's own
// declarations (runtime-check/lib/NcclAbi.h), one from the real <nccl.h>. The
// test compares them, so a hook can never disagree with NCCL's ABI.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

struct EntryShape {
  size_t ReturnSize;
  std::vector<size_t> ParamSizes;
  std::vector<bool> ParamIsPointer;
};

template <class R, class... A> EntryShape shapeOf(R (*)(A...)) {
  return EntryShape{sizeof(R), {sizeof(A)...}, {std::is_pointer<A>::value...}};
}

#define NCCL_HOOKED_ENTRIES(X)                                                 \
  X(ncclAllReduce) X(ncclBroadcast) X(ncclBcast) X(ncclReduce)                 \
  X(ncclAllGather) X(ncclReduceScatter) X(ncclAlltoAll) X(ncclGather)          \
  X(ncclScatter) X(ncclSend) X(ncclRecv) X(ncclGroupStart) X(ncclGroupEnd)     \
  X(ncclCommInitRank) X(ncclCommInitRankConfig) X(ncclCommInitRankScalable)    \
  X(ncclCommInitAll) X(ncclCommSplit) X(ncclCommShrink) X(ncclCommFinalize)    \
  X(ncclCommDestroy) X(ncclCommAbort) X(ncclCommGetAsyncError)                 \
  X(ncclCommCount) X(ncclCommUserRank)

std::map<std::string, EntryShape> ourNcclShapes();
std::map<std::string, EntryShape> realNcclShapes();
size_t ourUniqueIdSize();
size_t realUniqueIdSize();
