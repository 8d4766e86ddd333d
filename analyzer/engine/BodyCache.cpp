//===- BodyCache.cpp - Function bodies kept within a memory budget -------===//
//
// Every function's result stays for the whole TU, but its body (CFG facts,
// per-block states) only while the bodies fit Budget::ResultCacheBytes:
// least recently used first, bodies nobody holds (ResidentResult / FactsRef
// pins) are dropped, and resident() rebuilds one when it is asked for again.
// So memory grows with the largest function rather than with the TU, and a
// rebuild costs one more analysis of that function.
//
// A rebuild must give the states the first analysis gave, or findings would
// depend on the budget. It runs the last round of the data-flow once more,
// from the branch taints that round ran under (FunctionResult::ControlSeed),
// so it costs one round, not the whole fixpoint. It gives the same states when
// the first analysis saw no function in progress (a recursion cut answers with
// a partial result), ran outside a specialized re-analysis, and neither grew
// the TU facts (TuFacts::stamp) nor learnt new aliases while it ran, and the TU
// facts have not grown since: then a second analysis reads the same callee
// results and the same TU facts. Only such bodies are ever dropped; the others
// stay.
//
//===----------------------------------------------------------------------===//
#include "engine/AnalysisManager.h"
#include "engine/cfg/ErrorPaths.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include <algorithm>
#include <cstdlib>

using namespace clang;

namespace distlint {

size_t Budget::resultCacheBytes() {
  if (const char *Env = std::getenv("DISTLINT_RESULT_CACHE_BYTES"))
    return std::strtoull(Env, nullptr, 10);
  // Hundreds of functions (bench/scaling's are ~25 KB each): TUs up to that
  // size never rebuild a body. Beyond it each body dropped is rebuilt about
  // once, when the rules ask about its function.
  return size_t(16) << 20;
}

size_t FunctionBody::approxBytes() const {
  // Calibrated against heap profiles of generated TUs (bench/scaling): the
  // CFG with its statement maps and post-dominator tree costs about this
  // much per block and per element, a state about this much per variable.
  constexpr size_t PerBlock = 700, PerElement = 160, PerVariable = 170;
  size_t Blocks = 0, Elements = 0, Variables = AllPoints.size();
  if (Facts)
    for (const CFGBlock *B : Facts->cfg()) {
      ++Blocks;
      Elements += B->size();
    }
  for (const auto &Entry : In)
    Variables += Entry.second.size();
  return Blocks * PerBlock + Elements * PerElement + Variables * PerVariable +
         BranchTaint.size() * sizeof(Taint);
}

void AnalysisManager::addAlias(const VarDecl *Holder, const VarDecl *Tensor) {
  auto &Held = Aliases[Holder];
  if (!llvm::is_contained(Held, Tensor)) {
    Held.push_back(Tensor);
    ++AliasCount;
  }
}

void AnalysisManager::beginAnalysis(FunctionResult &R) {
  R.Analyzing = true;
  // Inside a specialized re-analysis a callee may meet its placeholder.
  R.Reproducible = SpecializationDepth == 0;
  Running.push_back(&R);
}

void AnalysisManager::noteRecursionCut(FunctionResult &Open) {
  // Every analysis from Open inwards may have read Open's partial result.
  auto It = std::find(Running.begin(), Running.end(), &Open);
  for (; It != Running.end(); ++It)
    (*It)->Reproducible = false;
}

void AnalysisManager::endAnalysis(FunctionResult &R, unsigned StartStamp,
                                  unsigned StartAliases) {
  if (!Running.empty() && Running.back() == &R)
    Running.pop_back();
  R.Analyzing = false;
  R.Stamp = growthStamp();
  if (growthStamp() != StartStamp || AliasCount != StartAliases)
    R.Reproducible = false;
  if (R.Reproducible) {
    touch(R);
    trim();
  }
}

ResidentResult AnalysisManager::resident(const FunctionDecl *FD) {
  FunctionResult *R = analyze(FD);
  if (!R || !R->HasCfg)
    return {};
  if (!R->Body) {
    if (R->Rebuilding)
      return {}; // Cannot happen for a reproducible result; stay safe.
    if (const FunctionDecl *Def = FD->getDefinition())
      FD = Def;
    rebuildBody(FD, *R);
    if (!R->Body)
      return {};
  }
  ResidentResult Held(R);
  if (R->Listed) {
    touch(*R);
    trim();
  }
  return Held;
}

void AnalysisManager::rebuildBody(const FunctionDecl *FD, FunctionResult &R) {
  // The analysis runs again into a scratch result; only its body is kept,
  // the summary and the other bottom-up facts stay those of the first run.
  FunctionResult Scratch;
  Scratch.Body = std::make_unique<FunctionBody>();
  Scratch.Body->Facts = FunctionFacts::build(FD, E.Ctx);
  if (!Scratch.Body->Facts)
    return;
  // Its budget hits were recorded by the first analysis already.
  size_t HitsBefore = Limits.Hits.size();
  unsigned HitCountBefore = Limits.HitCount;
  R.Rebuilding = true;
  computeDoomed(FD, Scratch);
  Scratch.Body->ErrorPaths = errorPathBlocks(E, *Scratch.Body->Facts);
  UniformityAnalysis U(E, FD, Scratch);
  U.rerun(R.ControlSeed);
  R.Rebuilding = false;
  Limits.Hits.resize(HitsBefore);
  Limits.HitCount = HitCountBefore;
  R.Body = std::move(Scratch.Body);
  ++Limits.ResultCacheRebuilds;
  touch(R);
}

void AnalysisManager::touch(FunctionResult &R) {
  if (R.Listed) {
    Lru.splice(Lru.begin(), Lru, R.LruPos);
    return;
  }
  R.Bytes = R.Body->approxBytes();
  // The rules ask about the functions after the TU is analyzed, in about
  // the order they were analyzed: a body analyzed then goes to the back, to
  // be dropped first, so that the first ones are still there when asked for
  // (at the front, the last ones would stay and every question would miss).
  if (Preparing) {
    Lru.push_back(&R);
    R.LruPos = std::prev(Lru.end());
  } else {
    Lru.push_front(&R);
    R.LruPos = Lru.begin();
  }
  R.Listed = true;
  ListedBytes += R.Bytes;
  ListedSizes.insert(R.Bytes);
}

void AnalysisManager::unlist(FunctionResult &R) {
  Lru.erase(R.LruPos);
  R.Listed = false;
  ListedBytes -= R.Bytes;
  ListedSizes.erase(ListedSizes.find(R.Bytes));
}

void AnalysisManager::trim() {
  // The budget is for the other bodies: one function larger than the budget
  // (a driver calling 10,000 helpers) would otherwise be dropped after every
  // question and rebuilt by the next one, losing its replay checkpoints.
  size_t Largest = ListedSizes.empty() ? 0 : *ListedSizes.rbegin();
  size_t Allowed = Limits.ResultCacheBytes + Largest;
  auto It = Lru.end();
  while (ListedBytes > Allowed && It != Lru.begin()) {
    FunctionResult *R = *--It;
    if (R->Pins || R->Analyzing)
      continue;
    ++It; // Past R, which leaves the list.
    unlist(*R);
    // Grown TU facts would give another body: this one stays, unlisted.
    if (R->Stamp != growthStamp())
      continue;
    R->Body.reset();
    ++Limits.ResultCacheDrops;
  }
}

void AnalysisManager::forgetAll() {
  Lru.clear();
  ListedBytes = 0;
  ListedSizes.clear();
}

} // namespace distlint
