// The factories' bodies: the process groups are built in pg_main.cpp.
#include "pg_factory.h"

#include <chrono>

namespace xtu {

c10::intrusive_ptr<c10d::ProcessGroupNCCL::Options> boundedOptions() {
  auto opts = c10d::ProcessGroupNCCL::Options::create();
  opts->timeout = std::chrono::minutes(5);
  return opts;
}

c10::intrusive_ptr<c10d::ProcessGroupNCCL::Options> plainOptions(bool high) {
  auto opts = c10d::ProcessGroupNCCL::Options::create(); // expect-note: options created here
  if (high)
    opts->is_high_priority_stream = true;
  return opts;
}

} // namespace xtu
