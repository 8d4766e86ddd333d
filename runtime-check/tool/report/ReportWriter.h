//===- ReportWriter.h - distlint-rt report in text, JSON, SARIF -*- C++ -*-===//
#pragma once

#include "ReportModel.h"

#include <ostream>
#include <string>

namespace distlint {
namespace rt {

enum class ReportFormat { Text, Json, Sarif };
bool parseReportFormat(const std::string &Text, ReportFormat &Out);

/// The renderers only format the model (buildReportModel resolves it).
void writeTextReport(std::ostream &OS, const ReportModel &M);
void writeJsonReport(std::ostream &OS, const ReportModel &M);
void writeSarifReport(std::ostream &OS, const ReportModel &M);

/// Builds the model and renders one format (for callers with one report).
inline void writeTextReport(std::ostream &OS, const ReportInput &In) {
  writeTextReport(OS, buildReportModel(In));
}
inline void writeJsonReport(std::ostream &OS, const ReportInput &In) {
  writeJsonReport(OS, buildReportModel(In));
}
inline void writeSarifReport(std::ostream &OS, const ReportInput &In) {
  writeSarifReport(OS, buildReportModel(In));
}

/// Exit status of `distlint-rt report`: 0 clean, 1 problems found.
int reportExitCode(const Analysis &A);

} // namespace rt
} // namespace distlint
