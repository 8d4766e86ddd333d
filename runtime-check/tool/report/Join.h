//===- Join.h - Verdicts for distlint's static findings ---------*- C++ -*-===//
//
// A finding names a source line (and notes name more). The run tells, per
// rank, how often an operation was issued whose call-site (any recorded user
// frame, inlined frames included) is on that line:
//   confirmed          the members of a communicator issued it a different
//                      number of times, or a divergence/hang was seen there;
//   reached uniformly  every member issued it equally often, and alike;
//   not reached        no rank issued it.
// Runtime problems on lines no finding names are "runtime-only".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Merge.h"
#include "Sites.h"

#include <map>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

struct StaticNote {
  std::string File;
  unsigned Line = 0;
  std::string Message;
};

struct StaticFinding {
  std::string Rule;
  std::string Severity;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;
  std::vector<StaticNote> Notes;
  std::string Fingerprint;
};

/// Reads distlint's --format=json output.
bool readFindings(const std::string &Path, std::vector<StaticFinding> &Out,
                  std::string &Error);

enum class Verdict { Confirmed, ReachedUniformly, NotReached };
const char *verdictName(Verdict V);

struct JoinedFinding {
  StaticFinding Finding;
  Verdict Result = Verdict::NotReached;
  std::string Evidence;           ///< One sentence: why this verdict.
  std::map<int, uint64_t> Counts; ///< Global rank -> issues at the site.
  bool ViaNote = false;           ///< Matched a note's line, not the finding's.
};

/// A runtime problem (divergence, hang, unmatched point-to-point).
struct RuntimeProblem {
  std::string Kind; ///< "divergence", "hang", "p2p", "async-error".
  size_t Index = 0; ///< Into the analysis' vector of that kind.
  std::vector<RankOp> Records;
  std::string Summary;
};

struct JoinResult {
  std::vector<JoinedFinding> Findings;
  std::vector<RuntimeProblem> RuntimeOnly;
};

/// Every runtime problem of the analysis with the records it involves.
std::vector<RuntimeProblem> runtimeProblems(const Analysis &A, const Sites &S);

JoinResult join(const Analysis &A, const Sites &S,
                const std::vector<StaticFinding> &Findings);

} // namespace rt
} // namespace distlint
