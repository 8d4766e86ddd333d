//===- Containers.cpp - What library calls do to the project's containers -===//
//
// A library method that mutates a local object (`push_back`, `insert`,
// `resize`) makes it hold what it was given: the values as contents, a count
// of elements as its length. A library function given a sequence by
// reference may resize it.
//
//===----------------------------------------------------------------------===//
#include "engine/ast/AstHelpers.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {

/// Is parameter I of a container's method a number of elements (its type
/// spelled `size_type`: `resize(n)`, `assign(n, v)`, `insert(pos, n, v)`)?
static bool isLengthParameter(const CXXMethodDecl *MD, unsigned I) {
  if (I >= MD->getNumParams())
    return false;
  const auto *TD = MD->getParamDecl(I)->getType()->getAs<TypedefType>();
  return TD && TD->getDecl()->getName() == "size_type";
}

void UniformityAnalysis::libraryMethodEffects(const CallExpr *Call,
                                              const FunctionDecl *Callee,
                                              const Expr *Receiver,
                                              llvm::ArrayRef<const Expr *> Args,
                                              VarState &S, const Taint &Ctl) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
  if (MD && MD->isVirtual() && E.isUserCode(MD) && !E.overriders(MD).empty())
    MD = nullptr;
  if (MD && !MD->isConst() && !isa<CXXOperatorCallExpr>(Call)) {
    // A local object, or a field of this method's object
    // (`mine_.push_back(i)`), which the TU-wide field facts then hold.
    const VarDecl *Obj = baseVar(Receiver);
    const auto *Member = dyn_cast<MemberExpr>(strip(Receiver));
    const auto *Written =
        Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
    const bool IntoField = Written && isTaughtDecl(E, Written);
    const bool OwnField =
        Member && isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts());
    // `loader.data.assign(n, v)` on a local object: this path knows the
    // length that object's field now has, as for a local container.
    const VarDecl *LocalBase =
        Member && IntoField ? localObjectOf(Member) : nullptr;
    // `cfg.dir.resize(n)` through a reference parameter: this path knows
    // the length too, though not that the contents agree (what the caller's
    // object held stays there).
    const VarDecl *RefBase = nullptr;
    if (Member && IntoField && !LocalBase && !Member->isArrow())
      if (const VarDecl *Base = fieldBase(Member);
          Base && isa<ParmVarDecl>(Base) && isLocal(Base) &&
          Base->getType()->isLValueReferenceType())
        RefBase = Base;
    if ((Obj && isLocal(Obj)) || OwnField) {
      Taint T, OnPath;
      T.UniformContent = OnPath.UniformContent = true;
      bool AnyArg = false;
      for (unsigned I = 0; I < Args.size(); ++I) {
        const Expr *A = Args[I];
        AnyArg = true;
        // A callable is the same code on every rank: only where it was
        // added (the control) can make the holder differ.
        if (isa<LambdaExpr>(strip(A)))
          continue;
        Taint AT = eval(A, S);
        // An element still pending (`r == rank ? ones(s) : empty(s)` in a
        // loop, one shape on both arms) is decided here, as an element's
        // value: no shape of the holder is left to compare.
        if (!AT.Vary && AT.PendingVary)
          AT.settle();
        // Holds the value; its length is uniform. A count of elements
        // (`assign(n, v)`, `resize(n)`) is a length of a local object,
        // whose state follows the path; a field's facts hold TU-wide, for
        // every path (a count that is uniform in one mode of the program
        // and local in another would be taken as local everywhere).
        if (!isTensorType(A->getType()))
          AT.UniformContent = true;
        if (AT.Vary && !isLengthParameter(MD, I)) {
          AT.ContentOnly = true;
          AT.ShapePending = false;
        }
        OnPath.join(AT);
        if (AT.Vary && IntoField) {
          AT.ContentOnly = true;
          AT.ShapePending = false;
        }
        T.join(AT);
        llvm::SmallVector<const VarDecl *, 2> Refs;
        collectVarRefs(A, Refs);
        for (const VarDecl *V : Refs)
          if (Obj && isTensorType(V->getType()))
            P.addAlias(Obj, V);
      }
      // Without arguments (`clear()`) only where it happens can differ.
      if (AnyArg || Ctl.Vary) {
        T.Range.reset();
        T.addControl(Ctl);
        if (LocalBase || RefBase) {
          OnPath.Range.reset();
          OnPath.addControl(Ctl);
        }
        // `p->push_back(x)` changes what p designates, not p.
        if (T.Vary && Receiver->getType()->isPointerType())
          T.PointeeOnly = true;
        // `A.rows.push_back(x)`: the field changes, not A's other fields.
        if (IntoField) {
          forgetField(S, Written); // No longer what this path agreed on.
          noteFieldWrite(Written, T);
          if (LocalBase)
            S[StateKey(LocalBase, Written)] = OnPath;
          if (RefBase) {
            OnPath.UniformContent = false;
            S[StateKey(RefBase, Written)] = OnPath;
          }
        } else if (Obj)
          assignVar(Obj, T, S, false);
      }
      // A sequence's method (clear, resize, swap) may change its length,
      // also on every rank alike: no key names it. Those that hand out
      // its elements are in the tables (data, begin), not here.
      if (Obj && isLocal(Obj) && !Receiver->getType()->isPointerType() &&
          isValueSequence(Receiver->getType())) {
        Taint Now = varTaint(Obj, S);
        Now.ShapeKey = 0;
        S[Obj] = Now;
      }
    }
  }
}

void UniformityAnalysis::forgetSequenceLengths(
    const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args,
    uint64_t KeptParams, VarState &S) {
  for (unsigned I = 0; I < Args.size() && I < Callee->getNumParams(); ++I) {
    QualType PT = Callee->getParamDecl(I)->getType();
    if ((I < 64 && (KeptParams >> I & 1)) || !PT->isLValueReferenceType() ||
        PT.getNonReferenceType().isConstQualified() || !isValueSequence(PT))
      continue;
    if (const auto *DR = dyn_cast<DeclRefExpr>(strip(Args[I])))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
          VD && isLocal(VD)) {
        Taint Now = varTaint(VD, S);
        Now.ShapeKey = 0;
        S[VD] = Now;
      }
  }
}

} // namespace distlint
