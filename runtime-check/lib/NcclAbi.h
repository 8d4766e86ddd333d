//===- NcclAbi.h - The parts of NCCL's C ABI the hooks need -----*- C++ -*-===//
//
// Declared here rather than taken from <nccl.h> so that the preload library
// builds without NCCL or CUDA headers. Enumerations are passed as int, which
// is their ABI. tests/runtime/NcclAbiCheck.cpp compiles these declarations
// against the real <nccl.h> to keep them honest.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

extern "C" {
typedef struct ncclComm *ncclComm_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct ncclConfig_v22800 ncclConfig_t;
typedef struct ncclSimInfo_v22200 ncclSimInfo_t;
typedef struct {
  char internal[128];
} ncclUniqueId;
}

namespace distlint {
namespace rt {
namespace nccl {
using Result = int;   // ncclResult_t
using DataType = int; // ncclDataType_t
using RedOp = int;    // ncclRedOp_t
constexpr Result Success = 0;
constexpr Result SystemError = 2;
constexpr Result InProgress = 7;
constexpr int SplitNoColor = -1;
} // namespace nccl
} // namespace rt
} // namespace distlint

extern "C" {
using distlint::rt::nccl::DataType;
using distlint::rt::nccl::RedOp;
using distlint::rt::nccl::Result;

Result ncclAllReduce(const void *, void *, size_t, DataType, RedOp, ncclComm_t,
                     cudaStream_t);
Result ncclBroadcast(const void *, void *, size_t, DataType, int, ncclComm_t,
                     cudaStream_t);
Result ncclBcast(void *, size_t, DataType, int, ncclComm_t, cudaStream_t);
Result ncclReduce(const void *, void *, size_t, DataType, RedOp, int, ncclComm_t,
                  cudaStream_t);
Result ncclAllGather(const void *, void *, size_t, DataType, ncclComm_t, cudaStream_t);
Result ncclReduceScatter(const void *, void *, size_t, DataType, RedOp, ncclComm_t,
                         cudaStream_t);
Result ncclAlltoAll(const void *, void *, size_t, DataType, ncclComm_t, cudaStream_t);
Result ncclGather(const void *, void *, size_t, DataType, int, ncclComm_t, cudaStream_t);
Result ncclScatter(const void *, void *, size_t, DataType, int, ncclComm_t,
                   cudaStream_t);
Result ncclSend(const void *, size_t, DataType, int, ncclComm_t, cudaStream_t);
Result ncclRecv(void *, size_t, DataType, int, ncclComm_t, cudaStream_t);
Result ncclGroupStart();
Result ncclGroupEnd();
Result ncclCommInitRank(ncclComm_t *, int, ncclUniqueId, int);
Result ncclCommInitRankConfig(ncclComm_t *, int, ncclUniqueId, int, ncclConfig_t *);
Result ncclCommInitRankScalable(ncclComm_t *, int, int, int, ncclUniqueId *,
                                ncclConfig_t *);
Result ncclCommInitAll(ncclComm_t *, int, const int *);
Result ncclCommSplit(ncclComm_t, int, int, ncclComm_t *, ncclConfig_t *);
Result ncclCommShrink(ncclComm_t, int *, int, ncclComm_t *, ncclConfig_t *, int);
Result ncclCommFinalize(ncclComm_t);
Result ncclCommDestroy(ncclComm_t);
Result ncclCommAbort(ncclComm_t);
Result ncclCommGetAsyncError(ncclComm_t, Result *);
Result ncclCommCount(const ncclComm_t, int *);
Result ncclCommUserRank(const ncclComm_t, int *);
}
