//===- TorchDescribe.cpp - libdistlint-rt-torch.so: read c10d arguments
//----===//
//
// Loaded by libdistlint-rt.so (dlopen, only into processes that already run
// LibTorch) to describe a process-group call: tensors, dtype, shape,
// reduction, root. Built against the LibTorch headers of the release the
// program uses, so the options' layouts and Tensor's accessors are LibTorch's
// own. Nothing here allocates or throws into the hook.
//
//===----------------------------------------------------------------------===//
#include "TorchAbi.h"
#include "TraceFormat.h"

#include <ATen/core/Tensor.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp>

#include <torch/version.h>

#include <vector>

// The hooked classes derive from ProcessGroup up to 1.13, from Backend
// since 2.0.
#if TORCH_VERSION_MAJOR >= 2
using HookedGroup = c10d::Backend;
#else
using HookedGroup = c10d::ProcessGroup;
#endif

using distlint::rt::OpCode;
using TensorList = std::vector<at::Tensor>;
using TensorLists = std::vector<TensorList>;

namespace {

void addTensor(const at::Tensor &T, DlrtTorchDesc &Out) {
  if (!T.defined())
    return;
  Out.Count += uint64_t(T.numel());
  if (Out.Tensors++ == 0) {
    Out.DataType = int32_t(T.scalar_type());
    auto Sizes = T.sizes();
    Out.Shape = dlrtShapeCode(Sizes.data(), int64_t(Sizes.size()));
  }
}

void addList(const void *List, DlrtTorchDesc &Out) {
  if (List)
    for (const at::Tensor &T : *static_cast<const TensorList *>(List))
      addTensor(T, Out);
}

void addLists(const void *Lists, DlrtTorchDesc &Out) {
  if (Lists)
    for (const TensorList &L : *static_cast<const TensorLists *>(Lists))
      for (const at::Tensor &T : L)
        addTensor(T, Out);
}

template <class Options> const Options &opts(const DlrtTorchArgs *A) {
  return *static_cast<const Options *>(A->Options);
}

int32_t redOp(const c10d::ReduceOp &Op) { return int32_t(Op.op_); }

} // namespace

extern "C" __attribute__((visibility("default"))) int dlrt_torch_abi() {
  return kDlrtTorchAbi;
}

extern "C" __attribute__((visibility("default"))) int
dlrt_torch_describe(int Op, const DlrtTorchArgs *A, DlrtTorchDesc *Out) try {
  *Out = DlrtTorchDesc{0, -1, -1, -1, 0, 0};
  switch (OpCode(Op)) {
  case OpCode::C10dAllreduce:
  case OpCode::C10dAllreduceCoalesced:
    addList(A->First, *Out);
    Out->RedOp = redOp(opts<c10d::AllreduceOptions>(A).reduceOp);
    return 0;
  case OpCode::C10dBroadcast:
    addList(A->First, *Out);
    Out->Root = int32_t(opts<c10d::BroadcastOptions>(A).rootRank);
    return 0;
  case OpCode::C10dReduce:
    addList(A->First, *Out);
    Out->RedOp = redOp(opts<c10d::ReduceOptions>(A).reduceOp);
    Out->Root = int32_t(opts<c10d::ReduceOptions>(A).rootRank);
    return 0;
  case OpCode::C10dAllgather:
  case OpCode::C10dAllgatherCoalesced:
    addList(A->Second, *Out); // (outputs, inputs): what this rank contributes.
    return 0;
  case OpCode::C10dGather:
    addList(A->Second, *Out);
    Out->Root = int32_t(opts<c10d::GatherOptions>(A).rootRank);
    return 0;
  case OpCode::C10dScatter:
    addList(A->First, *Out); // Inputs exist on the root only: count outputs.
    Out->Root = int32_t(opts<c10d::ScatterOptions>(A).rootRank);
    return 0;
  case OpCode::C10dReduceScatter:
    addList(A->First, *Out); // This rank's share, the same on every rank.
    Out->RedOp = redOp(opts<c10d::ReduceScatterOptions>(A).reduceOp);
    return 0;
  case OpCode::C10dReduceScatterBase:
    addTensor(*static_cast<const at::Tensor *>(A->First), *Out);
    Out->RedOp = redOp(opts<c10d::ReduceScatterOptions>(A).reduceOp);
    return 0;
  case OpCode::C10dAllgatherBase:
  case OpCode::C10dAlltoallBase:
    addTensor(*static_cast<const at::Tensor *>(A->Second), *Out);
    return 0;
  case OpCode::C10dAlltoall:
    addList(A->Second, *Out);
    return 0;
  case OpCode::C10dSend:
  case OpCode::C10dRecv:
  case OpCode::C10dRecvAnysource:
    addList(A->First, *Out);
    return 0;
  case OpCode::C10dBarrier:
    return 0;
  default:
    return 1;
  }
} catch (...) {
  return 1;
}

extern "C" __attribute__((visibility("default"))) int
dlrt_torch_group(const void *Group, int32_t *Rank, int32_t *Size) try {
  const auto *G = static_cast<const HookedGroup *>(Group);
  *Rank = G->getRank();
  *Size = G->getSize();
  return 0;
} catch (...) {
  return 1;
}
