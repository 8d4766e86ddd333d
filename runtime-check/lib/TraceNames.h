//===- TraceNames.h - Names of a trace's codes ------------------*- C++ -*-===//
//
// How reports spell what a record stores as a code: datatypes, reduction
// operations per API, and communicator ids in their short form.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "TraceFormat.h"

#include <cstdint>
#include <string>

namespace distlint {
namespace rt {

/// "float32", "MPI_INT", "derived type of 12 bytes"; "" for none (< 0).
std::string dataTypeName(Api ApiId, int32_t Code);
/// "sum", "MPI_MAX", "PREMUL_SUM"; "" for none (< 0).
std::string redOpName(Api ApiId, int32_t Code);
/// The 32-bit form of a communicator id reports show.
inline uint64_t shortCommId(uint64_t Id) {
  return (Id >> 32) ^ (Id & 0xffffffffull);
}
/// shortCommId as 8 hex digits.
std::string commName(uint64_t Id);

} // namespace rt
} // namespace distlint
