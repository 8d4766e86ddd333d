//===- OwnFieldWrites.cpp - Fields a method may change on its object ------===//

#include "engine/objects/OwnFieldWrites.h"
#include "engine/EngineCache.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <map>
#include <optional>

using namespace clang;

namespace distlint {
namespace {

/// Memo per TU: the answer per method (unknown while it is computed). A
/// map whose entries stay where they are: the answers are handed out.
struct OwnFieldWriteFacts : EngineExtension {
  explicit OwnFieldWriteFacts(Engine &) {}
  std::map<const CXXMethodDecl *, std::optional<FieldSet>> Known;
};

bool isThis(const Expr *X) {
  return X && isa<CXXThisExpr>(X->IgnoreParenImpCasts());
}

/// The field of the object a read-only use designates (`f_`, `f_.g`,
/// `f_[i]`, `f_.size()` of a const method, `return f_;`): null when it
/// designates none.
const MemberExpr *ownFieldRoot(const Expr *X) {
  while (X) {
    X = X->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(X)) {
      if (isThis(ME->getBase()))
        return ME;
      if (ME->isArrow())
        return nullptr; // Through a pointer: the pointee, not the field.
      X = ME->getBase();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
      X = AS->getBase();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

class Scan : public RecursiveASTVisitor<Scan> {
public:
  Scan(Engine &E, const CXXRecordDecl *Class) : E(E), Class(Class) {}

  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == CK_LValueToRValue)
      markRead(ICE->getSubExpr());
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Callee = Call->getMethodDecl();
    const Expr *Object = Call->getImplicitObjectArgument();
    if (Callee && Callee->isConst())
      markRead(Object);
    if (!isThis(Object))
      return true;
    // A method of the object itself: what it may write, too.
    if (Callee && !Callee->isConst())
      mergeCallee(Callee);
    ThisUses.insert(Object->IgnoreParenImpCasts());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getCalleeDecl());
    if (MD && MD->isConst() && Call->getNumArgs() > 0)
      markRead(Call->getArg(0));
    return true;
  }
  /// `return items_;` from a method that hands out a reference: access,
  /// not a write (what the caller writes through it is its assignment).
  bool VisitReturnStmt(ReturnStmt *Return) {
    markRead(Return->getRetValue());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (!isThis(ME->getBase()))
      return true;
    ThisUses.insert(ME->getBase()->IgnoreParenImpCasts());
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (F && !Read.count(ME))
      Written.insert(F);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *This) {
    AllThis.push_back(This);
    return true;
  }

  /// The answer: every `this` used as a member's base or a method call's
  /// object, and every method called known.
  std::optional<FieldSet> result() {
    for (const CXXThisExpr *T : AllThis)
      if (!ThisUses.count(T))
        Unknown = true; // Handed over, stored or compared.
    if (Unknown)
      return std::nullopt;
    return Written;
  }

private:
  void markRead(const Expr *X) {
    if (const MemberExpr *Root = ownFieldRoot(X))
      Read.insert(Root);
  }
  void mergeCallee(const CXXMethodDecl *Callee) {
    if (Callee->isVirtual() || Callee->getParent() != Class) {
      Unknown = true;
      return;
    }
    const FieldSet *Fields = fieldsMethodMayWrite(E, Callee);
    if (!Fields)
      Unknown = true;
    else
      Written.insert(Fields->begin(), Fields->end());
  }

  Engine &E;
  const CXXRecordDecl *Class;
  llvm::SmallPtrSet<const MemberExpr *, 16> Read;
  llvm::SmallPtrSet<const Expr *, 16> ThisUses;
  std::vector<const CXXThisExpr *> AllThis;
  FieldSet Written;
  bool Unknown = false;
};

} // namespace

const FieldSet *fieldsMethodMayWrite(Engine &E, const CXXMethodDecl *MD) {
  if (!MD || !MD->isInstance() || MD->isVirtual())
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return nullptr;
  MD = cast<CXXMethodDecl>(Def);
  auto &Known = engineExtension<OwnFieldWriteFacts>(E).Known;
  if (auto It = Known.find(MD); It != Known.end())
    return It->second ? &*It->second : nullptr;
  std::optional<FieldSet> &Slot = Known[MD]; // A cycle back here: unknown.
  Scan S(E, MD->getParent());
  S.TraverseStmt(MD->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(MD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      S.TraverseStmt(Init->getInit());
  Slot = S.result();
  return Slot ? &*Slot : nullptr;
}

} // namespace distlint
