// distlint test declarations: c10d::ProcessGroupNCCL. Options::create() takes
// no timeout: the inherited `timeout` field must be assigned. The watchdog
// that aborts hung collectives is controlled by environment variables.
#pragma once
#include <chrono>
#include <nccl.h>
#include <string>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <vector>
#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/distributed/c10d/Backend.hpp>
#endif

namespace c10d {

#if TORCH_VERSION_MAJOR >= 2
static std::vector<std::string> TORCH_NCCL_BLOCKING_WAIT = {
    "TORCH_NCCL_BLOCKING_WAIT", "NCCL_BLOCKING_WAIT"};
static std::vector<std::string> TORCH_NCCL_ASYNC_ERROR_HANDLING = {
    "TORCH_NCCL_ASYNC_ERROR_HANDLING", "NCCL_ASYNC_ERROR_HANDLING"};
static std::vector<std::string> TORCH_NCCL_ENABLE_MONITORING = {
    "TORCH_NCCL_ENABLE_MONITORING"};
// Since 2.2 (before: the backend default, 30 minutes).
constexpr auto kProcessGroupNCCLDefaultTimeout =
    std::chrono::milliseconds(10 * 60 * 1000);
#define DISTLINT_NCCL_BASE Backend
#else
constexpr const char *NCCL_BLOCKING_WAIT = "NCCL_BLOCKING_WAIT";
constexpr const char *NCCL_ASYNC_ERROR_HANDLING = "NCCL_ASYNC_ERROR_HANDLING";
#define DISTLINT_NCCL_BASE ProcessGroup
#endif

constexpr const char *NCCL_BACKEND_NAME = "nccl";

enum ErrorHandlingMode { NoHandling = 0, TearDown = 1, CleanUpOnly = 2 };

class TORCH_API ProcessGroupNCCL : public DISTLINT_NCCL_BASE {
public:
  struct Options : DISTLINT_NCCL_BASE::Options {
    explicit Options(bool is_high_priority_stream = false);

    static c10::intrusive_ptr<Options>
    create(bool is_high_priority_stream = false) {
      return c10::make_intrusive<Options>(is_high_priority_stream);
    }

    bool is_high_priority_stream;
#if TORCH_VERSION_MAJOR >= 2
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    std::shared_ptr<ProcessGroupNCCL> split_from;
    int split_color;
    std::vector<uint64_t> global_ranks_in_group;
    std::string group_name;
#endif
  };

#if TORCH_VERSION_MAJOR >= 2
  ProcessGroupNCCL(c10::intrusive_ptr<Store> store, int rank, int size,
                   c10::intrusive_ptr<Options> options = Options::create());
#else
  ProcessGroupNCCL(const c10::intrusive_ptr<Store> &store, int rank, int size,
                   c10::intrusive_ptr<Options> options = Options::create());
#endif
  C10_DEPRECATED ProcessGroupNCCL(
      const c10::intrusive_ptr<Store> &store, int rank, int size,
      const std::string &groupName,
      c10::intrusive_ptr<Options> options = Options::create())
      : ProcessGroupNCCL(store, rank, size, options) {}
  ~ProcessGroupNCCL() override;

  c10::intrusive_ptr<Options> getOptions() { return options_; }
  const std::string getBackendName() const override {
    return std::string(NCCL_BACKEND_NAME);
  }

#if TORCH_VERSION_MAJOR >= 2
  void startCoalescing() override;
  c10::intrusive_ptr<Work> endCoalescing() override;
#else
  void startCoalescing() override;
  void endCoalescing(std::vector<c10::intrusive_ptr<Work>> &reqs) override;
#endif

  DISTLINT_C10D_COLLECTIVES(, override);

  c10::intrusive_ptr<Work>
  _broadcast_oop(std::vector<at::Tensor> &outputTensors,
                 std::vector<at::Tensor> &inputTensors,
                 const BroadcastOptions &opts = BroadcastOptions());
  c10::intrusive_ptr<Work>
  _reduce_oop(std::vector<at::Tensor> &outputTensors,
              std::vector<at::Tensor> &inputTensors,
              const ReduceOptions &opts = ReduceOptions());

protected:
  const c10::intrusive_ptr<Options> options_;
};

#undef DISTLINT_NCCL_BASE

} // namespace c10d
