// distlint test declarations: c10d::ProcessGroup.
//
// LibTorch 1.13: ProcessGroup is the base class of ProcessGroupGloo/NCCL/MPI
// and declares the virtual collectives. LibTorch 2.x (-DDISTLINT_TORCH_2X,
// modelled on 2.6): ProcessGroup is the user-facing wrapper that dispatches
// each collective to the c10d::Backend registered for the tensors' device
// (setBackend / getBackend).
#pragma once
#include <ATen/ATen.h>
#include <chrono>
#include <string>
#include <torch/csrc/distributed/c10d/Types.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>
#include <torch/custom_class.h>
#include <torch/version.h>
#include <vector>
#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/distributed/c10d/Backend.hpp>
#endif

constexpr auto kProcessGroupDefaultTimeout =
    std::chrono::milliseconds(30 * 60 * 1000);

namespace c10d {

class TORCH_API ProcessGroup : public torch::CustomClassHolder {
public:
#if TORCH_VERSION_MAJOR >= 2
  // LibTorch 2.6: no ProcessGroup::Options; timeouts live in Backend::Options.
  enum BackendType : uint8_t {
    UNDEFINED = 0,
    GLOO = 1,
    NCCL = 2,
    UCC = 3,
    MPI = 4,
    CUSTOM = 5,
  };

  explicit ProcessGroup(int rank, int size);
  explicit ProcessGroup(c10::intrusive_ptr<::c10d::Store> store, int rank,
                        int size);
  ~ProcessGroup() override;

  virtual int getRank() const { return rank_; }
  virtual int getSize() const { return size_; }
  virtual const std::string getBackendName() const;
  BackendType getBackendType() const;
  virtual void startCoalescing(c10::DeviceType deviceType);
  virtual c10::intrusive_ptr<Work> endCoalescing(c10::DeviceType deviceType);

  // Each collective is routed through the dispatcher to the backend of the
  // tensors' device.
  DISTLINT_C10D_COLLECTIVES(virtual, );

  bool hasBackends();
  void setBackend(c10::DeviceType deviceType, BackendType backendType,
                  const c10::optional<c10::intrusive_ptr<Backend>> &backend);
  c10::intrusive_ptr<Backend> getDefaultBackend() const;
  c10::intrusive_ptr<Backend> getBackend(c10::DeviceType deviceType);
  c10::intrusive_ptr<Backend> getBackend(BackendType backendType) const;
  void setDefaultBackend(const BackendType &backendType);
#else
  struct TORCH_API Options : torch::CustomClassHolder {
    explicit Options(
        std::string backend,
        std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout)
        : timeout(timeout), backend(std::move(backend)) {}
    ~Options() override = default;

    std::chrono::milliseconds timeout;
    const std::string backend;
  };

  explicit ProcessGroup(int rank, int size);
  ~ProcessGroup() override;

  int getRank() const { return rank_; }
  int getSize() const { return size_; }
  virtual const std::string getBackendName() const;
  virtual void startCoalescing();
  virtual void endCoalescing(std::vector<c10::intrusive_ptr<Work>> &reqs);

  DISTLINT_C10D_COLLECTIVES(virtual, );
#endif

protected:
  void init();
  const int rank_;
  const int size_;
};

} // namespace c10d
