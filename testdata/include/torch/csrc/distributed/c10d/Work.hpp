// distlint test declarations: c10d::Work, what every collective returns.
#pragma once
#include <ATen/ATen.h>
#include <chrono>
#include <exception>
#include <torch/custom_class.h>
#include <vector>

constexpr auto kNoTimeout = std::chrono::milliseconds(0);

namespace c10d {

enum class OpType : std::uint8_t {
  BROADCAST = 0,
  ALLREDUCE = 1,
  ALLREDUCE_COALESCED = 2,
  REDUCE = 3,
  ALLGATHER = 4,
  _ALLGATHER_BASE = 5,
  ALLGATHER_COALESCED = 6,
  GATHER = 7,
  SCATTER = 8,
  REDUCE_SCATTER = 9,
  ALLTOALL_BASE = 10,
  ALLTOALL = 11,
  SEND = 12,
  RECV = 13,
  RECVANYSOURCE = 14,
  BARRIER = 15,
  _REDUCE_SCATTER_BASE = 16,
  UNKNOWN = 100,
};

class TORCH_API Work : public torch::CustomClassHolder {
public:
  Work(int rank = -1, OpType opType = OpType::UNKNOWN,
       const char *profilingTitle = nullptr,
       const c10::optional<std::vector<at::Tensor>> &inputTensors =
           c10::nullopt);
  ~Work() override;

  virtual bool isCompleted();
  virtual bool isSuccess() const;
  virtual std::exception_ptr exception() const;
  virtual int sourceRank() const;
  virtual std::vector<at::Tensor> result();
  virtual void synchronize();
  /// Waits for completion; kNoTimeout waits forever.
  virtual bool wait(std::chrono::milliseconds timeout = kNoTimeout);
  virtual void abort();
  OpType retrieveOpType();
};

} // namespace c10d
