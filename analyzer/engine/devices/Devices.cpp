//===- Devices.cpp --------------------------------------------------------===//
#include "engine/devices/Devices.h"
#include "engine/EngineCache.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/loops/Loops.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;

namespace distlint {

namespace {

struct DeviceState : EngineExtension {
  explicit DeviceState(Engine &) {}
  bool Scanned = false;
  SourceLocation FirstCuda;
  llvm::DenseMap<const Type *, bool> TensorTypes, DeviceTypes;
};

DeviceState &deviceState(Engine &E) { return engineExtension<DeviceState>(E); }

DeviceKind join(DeviceKind A, DeviceKind B) {
  if (A == DeviceKind::None)
    return B;
  if (B == DeviceKind::None || A == B)
    return A;
  return DeviceKind::Unknown;
}

/// The device a DeviceSelect row names, if any.
DeviceKind kindOfRow(const api::ApiEntry *Row) {
  if (!Row)
    return DeviceKind::None;
  switch (Row->Facts.Device) {
  case api::DeviceType::Cuda:
    return DeviceKind::Cuda;
  case api::DeviceType::Cpu:
    return DeviceKind::Cpu;
  case api::DeviceType::Unspecified:
    break;
  }
  return DeviceKind::Unknown;
}

DeviceKind kindOfString(llvm::StringRef S) {
  S = S.trim();
  if (S.starts_with_insensitive("cuda"))
    return DeviceKind::Cuda;
  if (S.starts_with_insensitive("cpu"))
    return DeviceKind::Cpu;
  return DeviceKind::Unknown;
}

DeviceKind deviceOfImpl(Engine &E, const Expr *X, int Depth) {
  if (!X || Depth > 8)
    return DeviceKind::None;
  X = stripValue(X)->IgnoreParenCasts();
  if (const auto *SL = dyn_cast<StringLiteral>(X))
    return kindOfString(SL->getString());
  if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
    const ValueDecl *D = DR->getDecl();
    if (const api::ApiEntry *Row =
            E.api().findMember(D, api::Role::DeviceSelect))
      return kindOfRow(Row);
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || !isDeviceType(E, VD->getType()))
      return DeviceKind::None;
    if (const Expr *Def = soleDefinition(E, VD))
      return deviceOfImpl(E, Def, Depth + 1);
    return DeviceKind::Unknown; // Parameter or reassigned: run-time choice.
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(X))
    return join(deviceOfImpl(E, CO->getTrueExpr(), Depth + 1),
                deviceOfImpl(E, CO->getFalseExpr(), Depth + 1));
  if (const auto *CE = dyn_cast<CXXConstructExpr>(X)) {
    if (CE->getConstructor() &&
        E.api().has(CE->getConstructor(), api::Role::DeviceSelect)) {
      if (CE->getNumArgs() == 0)
        return DeviceKind::Unknown;
      const Expr *Arg = CE->getArg(0);
      if (auto S = evaluateString(E, Arg))
        return kindOfString(*S);
      if (!isDeviceType(E, Arg->getType()))
        return DeviceKind::Unknown; // A device string chosen at run time.
      DeviceKind K = deviceOfImpl(E, Arg, Depth + 1);
      return K == DeviceKind::None ? DeviceKind::Unknown : K;
    }
  }
  if (isDeviceType(E, X->getType())) {
    // A device from a call or a field: judge by the device names inside,
    // otherwise it is chosen at run time.
    DeviceKind K = DeviceKind::None;
    for (const Stmt *Child : X->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        K = join(K, deviceOfImpl(E, CE, Depth + 1));
    return K == DeviceKind::None ? DeviceKind::Unknown : K;
  }
  // Tensor options and other wrappers: the devices named inside.
  DeviceKind K = DeviceKind::None;
  for (const Stmt *Child : X->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      K = join(K, deviceOfImpl(E, CE, Depth + 1));
  return K;
}

/// Finds what makes CUDA possible in user code.
class CudaScan : public RecursiveASTVisitor<CudaScan> {
public:
  explicit CudaScan(Engine &E) : E(E) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && isLibraryDecl(E, D))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  SourceLocation Found;

  bool note(SourceLocation L) {
    if (Found.isInvalid())
      Found = L;
    return false; // Stop at the first.
  }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (kindOfRow(E.api().findMember(DR->getDecl(), api::Role::DeviceSelect)) ==
        DeviceKind::Cuda)
      return note(DR->getBeginLoc());
    return true;
  }
  bool callee(const FunctionDecl *FD, const Expr *Site) {
    if (!FD)
      return true;
    for (const api::ApiEntry *Row : E.api().lookup(FD)) {
      if (Row->Fam == api::Family::Cuda || Row->Fam == api::Family::Nccl)
        return note(Site->getBeginLoc());
      switch (Row->TheRole) {
      case api::Role::DeviceSync:
      case api::Role::StreamSync:
      case api::Role::EventSync:
        return note(Site->getBeginLoc());
      case api::Role::DeviceSelect: {
        DeviceKind K = kindOfRow(Row);
        if (const auto *CE = dyn_cast<CXXConstructExpr>(Site))
          if (isDeviceType(E, CE->getType()))
            K = deviceOf(E, CE);
        if (K == DeviceKind::Cuda || K == DeviceKind::Unknown)
          return note(Site->getBeginLoc());
        break;
      }
      default:
        break;
      }
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *C) { return callee(E.resolveCallee(C), C); }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    // Copies pass a device along; the original was judged where it was made.
    if (C->getConstructor() && C->getConstructor()->isCopyOrMoveConstructor())
      return true;
    return callee(C->getConstructor(), C);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    // A device parameter of a function nobody in this TU calls is chosen by
    // code we cannot see.
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
        !isAnalyzedDecl(E, FD))
      return true;
    for (const ParmVarDecl *P : FD->parameters())
      if (isDeviceType(E, P->getType()) && callSitesOf(E, FD).empty())
        return note(P->getLocation());
    return true;
  }

private:
  Engine &E;
};

} // namespace

bool isDeviceType(Engine &E, QualType T) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  auto &Memo = deviceState(E).DeviceTypes;
  auto It = Memo.find(T.getTypePtr());
  if (It != Memo.end())
    return It->second;
  bool Result = false;
  if (const auto *ET = T->getAs<EnumType>()) {
    for (const EnumConstantDecl *C : ET->getDecl()->enumerators())
      if (E.api().findMember(C, api::Role::DeviceSelect)) {
        Result = true;
        break;
      }
  } else if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl()) {
    if (RD->hasDefinition())
      for (const CXXConstructorDecl *Ctor : RD->ctors())
        if (E.api().has(Ctor, api::Role::DeviceSelect)) {
          Result = true;
          break;
        }
  }
  return deviceState(E).DeviceTypes[T.getTypePtr()] = Result;
}

bool isTensorType(Engine &E, QualType T) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  auto &Memo = deviceState(E).TensorTypes;
  auto It = Memo.find(T.getTypePtr());
  if (It != Memo.end())
    return It->second;
  bool Result = false;
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
      RD && RD->hasDefinition()) {
    llvm::SmallVector<const CXXRecordDecl *, 4> Work{RD};
    while (!Work.empty() && !Result) {
      const CXXRecordDecl *C = Work.pop_back_val();
      if (!C || !C->hasDefinition())
        continue;
      for (const CXXMethodDecl *M : C->methods())
        if (!M->isOverloadedOperator() &&
            E.api().has(M, api::Role::ImplicitSync)) {
          Result = true;
          break;
        }
      for (const CXXBaseSpecifier &B : C->bases())
        Work.push_back(B.getType()->getAsCXXRecordDecl());
    }
  }
  return deviceState(E).TensorTypes[T.getTypePtr()] = Result;
}

DeviceKind deviceOf(Engine &E, const Expr *X) { return deviceOfImpl(E, X, 0); }

SourceLocation firstCudaUse(Engine &E) {
  DeviceState &St = deviceState(E);
  if (!St.Scanned) {
    St.Scanned = true;
    CudaScan Scan(E);
    for (Decl *D : E.context().getTranslationUnitDecl()->decls()) {
      if (!isAnalyzedDecl(E, D))
        continue;
      Scan.TraverseDecl(D);
      if (Scan.Found.isValid())
        break;
    }
    deviceState(E).FirstCuda = Scan.Found;
  }
  return deviceState(E).FirstCuda;
}

bool mayUseCuda(Engine &E) { return firstCudaUse(E).isValid(); }

} // namespace distlint
