// distlint test declarations: <gloo/common/error.h>: kNoTimeout (zero)
// makes every wait of a context unbounded.
#pragma once
#include <chrono>

namespace gloo {
const std::chrono::milliseconds kNoTimeout = std::chrono::milliseconds::zero();
} // namespace gloo
