//===- Arguments.cpp - Which arguments of a collective disagree -----------===//
//
// Engine::mismatchedArguments: the arguments every rank must pass alike
// (communicator, count, root, reduction, datatype, options, the tensors'
// shape) that differ between ranks, leaving out what the API ignores
// (count and type beside MPI_IN_PLACE, the root on an inter-communicator)
// and what each class of ranks passes alike (RankClasses.h).
//
//===----------------------------------------------------------------------===//
#include "engine/Engine.h"
#include "engine/EngineInternals.h"
#include "engine/collectives/RankClasses.h"
#include "engine/collectives/SequenceBuilder.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {

std::optional<std::pair<VaryOrigin, const CallExpr *>>
Engine::paramArgumentVaries(const FunctionDecl *FD, uint64_t Params) {
  // A number the caller passes counts by its value; a container, tensor or
  // buffer reaches a count or root through its length (`v.size()`), which
  // agrees when only its contents differ (gradients).
  uint64_t Values = 0, Objects = 0;
  for (unsigned I = 0; I < 64; ++I) {
    uint64_t Bit = uint64_t(1) << I;
    if (!(Params & Bit))
      continue;
    QualType T = I < FD->getNumParams()
                     ? FD->getParamDecl(I)->getType().getNonReferenceType()
                     : QualType();
    if (T.isNull() || T->isArithmeticType() || T->isEnumeralType())
      Values |= Bit;
    else
      Objects |= Bit;
  }
  if (Values)
    if (auto Found = paramVaries(FD, Values, 0, /*ShapeOnly=*/false,
                                 /*SkipDivergentCalls=*/true))
      return Found;
  if (Objects)
    return paramVaries(FD, Objects, 0, /*ShapeOnly=*/true,
                       /*SkipDivergentCalls=*/true);
  return std::nullopt;
}

std::vector<Engine::ArgumentMismatch>
Engine::mismatchedArguments(const CallExpr *Collective) {
  std::vector<ArgumentMismatch> Out;
  const api::ApiEntry *Entry = apiRole(Collective, api::Role::Collective);
  if (!Entry || isa<CXXOperatorCallExpr>(Collective))
    return Out;
  std::pair<AgreedArgument, int> Roles[] = {
      {AgreedArgument::Communicator, Entry->Args.Comm},
      {AgreedArgument::Count, Entry->Args.Count},
      {AgreedArgument::Root, Entry->Args.Root},
      {AgreedArgument::ReductionOp, Entry->Args.Op},
      {AgreedArgument::Datatype, Entry->Args.DType},
      {AgreedArgument::Options, Entry->Args.Options}};
  // Count and type are not read where the buffer is MPI_IN_PLACE.
  const bool InPlace = collectives::passesInPlace(*this, Collective, Entry);
  // On an inter-communicator each side passes its own root value.
  const bool InterRoot = collectives::passesInterRoot(*this, Collective, Entry);
  for (auto [Name, Idx] : Roles) {
    if (Idx < 0 || Idx >= (int)Collective->getNumArgs())
      continue;
    if (InPlace && (Idx == Entry->Args.Count || Idx == Entry->Args.DType))
      continue;
    if (InterRoot && Idx == Entry->Args.Root)
      continue;
    const Expr *Arg = Collective->getArg(Idx);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    // Members of a sub-communicator hold their own handle of their group's
    // communicator, however each got it: only members reach the call.
    if (Name == AgreedArgument::Communicator && isSubCommunicator(Arg))
      continue;
    UniformityAnswer A = uniformity(Arg);
    if (!A.Uniform && A.Origin &&
        !collectives::argumentAgreedByRankClasses(
            *this, enclosingFunction(Collective), Collective, Idx))
      Out.push_back({Name, Arg, *A.Origin});
    // A parameter of the helper that issues it (`reduce_n(int n)`): the
    // callers decide, through any number of calls.
    // A communicator parameter is each member's own handle of its group
    // (the helpers' own question: Engine::isOnSubCommunicator).
    else if (A.Uniform && A.Params && Name != AgreedArgument::Communicator)
      if (auto Found =
              paramArgumentVaries(enclosingFunction(Collective), A.Params))
        Out.push_back({Name, Arg, Found->first, Found->second});
  }
  // Tensors (c10d): the shapes each rank contributes must agree.
  int Send = Entry->Args.Send;
  if (Send >= 0 && Send < (int)Collective->getNumArgs() &&
      isTensorLike(Collective->getArg(Send)->getType())) {
    const Expr *Tensors = Collective->getArg(Send);
    if (auto Origin = shapeVaries(Tensors))
      Out.push_back({AgreedArgument::TensorShape, Tensors, *Origin});
    else if (auto Found = shapeVariesFromCallers(Tensors))
      Out.push_back(
          {AgreedArgument::TensorShape, Tensors, Found->first, Found->second});
  }
  return Out;
}

} // namespace distlint
