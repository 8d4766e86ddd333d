//===- ObjectRef.cpp ------------------------------------------------------===//
#include "ObjectRef.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/ast/Names.h"
#include "engine/loops/Loops.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace distlint {

const VarDecl *ObjectRef::var() const {
  return dyn_cast_or_null<VarDecl>(Decl);
}
const FieldDecl *ObjectRef::field() const {
  return dyn_cast_or_null<FieldDecl>(Decl);
}

ObjectRef designatedObject(const Expr *X) {
  if (!X)
    return {};
  if (const VarDecl *V = designatedVar(X))
    return {V};
  // designatedVar stops at members; peel the same wrappers down to one.
  for (int Depth = 0; X && Depth < 16; ++Depth) {
    X = stripValue(X)->IgnoreParenCasts();
    if (const auto *M = dyn_cast<MemberExpr>(X)) {
      if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
        if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
          return {F};
      return {};
    }
    if (const auto *U = dyn_cast<UnaryOperator>(X);
        U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf)) {
      X = U->getSubExpr();
      continue;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
        OC && (OC->getOperator() == OO_Star || OC->getOperator() == OO_Arrow) &&
        OC->getNumArgs() == 1) {
      X = OC->getArg(0);
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
        MC && MC->getNumArgs() == 0 && MC->getMethodDecl() &&
        MC->getMethodDecl()->getIdentifier() &&
        identifierName(MC->getMethodDecl()) == "get") {
      X = MC->getImplicitObjectArgument();
      continue;
    }
    return {};
  }
  return {};
}

const FieldDecl *memberInitializedWith(Engine &E, const Expr *Init) {
  const auto *Ctor =
      Init ? dyn_cast_or_null<CXXConstructorDecl>(E.enclosingFunction(Init))
           : nullptr;
  if (!Ctor)
    return nullptr;
  for (const CXXCtorInitializer *CI : Ctor->inits())
    if (CI->isWritten() && CI->getInit() == Init)
      return CI->getMember(); // Null for a base or delegating initializer.
  return nullptr;
}

llvm::SmallPtrSet<const ValueDecl *, 4> objectAliases(ObjectRef O,
                                                      const FunctionDecl *FD) {
  llvm::SmallPtrSet<const ValueDecl *, 4> Set;
  if (!O)
    return Set;
  Set.insert(O.Decl);
  if (!FD || !FD->getBody())
    return Set;
  llvm::SmallVector<const VarDecl *, 16> Vars;
  collectVarDecls(FD->getBody(), Vars);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const VarDecl *V : Vars) {
      QualType T = V->getType();
      if (Set.count(V) || !V->getInit() ||
          !(T->isReferenceType() || isPointerLike(T)))
        continue;
      ObjectRef From = designatedObject(V->getInit());
      if (From && Set.count(From.Decl)) {
        Set.insert(V);
        Grew = true;
      }
    }
  }
  return Set;
}

namespace {
/// How many helper calls deep a reference parameter is followed back.
constexpr int kParamDepth = 3;

/// Is X a lambda's by-value copy of a variable (`[sampler] { sampler... }`):
/// the name is the variable's, the object is the lambda's own?
bool namesCapturedCopy(Engine &E, const Expr *X) {
  const auto *Ref = dyn_cast<DeclRefExpr>(stripValue(X)->IgnoreParenCasts());
  if (!Ref || !Ref->refersToEnclosingVariableOrCapture())
    return false;
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(E.enclosingFunction(Ref));
  if (!M || !M->getParent()->isLambda())
    return false;
  for (const DynTypedNode &P : E.context().getParents(*M->getParent()))
    if (const auto *Lambda = P.get<LambdaExpr>())
      for (const LambdaCapture &C : Lambda->captures())
        if (C.capturesVariable() && C.getCapturedVar() == Ref->getDecl())
          return C.getCaptureKind() == LCK_ByCopy;
  return false;
}

bool designatesImpl(Engine &E, const Expr *X, ObjectRef O, int Depth) {
  if (X && namesCapturedCopy(E, X))
    return false;
  ObjectRef Got = designatedObject(X);
  if (!Got || !O)
    return false;
  if (Got == O)
    return true;
  const VarDecl *V = Got.var();
  if (!V || V->isImplicit())
    return false;
  if (objectAliases(O, E.enclosingFunction(X)).count(V))
    return true;
  // A reference (or pointer) parameter a caller binds to O:
  // `void begin_epoch(Sampler &s, ...)` called with the sampler.
  const auto *P = dyn_cast<ParmVarDecl>(V);
  const auto *FD =
      P ? dyn_cast_or_null<FunctionDecl>(P->getDeclContext()) : nullptr;
  if (!FD || Depth >= kParamDepth ||
      !(P->getType()->isReferenceType() || isPointerLike(P->getType())))
    return false;
  for (const CallExpr *Site : callSitesOf(E, FD))
    if (const Expr *Arg = callArgument(Site, FD, P->getFunctionScopeIndex());
        Arg && designatesImpl(E, Arg, O, Depth + 1))
      return true;
  return false;
}
} // namespace

bool designates(Engine &E, const Expr *X, ObjectRef O) {
  return designatesImpl(E, X, O, 0);
}

llvm::SmallVector<const FunctionDecl *, 8> functionsUsing(Engine &E,
                                                          ObjectRef O) {
  llvm::SmallVector<const FunctionDecl *, 8> Out;
  if (const FieldDecl *F = O.field()) {
    const RecordDecl *Class = F->getParent();
    for (const FunctionDecl *FD : E.userFunctions())
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
        if (MD->getParent() == Class && MD->getBody())
          Out.push_back(MD);
    return Out;
  }
  if (const VarDecl *V = O.var())
    for (const FunctionDecl *FD : E.userFunctions()) {
      if (!FD->getBody())
        continue;
      const DeclContext *DC = FD;
      // The declaring function, and lambdas (call operators) within it.
      for (; DC; DC = DC->getParent())
        if (DC == V->getDeclContext())
          break;
      if (DC)
        Out.push_back(FD);
    }
  return Out;
}

} // namespace distlint
