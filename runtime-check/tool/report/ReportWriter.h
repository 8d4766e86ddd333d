//===- ReportWriter.h - distlint-rt report in text, JSON, SARIF -*- C++ -*-===//
#pragma once

#include "Join.h"
#include "Merge.h"
#include "Sites.h"

#include <ostream>
#include <string>

namespace distlint {
namespace rt {

enum class ReportFormat { Text, Json, Sarif };
bool parseReportFormat(const std::string &Text, ReportFormat &Out);

struct ReportInput {
  const Analysis &A;
  const Sites &S;
  const JoinResult *Join = nullptr; ///< Null without --findings.
  std::string TraceDir;
  std::string FindingsPath;
};

void writeTextReport(std::ostream &OS, const ReportInput &In);
void writeJsonReport(std::ostream &OS, const ReportInput &In);
void writeSarifReport(std::ostream &OS, const ReportInput &In);

/// Exit status of `distlint-rt report`: 0 clean, 1 problems found.
int reportExitCode(const Analysis &A);

} // namespace rt
} // namespace distlint
