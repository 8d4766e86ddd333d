//===- StrayDeviceSyncRule.cpp --------------------------------------------===//
//
// Matcher: every call. Engine questions: is it a sync (engine/devices/
// Syncs.h), does it run on every training step (Loops.h: runsEveryStep,
// through helpers, skipping `step % N == 0`-style guards and loops of check
// macros), and does the host read what it waited for right away
// (HostReads.h). A sync that runs only when a run-time option is set away
// from its default (Loops.h: optInGuard) is the user's choice. A sync inside
// a helper that the step loop calls directly is reported at that call (where
// the fix goes), with a note at the sync.
//
//===----------------------------------------------------------------------===//
#include "StrayDeviceSyncRule.h"
#include "api/ProjectFacts.h"
#include "engine/Engine.h"
#include "engine/UserCode.h"
#include "engine/devices/Devices.h"
#include "engine/devices/HostDecisions.h"
#include "engine/devices/HostReads.h"
#include "engine/devices/Syncs.h"
#include "engine/loops/Loops.h"
#include "fixes/DeviceSyncFixes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

namespace {
const char *message(SyncKind Kind) {
  switch (Kind) {
  case SyncKind::Device:
    return "%0 in every training step makes the host wait until all queued "
           "GPU work has finished, so the CPU cannot queue the next step "
           "while the GPU runs; remove it, or wait only for the stream whose "
           "result the host reads (or only every N steps)";
  case SyncKind::StreamOrEvent:
    return "%0 in every training step blocks the host, and nothing on the "
           "host reads the synchronized result before the next device work; "
           "drop it, or order the streams on the device with an event "
           "(cudaStreamWaitEvent) instead";
  case SyncKind::Implicit:
    return "%0 copies device data to the host in every training step: the "
           "host waits for all queued GPU work each step, which stalls the "
           "pipeline; keep the value on the device (accumulate it there) and "
           "read it only every N steps, e.g. under "
           "`if (step % log_every == 0)`";
  case SyncKind::None:
    break;
  }
  return "";
}

/// The helper a step-loop call runs, when the call is where to report: a
/// named helper (not the step itself, not a lambda written in the loop).
const FunctionDecl *reportedHelper(Engine &E, const StepContext &Step) {
  const auto *Call =
      Step.Via.empty() ? nullptr : dyn_cast<CallExpr>(Step.Via.front());
  const FunctionDecl *Callee = Call ? E.resolveCallee(Call) : nullptr;
  if (!Callee || runsTrainingStep(E, Callee))
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      MD && MD->getParent()->isLambda())
    return nullptr;
  return Callee;
}
} // namespace

void StrayDeviceSyncRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(callExpr().bind("call"), this);
}

void StrayDeviceSyncRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  Engine &E = engine();
  if (!Call || !isAnalyzedStmt(E, Call))
    return;
  const FunctionDecl *FD = E.enclosingFunction(Call);
  if (!FD || FD->isDependentContext())
    return;
  // The table lookup first: asking whether a call runs needs its
  // function's CFG, which most calls (not syncs) never need.
  SyncFact Sync = syncAt(E, Call);
  if (Sync.Kind == SyncKind::None || E.neverRuns(Call))
    return;
  std::optional<StepContext> Step = runsEveryStep(E, Call);
  if (!Step)
    return;
  // The host needs the result right away: in the sync's function, or in
  // a caller that a helper hands it back to.
  if (Sync.Kind != SyncKind::Implicit && hostReadsSyncedResult(E, Call, *Step))
    return;
  // A copy to the host that a condition tests decides the step.
  if (Sync.Kind == SyncKind::Implicit && hostDecidesOnCopy(E, Call, *Step))
    return;

  // Every step only when the user asks for it (a debug variant selected on
  // the command line): the run-time twin of an `#ifdef DEBUG` block.
  if (optInGuard(E, Call, *Step))
    return;

  const SourceManager &SM = *Result.SourceManager;
  const FunctionDecl *Helper = reportedHelper(E, *Step);
  std::string Subject = "'" + Sync.What + "'";
  if (Helper)
    Subject = "'" + Helper->getNameAsString() + "' (through " + Subject + ")";
  const Stmt *At = Helper ? Step->Via.front() : Call;
  auto Diag = diag(Helper ? At->getBeginLoc() : Call->getExprLoc(),
                   message(Sync.Kind), SM);
  Diag << Subject;
  if (Sync.Kind == SyncKind::Device && Step->Via.empty())
    Diag.fix(fixes::syncEveryNthStep(E, Call, Step->Loop, fixOptions()));
  Diag.note(Step->Loop->getBeginLoc(),
            "training loop: every iteration runs a training step, a "
            "collective or device work");
  for (const Stmt *Via : Step->Via)
    if (Via != At)
      Diag.note(Via->getBeginLoc(),
                isa<DeclStmt>(Via)
                    ? "reached in every step: this object's destructor runs "
                      "at the end of its scope"
                    : "reached in every step through this call");
  if (Helper)
    Diag.note(Call->getExprLoc(),
              "the sync inside the helper: '%0' waits "
              "for the device here",
              {Sync.What});
  // A helper another TU defines: the sync inside it, there.
  for (api::Role R :
       {api::Role::DeviceSync, api::Role::StreamSync, api::Role::EventSync})
    if (const api::ProjectFact *PF = E.api().projectFact(E.apiRole(Call, R))) {
      Diag.noteIn(PF->File, PF->Line,
                  "the sync inside the helper (defined in another file of "
                  "the project): '%0' waits for the device here",
                  {PF->What});
      break;
    }
  if (Sync.Kind == SyncKind::Implicit)
    Diag.note(firstCudaUse(E), "tensors may be on a CUDA device: CUDA is "
                               "selected here");
}

} // namespace distlint
