//===- AllRules.cpp - The registry of distlint's rules --------------------===//
//
// One line per rule; ids are fixed (README, SARIF, suppressions use them).
//
//===----------------------------------------------------------------------===//
#include "Rule.h"

#include "MissingSetEpochRule.h"
#include "MissingTimeoutRule.h"
#include "RankDivergentCollectiveRule.h"
#include "StrayDeviceSyncRule.h"

namespace distlint {

template <typename T> static std::unique_ptr<Rule> create() {
  return std::make_unique<T>();
}

const std::vector<RuleInfo> &allRules() {
  static const std::vector<RuleInfo> Rules = {
      {"distlint-rank-divergent-collective",
       "A collective that not every rank reaches, or whose arguments differ "
       "between ranks, hangs the job.",
       &create<RankDivergentCollectiveRule>},
      {"distlint-missing-set-epoch",
       "A DistributedRandomSampler without an effective set_epoch gives every "
       "epoch the same order (or every rank the same data).",
       &create<MissingSetEpochRule>},
      {"distlint-stray-device-sync",
       "A device-wide or implicit host/device sync in every training step "
       "stalls the GPU pipeline.",
       &create<StrayDeviceSyncRule>},
      {"distlint-missing-timeout",
       "A process group, store or NCCL communicator without a usable timeout "
       "turns a hang into a job that never fails.",
       &create<MissingTimeoutRule>},
  };
  return Rules;
}

} // namespace distlint
