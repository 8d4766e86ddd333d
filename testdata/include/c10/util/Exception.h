// distlint test declarations: c10/util/Exception.h (LibTorch 1.13):
// TORCH_CHECK(cond, ...) throws c10::Error when cond is false.
#pragma once
#include <cstdint>

namespace c10 {
namespace detail {
[[noreturn]] void torchCheckFail(const char *func, const char *file,
                                 uint32_t line, const char *msg);
} // namespace detail
} // namespace c10

#define TORCH_CHECK(cond, ...)                                                 \
  if (!(cond)) {                                                               \
    ::c10::detail::torchCheckFail(__func__, __FILE__,                          \
                                  static_cast<uint32_t>(__LINE__),             \
                                  "Expected " #cond);                          \
  }
