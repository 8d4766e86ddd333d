//===- StrayDeviceSyncRule.cpp --------------------------------------------===//
//
// A sync is reported when it runs on every training step (Loops.h:
// runsEveryStep, which also follows helpers called from the step loop and
// skips `step % N == 0`-style guards). Implicit syncs (item, cpu, printing a
// tensor...) only matter for device tensors, so they are reported only when
// the TU may use CUDA (Devices.h). Stream and event syncs are fine when the
// host reads what they waited for (HostReads.h).
//
//===----------------------------------------------------------------------===//
#include "StrayDeviceSyncRule.h"
#include "engine/Construction.h"
#include "engine/Devices.h"
#include "engine/Engine.h"
#include "engine/HostReads.h"
#include "engine/Loops.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "fixes/DeviceSyncFixes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <functional>

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

void StrayDeviceSyncRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(callExpr().bind("call"), this);
}

namespace {
std::string shortName(const FunctionDecl *FD) {
  if (FD->isOverloadedOperator())
    return "operator" +
           std::string(getOperatorSpelling(FD->getOverloadedOperator()));
  return FD->getNameAsString();
}

/// Is some bool argument the constant true (non_blocking = true)?
bool hasTrueFlag(Engine &E, const CallExpr *Call) {
  for (const Expr *Arg : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && Arg->getType()->isBooleanType())
      if (auto V = evaluateInt(E, Arg); V && V->getBoolValue())
        return true;
  return false;
}
} // namespace

/// A tensor made on the host: a free function that returns a tensor from
/// no other tensor (torch::full, zeros, tensor, from_blob...) and is given no
/// device other than the CPU (the default device of a factory is the CPU).
bool StrayDeviceSyncRule::isHostFactory(const CallExpr *Call) {
  Engine &E = engine();
  const FunctionDecl *Callee = E.resolveCallee(Call);
  if (!Callee || isa<CXXMethodDecl>(Callee) ||
      !isTensorType(E, Call->getType()))
    return false;
  for (const Expr *Arg : Call->arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isTensorType(E, Arg->getType()))
      return false;
    DeviceKind D = deviceOf(E, Arg);
    if (D != DeviceKind::None && D != DeviceKind::Cpu)
      return false;
  }
  return true;
}

/// A tensor that already is a host copy (`t.cpu().item()`, or a variable
/// initialized from cpu()/to(kCPU)): reading it costs no device sync.
bool StrayDeviceSyncRule::isHostCopy(const Expr *Object) {
  Engine &E = engine();
  for (int Depth = 0; Object && Depth < 6; ++Depth) {
    const Expr *S = stripValue(Object);
    // An element of a container of tensors (`buffer[0]`): its elements.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
        !isTensorType(E, OC->getArg(0)->getType())) {
      Object = OC->getArg(0);
      continue;
    }
    // `std::vector<at::Tensor> buffer{a, b}`: host tensors if all are.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
        CE && CE->getNumArgs() >= 1 &&
        isa<CXXStdInitializerListExpr>(stripValue(CE->getArg(0))))
      S = stripValue(cast<CXXStdInitializerListExpr>(stripValue(CE->getArg(0)))
                         ->getSubExpr());
    if (const auto *IL = dyn_cast<InitListExpr>(S)) {
      if (IL->getNumInits() == 0)
        return false;
      for (const Expr *Init : IL->inits())
        if (!isHostCopy(Init))
          return false;
      return true;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (isHostFactory(Call))
        return true;
      std::string Ignored;
      return classify(Call, Ignored) == SyncKind::Implicit;
    }
    const auto *DR = dyn_cast<DeclRefExpr>(S);
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V)
      return false;
    Object = soleDefinition(E, V);
    if (!Object && onlyReadOrReducedInPlace(V))
      Object = V->getInit();
  }
  return false;
}

/// A container of tensors whose only uses are collectives on it (they write
/// the result into the same tensors, on the same device) and element reads:
/// its tensors are still the ones it was initialized with.
bool StrayDeviceSyncRule::onlyReadOrReducedInPlace(const VarDecl *V) {
  Engine &E = engine();
  if (!V->hasLocalStorage() || isTensorType(E, V->getType()) || !V->getInit())
    return false;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  if (!FD || !FD->getBody())
    return false;
  ASTContext &Ctx = E.context();
  auto Parent = [&](const Stmt *S) -> const Stmt * {
    for (;;) {
      auto Ps = Ctx.getParents(*S);
      if (Ps.empty())
        return nullptr;
      const Stmt *P = Ps[0].get<Stmt>();
      if (!P)
        return nullptr;
      if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, ParenExpr>(P))
        return P;
      S = P;
    }
  };
  bool Ok = true;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || !Ok)
      return;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S);
        Ref && Ref->getDecl() == V) {
      const Stmt *P = Parent(Ref);
      if (const auto *Call = dyn_cast_or_null<CallExpr>(P);
          Call && E.apiRole(Call, api::Role::Collective))
        return;
      if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
          OC && OC->getOperator() == OO_Subscript) {
        // buffer[i].item(): a const method of the element.
        if (const auto *Member = dyn_cast_or_null<MemberExpr>(Parent(OC)))
          if (const auto *MD = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
              MD && MD->isConst())
            return;
      }
      Ok = false;
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(FD->getBody());
  return Ok;
}

StrayDeviceSyncRule::SyncKind
StrayDeviceSyncRule::classify(const CallExpr *Call, std::string &What) {
  Engine &E = engine();
  const FunctionDecl *Callee = E.resolveCallee(Call);
  if (!Callee)
    return SyncKind::None;
  What = shortName(Callee);
  const api::ApiIndex &Api = E.api();
  if (Api.has(Callee, api::Role::DeviceSync))
    return SyncKind::Device;
  if (Api.has(Callee, api::Role::StreamSync) ||
      Api.has(Callee, api::Role::EventSync))
    return SyncKind::StreamOrEvent;
  const api::ApiEntry *Row = Api.find(Callee, api::Role::ImplicitSync);
  if (!Row)
    return SyncKind::None;
  // Rows with a mode argument (cudaMemcpy's kind) copy to the host only for
  // some values; the values are rows of their own.
  if (Row->Args.Flag >= 0) {
    const Expr *Kind = callArgument(Call, Callee, Row->Args.Flag);
    for (int Depth = 0; Kind && Depth < 4; ++Depth) {
      const Expr *S = Kind->IgnoreParenCasts();
      const auto *DR = dyn_cast<DeclRefExpr>(S);
      if (!DR)
        return SyncKind::None;
      if (isa<EnumConstantDecl>(DR->getDecl()))
        return Api.findMember(DR->getDecl(), api::Role::ImplicitSync)
                   ? SyncKind::Implicit
                   : SyncKind::None;
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      Kind = V ? soleDefinition(E, V) : nullptr;
    }
    return SyncKind::None;
  }
  bool TensorArg = false;
  for (const Expr *Arg : Call->arguments())
    TensorArg |= isTensorType(E, Arg->getType());
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  if (Member && isTensorType(E, Member->getImplicitObjectArgument()->getType()))
    TensorArg = true;
  if (!TensorArg)
    return SyncKind::None; // e.g. operator<< of a Scalar.
  // A conversion (a tensor method with arguments returning a tensor, like
  // to()): only a copy to the CPU reads device data, and a non-blocking one
  // does not wait.
  if (Member && Callee->getNumParams() > 0 &&
      isTensorType(E, Callee->getReturnType())) {
    const Expr *Target = callArgument(Call, Callee, 0);
    if (!Target || deviceOf(E, Target) != DeviceKind::Cpu)
      return SyncKind::None;
    if (hasTrueFlag(E, Call))
      return SyncKind::None;
    What += "(kCPU)";
  }
  return SyncKind::Implicit;
}

void StrayDeviceSyncRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  if (!Call)
    return;
  Engine &E = engine();
  if (!isAnalyzedStmt(E, Call))
    return;
  const FunctionDecl *FD = E.enclosingFunction(Call);
  if (!FD || FD->isDependentContext())
    return;
  std::string What;
  SyncKind Kind = classify(Call, What);
  if (Kind == SyncKind::None)
    return;
  if (Kind == SyncKind::Implicit) {
    if (!mayUseCuda(E))
      return; // Provably CPU tensors: item() is just a read.
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      if (isHostCopy(Member->getImplicitObjectArgument()))
        return;
    } else {
      // Printing or comparing tensors that already are host copies.
      unsigned Tensors = 0, HostCopies = 0;
      for (const Expr *Arg : Call->arguments())
        if (isTensorType(E, Arg->getType())) {
          ++Tensors;
          HostCopies += isHostCopy(Arg);
        }
      if (Tensors && Tensors == HostCopies)
        return;
    }
  }
  std::optional<StepContext> Step = runsEveryStep(E, Call);
  if (!Step)
    return;
  if (Kind == SyncKind::StreamOrEvent) {
    const Stmt *Loop = Step->Via.empty() ? Step->Loop : nullptr;
    if (hostReadsSyncedResult(E, Call, Loop))
      return;
  }

  std::string Msg;
  switch (Kind) {
  case SyncKind::Device:
    Msg = "'" + What +
          "' in every training step makes the host wait until "
          "all queued GPU work has finished, so the CPU cannot queue the next "
          "step while the GPU runs; remove it, or wait only for the stream "
          "whose result the host reads (or only every N steps)";
    break;
  case SyncKind::StreamOrEvent:
    Msg = "'" + What +
          "' in every training step blocks the host, and nothing "
          "on the host reads the synchronized result before the next device "
          "work; drop it, or order the streams on the device with an event "
          "(cudaStreamWaitEvent) instead";
    break;
  case SyncKind::Implicit:
    Msg = "'" + What +
          "' copies device data to the host in every training "
          "step: the host waits for all queued GPU work each step, which "
          "stalls the pipeline; keep the value on the device (accumulate it "
          "there) and read it only every N steps, e.g. under "
          "`if (step % log_every == 0)`";
    break;
  case SyncKind::None:
    return;
  }
  const SourceManager &SM = *Result.SourceManager;
  auto Diag = diag(Call->getExprLoc(), Msg, SM);
  if (Kind == SyncKind::Device && Step->Via.empty())
    Diag.fix(fixes::syncEveryNthStep(E, Call, Step->Loop, fixOptions()));
  Diag.note(Step->Loop->getBeginLoc(),
            "training loop: every iteration runs a training step or a "
            "collective");
  for (const Stmt *Via : Step->Via)
    Diag.note(Via->getBeginLoc(), "reached in every step through this call");
  if (Kind == SyncKind::Implicit)
    Diag.note(firstCudaUse(E), "tensors may be on a CUDA device: CUDA is "
                               "selected here");
}

} // namespace distlint
