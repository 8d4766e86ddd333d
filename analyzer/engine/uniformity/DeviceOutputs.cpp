//===- DeviceOutputs.cpp - What a kernel writes into device buffers -------===//
//
// A kernel computes what it writes from what it is given: its thread and
// block indices are the same on every rank, so the buffers it writes hold
// the same bytes on every rank when every argument it may read does (the
// contents of a pointer argument, the value of any other). Rank-local data
// reaches a kernel only through its arguments: a loss kernel over this
// rank's logits writes a rank-local loss; a norm kernel over all-reduced
// gradients writes an agreed norm. A launcher defined in another file is
// read the same way.
//
//===----------------------------------------------------------------------===//
#include "engine/ast/AstHelpers.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace distlint {

namespace {
/// Counts a parameter's uses, and those that only store through it
/// (`out[i] = v`, `*out = v`).
class StoreOnlyUses : public RecursiveASTVisitor<StoreOnlyUses> {
public:
  explicit StoreOnlyUses(const ParmVarDecl *PD) : PD(PD) {}
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    Uses += DR->getDecl() == PD;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() != BO_Assign)
      return true;
    const Expr *L = B->getLHS()->IgnoreParenImpCasts();
    const Expr *Base = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
      Base = AS->getBase();
    else if (const auto *U = dyn_cast<UnaryOperator>(L);
             U && U->getOpcode() == UO_Deref)
      Base = U->getSubExpr();
    const auto *DR =
        Base ? dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts()) : nullptr;
    Stores += DR && DR->getDecl() == PD;
    return true;
  }
  unsigned Uses = 0, Stores = 0;

private:
  const ParmVarDecl *PD;
};

/// Does the body only store through parameter I, never read what it
/// points to? Without a body, it may read it.
bool onlyStoresThrough(const FunctionDecl *Callee, unsigned I) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || I >= Def->getNumParams())
    return false;
  StoreOnlyUses V(Def->getParamDecl(I));
  V.TraverseStmt(Def->getBody());
  return V.Uses > 0 && V.Uses == V.Stores;
}
/// A kernel launch, or a project function whose body is in another file (a
/// kernel launcher in a .cu file), not a library's.
bool computesOnDevice(Engine &E, const CallExpr *Call,
                      const FunctionDecl *Callee) {
  if (isa<CUDAKernelCallExpr>(Call))
    return true;
  return Callee && !Callee->hasBody() && E.isUserCode(Callee) &&
         !isApiHeaderDecl(E, Callee) && E.api().lookup(Callee).empty();
}
} // namespace

UniformityAnalysis::DeviceOutputs UniformityAnalysis::agreedDeviceOutputs(
    const CallExpr *Call, const FunctionDecl *Callee,
    llvm::ArrayRef<const Expr *> Args, const VarState &S) {
  DeviceOutputs Out;
  if (!computesOnDevice(E, Call, Callee))
    return Out;
  for (unsigned I = 0; I < Args.size(); ++I) {
    QualType T = Callee && I < Callee->getNumParams()
                     ? Callee->getParamDecl(I)->getType()
                     : Args[I]->getType();
    // A pointer to an incomplete type is a handle (a stream, a
    // communicator), read by value; void * is memory.
    QualType Pointee = T->isPointerType() ? T->getPointeeType() : QualType();
    bool Buffer = !Pointee.isNull() &&
                  (Pointee->isVoidType() || !Pointee->isIncompleteType());
    if (Buffer && !Pointee.isConstQualified())
      Out.Buffers.push_back(Args[I]);
    if (Buffer && onlyStoresThrough(Callee, I))
      continue; // An output only: what it held before is not read.
    Taint A = eval(Args[I], S);
    // May read something rank-local: nothing it writes is known to agree.
    if (A.Vary || A.PendingVary || (Buffer && !A.UniformContent))
      return {};
    Out.Params |= A.Params;
  }
  return Out;
}

} // namespace distlint
