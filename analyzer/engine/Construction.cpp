//===- Construction.cpp ---------------------------------------------------===//
#include "Construction.h"
#include "UserCode.h"
#include "Values.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {

namespace {

using ParamMap = llvm::DenseMap<const ParmVarDecl *, const Expr *>;

/// The parameter an argument forwards (std::forward / std::move / casts).
const ParmVarDecl *forwardedParam(const Expr *Arg) {
  const auto *DR = dyn_cast<DeclRefExpr>(stripValue(Arg)->IgnoreParenCasts());
  return DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
}

/// T in shared_ptr<T>, intrusive_ptr<T>, unique_ptr<T>, T*.
QualType elementType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isPointerType())
    return T->getPointeeType().getCanonicalType().getUnqualifiedType();
  // operator-> may live in a base (std::__shared_ptr_access).
  llvm::SmallVector<const CXXRecordDecl *, 4> Work{T->getAsCXXRecordDecl()};
  for (int Steps = 0; !Work.empty() && Steps < 16; ++Steps) {
    const CXXRecordDecl *RD = Work.pop_back_val();
    if (!RD || !RD->hasDefinition())
      continue;
    for (const CXXMethodDecl *M : RD->methods())
      if (M->getOverloadedOperator() == OO_Arrow) {
        // An iterator's operator-> may return a proxy object by value
        // (yaml-cpp's iterators): no pointee to construct.
        QualType Pointee = M->getReturnType()->getPointeeType();
        if (Pointee.isNull())
          return {};
        return Pointee.getCanonicalType().getUnqualifiedType();
      }
    for (const CXXBaseSpecifier &B : RD->bases())
      Work.push_back(B.getType()->getAsCXXRecordDecl());
  }
  return {};
}

std::optional<Construction> fromConstruct(const CXXConstructExpr *CE,
                                          const Expr *Site,
                                          const ParamMap *Map) {
  Construction C;
  C.Site = Site;
  C.Ctor = CE->getConstructor();
  if (!C.Ctor)
    return std::nullopt;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *Arg = CE->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg)) {
      C.Args.push_back(nullptr);
      continue;
    }
    if (Map) {
      const ParmVarDecl *P = forwardedParam(Arg);
      auto It = P ? Map->find(P) : Map->end();
      C.Args.push_back(It != Map->end() ? It->second : Arg);
    } else {
      C.Args.push_back(Arg);
    }
  }
  return C;
}

std::optional<Construction> search(const FunctionDecl *FD, QualType Target,
                                   const ParamMap &Map, const Expr *Site,
                                   int Depth) {
  if (Depth > 10 || !FD)
    return std::nullopt;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody())
    return std::nullopt;
  std::optional<Construction> Found;
  // Follows a call or constructor call that receives forwarded parameters.
  auto Follow = [&](const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args,
                    unsigned Shift) {
    const FunctionDecl *CDef = Callee ? Callee->getDefinition() : nullptr;
    if (!CDef)
      return;
    ParamMap Inner;
    for (unsigned I = Shift; I < Args.size(); ++I)
      if (const ParmVarDecl *P = forwardedParam(Args[I])) {
        auto It = Map.find(P);
        if (It != Map.end() && I - Shift < CDef->getNumParams())
          Inner[CDef->getParamDecl(I - Shift)] = It->second;
      }
    if (!Inner.empty() || Map.empty())
      Found = search(CDef, Target, Inner, Site, Depth + 1);
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
      if (CE->getType().getCanonicalType().getUnqualifiedType() == Target &&
          CE->getConstructor() &&
          !CE->getConstructor()->isCopyOrMoveConstructor()) {
        Found = fromConstruct(CE, Site, &Map);
        return;
      }
      // shared_ptr(tag, args...) -> __shared_count(...) -> ...: the
      // arguments travel through constructors of helper classes too.
      if (CE->getConstructor() && !Map.empty()) {
        llvm::SmallVector<const Expr *, 6> Args(CE->arguments());
        Follow(CE->getConstructor(), Args, 0);
        if (Found)
          return;
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Callee->getDefinition()) {
        ParamMap Inner;
        const FunctionDecl *CDef = Callee->getDefinition();
        unsigned Shift = isa<CXXOperatorCallExpr>(Call) &&
                                 isa<CXXMethodDecl>(Callee) &&
                                 !cast<CXXMethodDecl>(Callee)->isStatic()
                             ? 1
                             : 0;
        for (unsigned I = Shift; I < Call->getNumArgs(); ++I)
          if (const ParmVarDecl *P = forwardedParam(Call->getArg(I))) {
            auto It = Map.find(P);
            if (It != Map.end() && I - Shift < CDef->getNumParams())
              Inner[CDef->getParamDecl(I - Shift)] = It->second;
          }
        if (!Inner.empty() || Map.empty()) {
          Found = search(CDef, Target, Inner, Site, Depth + 1);
          if (Found)
            return;
        }
      }
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (!Found && Init->isWritten())
        Walk(Init->getInit());
  Walk(Def->getBody());
  return Found;
}

} // namespace

const Expr *callArgument(const CallExpr *Call, const FunctionDecl *Callee,
                         int Index) {
  if (!Call || !Callee || Index < 0)
    return nullptr;
  unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) &&
                           !cast<CXXMethodDecl>(Callee)->isStatic()
                       ? 1
                       : 0;
  unsigned I = unsigned(Index) + Shift;
  if (I >= Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Call->getArg(I);
  return isa<CXXDefaultArgExpr>(Arg) ? nullptr : Arg;
}

std::optional<Construction> constructionAt(Engine &E, const Expr *X) {
  if (!X)
    return std::nullopt;
  const Expr *Site = X;
  const Expr *S = X->IgnoreParenImpCasts();
  for (int I = 0; I < 4; ++I) {
    if (const auto *C = dyn_cast<ExprWithCleanups>(S))
      S = C->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(S))
      S = M->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(S))
      S = B->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(S))
      S = F->getSubExpr()->IgnoreParenImpCasts();
    else
      break;
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
    if (const CXXConstructExpr *CE = New->getConstructExpr())
      return fromConstruct(CE, Site, nullptr);
    return std::nullopt;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    if (CE->getConstructor() && CE->getConstructor()->isCopyOrMoveConstructor())
      return constructionAt(E, CE->getArg(0));
    return fromConstruct(CE, Site, nullptr);
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return std::nullopt;
  const FunctionDecl *Callee = Call->getDirectCallee();
  // Only library factories: user functions are analyzed as functions.
  if (!Callee || isAnalyzedDecl(E, Callee))
    return std::nullopt;
  QualType Target = elementType(Call->getType());
  if (Target.isNull() || !Target->getAsCXXRecordDecl())
    return std::nullopt;
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def)
    return std::nullopt;
  ParamMap Map;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams(); ++I)
    Map[Def->getParamDecl(I)] =
        isa<CXXDefaultArgExpr>(Call->getArg(I)) ? nullptr : Call->getArg(I);
  return search(Def, Target, Map, Site, 0);
}

} // namespace distlint
