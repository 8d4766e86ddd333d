// distlint test declarations: c10d::ProcessGroupGloo. Its Options inherit
// `timeout` (ProcessGroup::Options in 1.13, Backend::Options in 2.x); the
// library default is 30 minutes.
#pragma once
#include <memory>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <vector>
#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/distributed/c10d/Backend.hpp>
#endif

namespace gloo {
namespace transport {
class Device;
}
} // namespace gloo

namespace c10d {

constexpr const char *GLOO_BACKEND_NAME = "gloo";

#if TORCH_VERSION_MAJOR >= 2
#define DISTLINT_GLOO_BASE Backend
#define DISTLINT_GLOO_DEFAULT_TIMEOUT kBackendDefaultTimeout
#else
#define DISTLINT_GLOO_BASE ProcessGroup
#define DISTLINT_GLOO_DEFAULT_TIMEOUT kProcessGroupDefaultTimeout
#endif

class TORCH_API ProcessGroupGloo : public DISTLINT_GLOO_BASE {
public:
  struct TORCH_API Options : public DISTLINT_GLOO_BASE::Options {
    explicit Options(
        std::chrono::milliseconds timeout = DISTLINT_GLOO_DEFAULT_TIMEOUT);

    static c10::intrusive_ptr<Options>
    create(std::chrono::milliseconds timeout = DISTLINT_GLOO_DEFAULT_TIMEOUT) {
      return c10::make_intrusive<Options>(timeout);
    }

    std::vector<std::shared_ptr<::gloo::transport::Device>> devices;
    int threads;
  };

  const std::string getBackendName() const override {
    return std::string(GLOO_BACKEND_NAME);
  }

  static std::shared_ptr<::gloo::transport::Device>
  createDeviceForInterface(const std::string &interface);
  static std::shared_ptr<::gloo::transport::Device>
  createDeviceForHostname(const std::string &hostname);
  static std::shared_ptr<::gloo::transport::Device> createDefaultDevice();

  explicit ProcessGroupGloo(
      const c10::intrusive_ptr<Store> &store, int rank, int size,
      c10::intrusive_ptr<Options> options = Options::create());
  ~ProcessGroupGloo() override;

  c10::intrusive_ptr<Options> getOptions() { return options_; }

  DISTLINT_C10D_COLLECTIVES(, override);

#if TORCH_VERSION_MAJOR >= 2
  static c10::intrusive_ptr<ProcessGroupGloo>
  createProcessGroupGloo(const c10::intrusive_ptr<Store> &store, int rank,
                         int size, std::chrono::milliseconds timeout);
#endif

protected:
  const c10::intrusive_ptr<Options> options_;
};

#undef DISTLINT_GLOO_BASE
#undef DISTLINT_GLOO_DEFAULT_TIMEOUT

} // namespace c10d
