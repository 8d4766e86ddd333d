// distlint test declarations: c10d reduce ops and per-collective options
// (LibTorch 1.13 / 2.x; identical in both).
#pragma once
#include <ATen/ATen.h>
#include <chrono>
#include <cstdint>
#include <string>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/custom_class.h>
#include <vector>

namespace c10d {

struct TORCH_API ReduceOp : torch::CustomClassHolder {
  enum RedOpType : uint8_t {
    SUM = 0,
    AVG = 1,
    PRODUCT = 2,
    MIN = 3,
    MAX = 4,
    BAND = 5,
    BOR = 6,
    BXOR = 7,
    PREMUL_SUM = 8,
    UNUSED = 9
  };
  ReduceOp() {}
  ReduceOp(RedOpType op) : op_(op) {}
  ReduceOp(const ReduceOp &other) : op_(other.op_) {}
  const ReduceOp &operator=(const ReduceOp &other) {
    op_ = other.op_;
    return *this;
  }
  operator RedOpType() const { return op_; }
  bool operator==(const ReduceOp &other) { return op_ == other.op_; }

  RedOpType op_ = SUM;
};

constexpr auto kUnsetTimeout = std::chrono::milliseconds(-1);

struct BroadcastOptions {
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllreduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllreduceCoalescedOptions : AllreduceOptions {};

struct ReduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllgatherOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct GatherOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct ScatterOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct ReduceScatterOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllToAllOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct BarrierOptions {
  std::vector<int64_t> device_ids;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct DistributedBackendOptions {
  c10::intrusive_ptr<::c10d::Store> store;
  int group_rank;
  int group_size;
  std::chrono::duration<float> timeout;
  std::string group_id;
  std::vector<int64_t> global_ranks_in_group;
};

} // namespace c10d

// The collective interface shared by ProcessGroup (1.13), Backend and their
// subclasses; SPEC is `virtual` in base classes and empty in subclasses,
// OVERRIDE is empty in base classes and `override` in subclasses.
#define DISTLINT_C10D_COLLECTIVES(SPEC, OVERRIDE)                              \
  SPEC c10::intrusive_ptr<Work> broadcast(                                     \
      std::vector<at::Tensor> &tensors,                                        \
      const BroadcastOptions &opts = BroadcastOptions()) OVERRIDE;             \
  SPEC c10::intrusive_ptr<Work> allreduce(                                     \
      std::vector<at::Tensor> &tensors,                                        \
      const AllreduceOptions &opts = AllreduceOptions()) OVERRIDE;             \
  SPEC c10::intrusive_ptr<Work> allreduce_coalesced(                           \
      std::vector<at::Tensor> &tensors,                                        \
      const AllreduceCoalescedOptions &opts = AllreduceCoalescedOptions())     \
      OVERRIDE;                                                                \
  SPEC c10::intrusive_ptr<Work> reduce(                                        \
      std::vector<at::Tensor> &tensors,                                        \
      const ReduceOptions &opts = ReduceOptions()) OVERRIDE;                   \
  SPEC c10::intrusive_ptr<Work> allgather(                                     \
      std::vector<std::vector<at::Tensor>> &outputTensors,                     \
      std::vector<at::Tensor> &inputTensors,                                   \
      const AllgatherOptions &opts = AllgatherOptions()) OVERRIDE;             \
  SPEC c10::intrusive_ptr<Work> _allgather_base(                               \
      at::Tensor &outputBuffer, at::Tensor &inputBuffer,                       \
      const AllgatherOptions &opts = AllgatherOptions()) OVERRIDE;             \
  SPEC c10::intrusive_ptr<Work> allgather_coalesced(                           \
      std::vector<std::vector<at::Tensor>> &outputTensorLists,                 \
      std::vector<at::Tensor> &inputTensors,                                   \
      const AllgatherOptions &opts = AllgatherOptions()) OVERRIDE;             \
  SPEC c10::intrusive_ptr<Work> gather(                                        \
      std::vector<std::vector<at::Tensor>> &outputTensors,                     \
      std::vector<at::Tensor> &inputTensors,                                   \
      const GatherOptions &opts = GatherOptions()) OVERRIDE;                   \
  SPEC c10::intrusive_ptr<Work> scatter(                                       \
      std::vector<at::Tensor> &outputTensors,                                  \
      std::vector<std::vector<at::Tensor>> &inputTensors,                      \
      const ScatterOptions &opts = ScatterOptions()) OVERRIDE;                 \
  SPEC c10::intrusive_ptr<Work> reduce_scatter(                                \
      std::vector<at::Tensor> &outputTensors,                                  \
      std::vector<std::vector<at::Tensor>> &inputTensors,                      \
      const ReduceScatterOptions &opts = ReduceScatterOptions()) OVERRIDE;     \
  SPEC c10::intrusive_ptr<Work> _reduce_scatter_base(                          \
      at::Tensor &outputBuffer, at::Tensor &inputBuffer,                       \
      const ReduceScatterOptions &opts = ReduceScatterOptions()) OVERRIDE;     \
  SPEC c10::intrusive_ptr<Work> alltoall_base(                                 \
      at::Tensor &outputBuffer, at::Tensor &inputBuffer,                       \
      std::vector<int64_t> &outputSplitSizes,                                  \
      std::vector<int64_t> &inputSplitSizes,                                   \
      const AllToAllOptions &opts = AllToAllOptions()) OVERRIDE;               \
  SPEC c10::intrusive_ptr<Work> alltoall(                                      \
      std::vector<at::Tensor> &outputTensors,                                  \
      std::vector<at::Tensor> &inputTensors,                                   \
      const AllToAllOptions &opts = AllToAllOptions()) OVERRIDE;               \
  SPEC void monitoredBarrier(const BarrierOptions &opts,                       \
                             bool waitAllRanks = false) OVERRIDE;              \
  SPEC void setSequenceNumberForGroup() OVERRIDE;                              \
  SPEC uint64_t getSequenceNumberForGroup() OVERRIDE;                          \
  SPEC c10::intrusive_ptr<Work> send(std::vector<at::Tensor> &tensors,         \
                                     int dstRank, int tag) OVERRIDE;           \
  SPEC c10::intrusive_ptr<Work> recv(std::vector<at::Tensor> &tensors,         \
                                     int srcRank, int tag) OVERRIDE;           \
  SPEC c10::intrusive_ptr<Work> recvAnysource(                                 \
      std::vector<at::Tensor> &tensors, int tag) OVERRIDE;                     \
  SPEC c10::intrusive_ptr<Work> barrier(                                       \
      const BarrierOptions &opts = BarrierOptions()) OVERRIDE
