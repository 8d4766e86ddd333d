//===- Budget.h - Every analysis limit of the engine, in one place -*- C++
//-*-===//
//
// Limits keep the engine linear on large TUs. When one is hit the result is
// partial: the hit is recorded in Hits (Engine::limits()) and reaches the user
// (distlint --verbose), never silently;
// the collective-sequence limits also print each hit to stderr under
// DISTLINT_DEBUG_BUDGETS.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace distlint {

struct Budget {
  /// Rounds of the TU-wide facts (fields, globals, sub-communicators).
  int TuRounds = 4;
  /// Rounds of branch taint -> control taint inside one function.
  int BranchRounds = 6;
  /// Solver block visits per block (uniformity, fail-stop...).
  unsigned SolverVisitsPerBlock = 50;
  /// Loop-head visits before widening.
  unsigned WidenAfter = 8;
  /// Nesting of specialized re-analyses (helpers called with a launcher
  /// variable's name), and the largest CFG re-analyzed per call.
  int SpecializationDepth = 2;
  unsigned SpecializationBlocks = 64;
  /// Blocks a collective-sequence walk may visit, steps of one ordered
  /// comparison of two arms (choices multiply), and the depth to which
  /// called functions' sequences are inlined.
  int SequenceBlocks = 4000;
  unsigned SequenceSteps = 20000;
  unsigned SequenceInlineDepth = 8;
  /// Blocks the search for arms that leave on some ranks while the others
  /// wait in a collective (ErrorPaths.h) may visit in one function; past it
  /// the remaining branches have none (their exits stay divergent).
  unsigned HangArmSteps = 20000;
  /// Fields one function's summary may say its parameters reach; beyond it
  /// the callers' arguments are not followed into further fields.
  unsigned ParamFieldWrites = 256;
  /// Callers followed for parameter-carried divergence.
  int CallerDepth = 3;
  /// Library (taught) functions analyzed per TU, reached from user code.
  unsigned TaughtFunctions = 256;
  /// Library bodies with larger CFGs give no summary.
  unsigned TaughtBodyBlocks = 400;
  /// Bytes of function bodies (CFG facts and per-block states) kept at
  /// once; beyond it the least recently used are dropped and rebuilt when
  /// asked for again (BodyCache.cpp), so memory follows the largest
  /// function, not the TU. DISTLINT_RESULT_CACHE_BYTES overrides it (the
  /// testdata harness runs with 0: every body is rebuilt on each use).
  size_t ResultCacheBytes = resultCacheBytes();

  /// The default (BodyCache.cpp), or DISTLINT_RESULT_CACHE_BYTES.
  static size_t resultCacheBytes();

  /// Bodies the result cache dropped and rebuilt so far (not hits: the
  /// answers stay the same, only the time grows).
  unsigned ResultCacheDrops = 0, ResultCacheRebuilds = 0;

  /// Every hit counts (a region of the analysis compares HitCount before
  /// and after to know whether it is complete); Hits keeps the distinct
  /// lines, "<limit> in <function>", at most MaxHitLines of them.
  static constexpr size_t MaxHitLines = 32;
  unsigned HitCount = 0;
  std::vector<std::string> Hits;
  void hit(const char *Limit, const std::string &Where) {
    ++HitCount;
    std::string Line = std::string(Limit) + " in " + Where;
    if (Hits.size() < MaxHitLines &&
        std::find(Hits.begin(), Hits.end(), Line) == Hits.end())
      Hits.push_back(std::move(Line));
  }
};

} // namespace distlint
