//===- PythonChecks.cpp - What the Python startup hook recorded -----------===//
#include "PythonChecks.h"

#include <cstdio>

namespace distlint {
namespace rt {

namespace {

/// Counted Python calls: the check name each gets in the report.
struct CountedCall {
  OpCode Op;
  const char *Check;
};
const CountedCall CountedCalls[] = {
    {OpCode::PyTensorItem, "item"},
    {OpCode::PyTensorCpu, "cpu"},
    {OpCode::PyCudaSynchronize, "cuda-synchronize"},
};

std::string duration(int64_t Seconds) {
  char Buf[64];
  if (Seconds % 60 == 0)
    std::snprintf(Buf, sizeof(Buf), "%lld min", (long long)(Seconds / 60));
  else
    std::snprintf(Buf, sizeof(Buf), "%lld s", (long long)Seconds);
  return Buf;
}

} // namespace

std::vector<PythonFinding> pythonFindings(const Analysis &A) {
  std::vector<PythonFinding> Out;
  for (size_t T = 0; T < A.Traces.size(); ++T) {
    const RankTrace &Tr = A.Traces[T];
    for (const Record &R : Tr.Records) {
      if (R.Kind != RecordKind::PythonCheck)
        continue;
      PythonFinding F;
      F.Trace = int(T);
      F.Defect = true;
      F.Site = R.Frames[0];
      F.Call = R.info().Name;
      if (R.Peer > 0)
        F.Torch =
            std::to_string(R.Peer / 100) + "." + std::to_string(R.Peer % 100);
      if (PythonCheckKind(R.Tag) == PythonCheckKind::SamplerEpochRepeated) {
        F.Check = "set-epoch";
        F.Epoch = int64_t(R.Count);
      } else if (PythonCheckKind(R.Tag) == PythonCheckKind::NoTimeout) {
        F.Check = "no-timeout";
        F.DefaultSeconds = int64_t(R.Count);
        constexpr int NumBackends =
            sizeof(PythonBackendNames) / sizeof(PythonBackendNames[0]);
        if (R.DataType >= 0 && R.DataType < NumBackends)
          F.Backend = PythonBackendNames[R.DataType];
      } else {
        continue;
      }
      Out.push_back(F);
    }
    uint64_t Steps = 0;
    for (const SyncCount &C : Tr.Syncs)
      if (C.Op == OpCode::PyBackward)
        Steps += C.Count;
    for (const SyncCount &C : Tr.Syncs)
      for (const CountedCall &K : CountedCalls)
        if (C.Op == K.Op) {
          PythonFinding F;
          F.Trace = int(T);
          F.Check = K.Check;
          F.Site = C.Site;
          F.Call = opInfo(C.Op).Name;
          F.Count = C.Count;
          F.Steps = Steps;
          Out.push_back(F);
        }
  }
  return Out;
}

std::string describePythonFinding(const PythonFinding &F) {
  if (F.Check == "set-epoch")
    return "DistributedSampler iterated again with epoch " +
           std::to_string(F.Epoch) +
           " (the `for` over its loader): set_epoch() is missing or does not "
           "change, so every epoch sees the same order";
  if (F.Check == "no-timeout")
    return F.Call + "(" + (F.Backend.empty() ? "" : "\"" + F.Backend + "\"") +
           ") without a timeout: the default of " +
           (F.Torch.empty() ? std::string("this torch") : "torch " + F.Torch) +
           (F.Backend.empty() ? "" : " for " + F.Backend) + " applies, " +
           duration(F.DefaultSeconds) +
           ", so a rank that stops issuing collectives holds the others that "
           "long";
  char Buf[160];
  if (F.Steps)
    std::snprintf(Buf, sizeof(Buf), " (%.2f per step)",
                  double(F.Count) / double(F.Steps));
  else
    Buf[0] = 0;
  return F.Call + ": " + std::to_string(F.Count) + " call(s) in " +
         std::to_string(F.Steps) + " training step(s) (backward() calls)" + Buf;
}

} // namespace rt
} // namespace distlint
