// distlint test declarations: c10d::Backend.
//
// LibTorch 2.x (-DDISTLINT_TORCH_2X, see <torch/version.h>): Backend is the
// base of ProcessGroupGloo/NCCL/MPI and carries the collectives; its nested
// Backend::Options holds the timeout. LibTorch 1.13 (Debian) ships an early,
// unused Backend with a namespace-level c10d::Options; it is declared here
// the same way so code written against either compiles.
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

constexpr auto kBackendDefaultTimeout =
    std::chrono::milliseconds(30 * 60 * 1000);

namespace c10d {

class TORCH_API Backend : public torch::CustomClassHolder {
public:
  struct TORCH_API Options : torch::CustomClassHolder {
    explicit Options(std::string backend,
                     std::chrono::milliseconds timeout = kBackendDefaultTimeout)
        : timeout(timeout), backend(std::move(backend)) {}
    ~Options() override = default;

    std::chrono::milliseconds timeout;
    const std::string backend;
  };

  explicit Backend(int rank, int size);
  ~Backend() override = 0;

  int getRank() const { return rank_; }
  int getSize() const { return size_; }
  virtual const std::string getBackendName() const;
  virtual void startCoalescing();
  virtual c10::intrusive_ptr<Work> endCoalescing();

  DISTLINT_C10D_COLLECTIVES(virtual, );

protected:
  const int rank_;
  const int size_;
};

} // namespace c10d

#else // LibTorch 1.13

constexpr auto kDefaultTimeout = std::chrono::milliseconds(30 * 60 * 1000);

namespace c10d {

struct TORCH_API Options : torch::CustomClassHolder {
  explicit Options(std::string backend,
                   std::chrono::milliseconds timeout = kDefaultTimeout)
      : timeout(timeout), backend(std::move(backend)) {}
  ~Options() override = default;

  std::chrono::milliseconds timeout;
  const std::string backend;
};

class TORCH_API Backend : public torch::CustomClassHolder {
public:
  explicit Backend(int rank, int size);
  ~Backend() override = 0;

  virtual const std::string getBackendName() const;

  DISTLINT_C10D_COLLECTIVES(virtual, );

  int getRank() const { return rank_; }
  int getSize() const { return size_; }

protected:
  const int rank_;
  const int size_;
};

} // namespace c10d

#endif
