//===- ReportWriter.cpp - distlint-rt report: formats and shared names ----===//
//
// ReportModel.cpp resolves the report once; ReportText.cpp, ReportJson.cpp
// and ReportSarif.cpp format it. The names they share are here.
//
//===----------------------------------------------------------------------===//
#include "ReportShared.h"

namespace distlint {
namespace rt {

bool parseReportFormat(const std::string &Text, ReportFormat &Out) {
  if (Text == "text")
    Out = ReportFormat::Text;
  else if (Text == "json")
    Out = ReportFormat::Json;
  else if (Text == "sarif")
    Out = ReportFormat::Sarif;
  else
    return false;
  return true;
}

int reportExitCode(const Analysis &A) { return A.clean() ? 0 : 1; }

const char *apiName(Api A) {
  switch (A) {
  case Api::Nccl:
    return "NCCL";
  case Api::Mpi:
    return "MPI";
  case Api::Cuda:
    return "CUDA";
  case Api::C10d:
    return "c10d process group";
  default:
    return "?";
  }
}

const char *liveKindName(MismatchKind K) {
  switch (K) {
  case MismatchKind::Fingerprint:
    return "fingerprint";
  case MismatchKind::MovedOn:
    return "moved-on";
  case MismatchKind::CrossWait:
    return "cross-wait";
  }
  return "unknown";
}

std::string joinList(const std::vector<std::string> &Items) {
  std::string S;
  for (size_t I = 0; I < Items.size(); ++I)
    S += (I == 0 ? "" : I + 1 == Items.size() ? " and " : ", ") + Items[I];
  return S;
}

} // namespace rt
} // namespace distlint
