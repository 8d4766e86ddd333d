// Process-group options made in pg_factory.cpp.
#pragma once
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

namespace xtu {
/// Options with a five-minute timeout.
c10::intrusive_ptr<c10d::ProcessGroupNCCL::Options> boundedOptions();
/// Options as the library makes them: its default timeout applies.
c10::intrusive_ptr<c10d::ProcessGroupNCCL::Options> plainOptions(bool high);
} // namespace xtu
