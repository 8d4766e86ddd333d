//===- ReportShared.h - What the report renderers share ---------*- C++ -*-===//
//
// Names the report model and its text, JSON and SARIF renderers
// (ReportModel.cpp, ReportText.cpp, ReportJson.cpp, ReportSarif.cpp) spell
// alike. Internal to report/.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ReportWriter.h"

#include <string>
#include <vector>

#ifndef DISTLINT_VERSION
#define DISTLINT_VERSION "0" // Set by the build (CMakeLists.txt).
#endif

namespace distlint {
namespace rt {

/// "NCCL", "MPI", "CUDA", "c10d process group".
const char *apiName(Api A);
/// A live report's kind as JSON names it ("fingerprint", "moved-on", ...).
const char *liveKindName(MismatchKind K);
/// "a", "a and b", "a, b and c".
std::string joinList(const std::vector<std::string> &Items);

} // namespace rt
} // namespace distlint
