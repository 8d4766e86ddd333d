// Switching off the NCCL watchdog's abort through the environment, in the
// spellings seen in the wild: setenv with the 2.x and 1.x names, putenv with
// NAME=VALUE (a literal and a static buffer), and ProcessGroupNCCL.hpp's
// own name constant.
// run: none -- needs NCCL and GPUs
// libtorch: 1.13
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include <cstdlib>

static char kMonitoringOff[] = "TORCH_NCCL_ENABLE_MONITORING=0";

void configure_env() {
  setenv("TORCH_NCCL_ASYNC_ERROR_HANDLING", "0", 1); // expect: distlint-missing-timeout
  ::setenv("NCCL_ASYNC_ERROR_HANDLING", "0", /*overwrite=*/1); // expect: distlint-missing-timeout
  putenv(const_cast<char *>("NCCL_ASYNC_ERROR_HANDLING=0")); // expect: distlint-missing-timeout
  putenv(kMonitoringOff); // expect: distlint-missing-timeout
  const char *off = "0";
  setenv(c10d::NCCL_ASYNC_ERROR_HANDLING, off, 1); // expect: distlint-missing-timeout
}
