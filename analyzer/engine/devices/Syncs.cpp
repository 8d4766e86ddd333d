//===- Syncs.cpp ----------------------------------------------------------===//
#include "Syncs.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/Values.h"
#include "engine/devices/Devices.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

#include <functional>

using namespace clang;

namespace distlint {

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
bool onlyReadOrReducedInPlace(Engine &E, const VarDecl *V);
SyncKind classify(Engine &E, const CallExpr *Call, std::string &What);

/// A tensor made on the host: a free function that returns a tensor from
/// no other tensor (torch::full, zeros, tensor, from_blob...) and is given no
/// device other than the CPU (the default device of a factory is the CPU).
bool isHostFactory(Engine &E, const CallExpr *Call) {
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
bool isHostCopyImpl(Engine &E, const Expr *Object) {
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
        if (!isHostCopyImpl(E, Init))
          return false;
      return true;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (isHostFactory(E, Call))
        return true;
      std::string Ignored;
      return classify(E, Call, Ignored) == SyncKind::Implicit;
    }
    const auto *DR = dyn_cast<DeclRefExpr>(S);
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V)
      return false;
    Object = soleDefinition(E, V);
    if (!Object && onlyReadOrReducedInPlace(E, V))
      Object = V->getInit();
  }
  return false;
}

/// A container of tensors whose only uses are collectives on it (they write
/// the result into the same tensors, on the same device) and element reads:
/// its tensors are still the ones it was initialized with.
bool onlyReadOrReducedInPlace(Engine &E, const VarDecl *V) {
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

SyncKind classify(Engine &E, const CallExpr *Call, std::string &What) {
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

} // namespace

SyncFact syncAt(Engine &E, const CallExpr *Call) {
  SyncFact F;
  F.Kind = classify(E, Call, F.What);
  if (F.Kind != SyncKind::Implicit)
    return F;
  if (!mayUseCuda(E))
    return {}; // Provably CPU tensors: item() is just a read.
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (isHostCopyImpl(E, Member->getImplicitObjectArgument()))
      return {};
    return F;
  }
  // Printing or comparing tensors that already are host copies.
  unsigned Tensors = 0, HostCopies = 0;
  for (const Expr *Arg : Call->arguments())
    if (isTensorType(E, Arg->getType())) {
      ++Tensors;
      HostCopies += isHostCopyImpl(E, Arg);
    }
  if (Tensors && Tensors == HostCopies)
    return {};
  return F;
}

bool isHostCopy(Engine &E, const Expr *Object) {
  return isHostCopyImpl(E, Object);
}

} // namespace distlint
