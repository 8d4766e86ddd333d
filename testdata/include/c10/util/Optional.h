// distlint test declarations: c10::optional (std::optional in LibTorch 2.x).
#pragma once
#include <optional>

namespace c10 {
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
} // namespace c10
