//===- Communicators.cpp - Which values hold sub-communicators -----------===//
//
// A collective on a sub-communicator (the result of a split, or a group of
// the members) involves its members only: the data-flow records which
// variables and fields hold one, through copies, helpers that return one
// and fields written with one.
//
//===----------------------------------------------------------------------===//
#include "engine/Construction.h"
#include "engine/model/ApiModel.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {

using api::Role;

bool UniformityAnalysis::returnsSubCommunicator(const Expr *X) {
  const auto *Call = dyn_cast_or_null<CallExpr>(X ? strip(X) : nullptr);
  const FunctionDecl *Callee = Call ? E.resolveCallee(Call) : nullptr;
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || !isTaughtDecl(E, Def) ||
      !Def->getReturnType()->isScalarType() ||
      Def->getReturnType()->isBooleanType() ||
      Def->getReturnType()->isFloatingType())
    return false;
  if (auto Known = P.ReturnsSubCommunicator.find(Def);
      Known != P.ReturnsSubCommunicator.end())
    return Known->second;
  // Its analysis notes its splits in the TU facts; one still running (a
  // recursion) is asked again once it is done.
  FunctionResult *R = P.analyze(Def);
  if (!R || R->Analyzing)
    return false;
  bool Answer = returnsOnlySubCommunicators(Def);
  P.ReturnsSubCommunicator[Def] = Answer;
  return Answer;
}

bool UniformityAnalysis::returnsOnlySubCommunicators(const FunctionDecl *Def) {
  // Every value it returns is a sub-communicator (`MPI_Comm c;
  // MPI_Comm_split(..., &c); return c;`): so is what the caller keeps.
  return everyReturnValue(
      Def, [&](const Expr *X) { return holdsSubCommunicator(X); });
}

bool UniformityAnalysis::holdsSubCommunicator(const Expr *X) {
  if (!X)
    return false;
  if (mayExpandMacro(X, api::selfCommunicatorName(), E.context()))
    return true;
  if (const FieldDecl *F = handleField(X); F && P.Tu.isSubCommunicatorField(F))
    return true;
  if (const VarDecl *V = baseVar(X); V && P.Tu.isSubCommunicator(V))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(strip(X)))
    return E.apiRole(Call, Role::CommSplit) || returnsSubCommunicator(Call);
  return false;
}

void UniformityAnalysis::noteFieldCommunicatorWrite(const FieldDecl *F,
                                                    const Expr *X) {
  // Communicators are handles (MPI_Comm is a pointer or an int); a struct,
  // a flag or a number with a fraction is something else.
  QualType T = F->getType();
  if (!T->isScalarType() || T->isBooleanType() || T->isFloatingType())
    return;
  // The class's own initializer (`MPI_Comm c_ = MPI_COMM_NULL;`), as an
  // implicit constructor initializer: its text is in the class.
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(X->IgnoreImplicit()))
    X = Default->getExpr();
  if (mayExpandMacro(X, api::nullCommunicatorName(), E.context()) ||
      X->isNullPointerConstant(E.context(), Expr::NPC_ValueDependentIsNotNull))
    return; // Not yet a communicator (`comm_(MPI_COMM_NULL)`).
  P.Tu.noteFieldCommunicator(F, holdsSubCommunicator(X));
}

bool UniformityAnalysis::buildsGroupOfMembers(const Expr *X, const VarState &S,
                                              const Taint &Ctl) {
  if (!Ctl.Vary || !X)
    return false;
  X = strip(X);
  const api::ApiEntry *Row = nullptr;
  const Expr *SizeArg = nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(X))
    if ((Row = E.apiRole(Call, Role::CommInit)))
      SizeArg = callArgument(Call, E.resolveCallee(Call), Row->Args.WorldSize);
  if (!Row)
    if (auto Built = constructionAt(E, X))
      if ((Row = E.api().find(Built->Ctor, Role::CommInit)))
        SizeArg = Built->arg(Row->Args.WorldSize);
  // Rows that write the communicator through an argument (ncclCommInitRank)
  // or derive it from a parent say so themselves (ApiModel).
  if (!Row || Row->Args.Out >= 0 || Row->Args.Comm >= 0)
    return false;
  std::optional<Taint> Size;
  if (SizeArg)
    Size = eval(SizeArg, S);
  return model::createdByMembersOnly(Ctl, Size ? &*Size : nullptr);
}

void UniformityAnalysis::noteGroupOfMembers(const VarDecl *VD, const Expr *X,
                                            const VarState &S,
                                            const Taint &Ctl) {
  if (buildsGroupOfMembers(X, S, Ctl))
    P.Tu.noteSubCommunicator(VD);
}

void UniformityAnalysis::noteGroupOfMembers(const Expr *Target, const Expr *X,
                                            const VarState &S,
                                            const Taint &Ctl) {
  if (!buildsGroupOfMembers(X, S, Ctl))
    return;
  if (const FieldDecl *F = accessedField(Target))
    P.Tu.noteFieldCommunicator(F, true);
  else if (const VarDecl *VD = baseVar(Target))
    P.Tu.noteSubCommunicator(VD);
}

void UniformityAnalysis::noteSubCommunicatorCopy(const BinaryOperator *B) {
  if (!B->isCompoundAssignmentOp())
    if (const FieldDecl *F = accessedField(B->getLHS()))
      noteFieldCommunicatorWrite(F, B->getRHS());
  if (!holdsSubCommunicator(B->getRHS()))
    return;
  ASTContext &Ctx = E.context();
  if (!Ctx.hasSameUnqualifiedType(B->getLHS()->getType(),
                                  B->getRHS()->getType()))
    return; // A value computed from the communicator (`c == MPI_COMM_NULL`).
  // The variable itself, or what a pointer variable points to; not a
  // field, which would stand for its whole struct.
  const Expr *To = strip(B->getLHS());
  if (const auto *U = dyn_cast<UnaryOperator>(To);
      U && U->getOpcode() == UO_Deref)
    To = strip(U->getSubExpr());
  if (const auto *DR = dyn_cast<DeclRefExpr>(To))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      P.Tu.noteSubCommunicator(VD);
}

} // namespace distlint
