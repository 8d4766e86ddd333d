//===- RoleSites.cpp ------------------------------------------------------===//
#include "RoleSites.h"
#include "Construction.h"
#include "EngineCache.h"
#include "UserCode.h"
#include "Values.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <vector>

using namespace clang;

namespace distlint {

namespace {
struct RoleSitesState : EngineExtension {
  explicit RoleSitesState(Engine &) {}
  bool Built = false;
  std::map<unsigned, std::vector<const Expr *>> ByRole;
};

class Indexer : public RecursiveASTVisitor<Indexer> {
public:
  Indexer(Engine &E, RoleSitesState &S) : E(E), S(S) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }

  bool TraverseDecl(Decl *D) {
    // Uninstantiated templates: calls there are not resolved yet.
    if (const auto *DC = dyn_cast_or_null<DeclContext>(D);
        DC && DC->isDependentContext() && !isa<TranslationUnitDecl>(D))
      return true;
    if (D && !isa<TranslationUnitDecl>(D) && isLibraryDecl(E, D))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  void add(const Expr *Site, const FunctionDecl *Callee) {
    if (!Callee)
      return;
    for (const api::ApiEntry *Row : E.api().lookup(Callee)) {
      auto &List = S.ByRole[unsigned(Row->TheRole)];
      if (List.empty() || List.back() != Site)
        List.push_back(Site);
    }
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = E.resolveCallee(C);
    add(C, Callee);
    // make_shared<T>(...), make_intrusive<T>(...): T's constructor runs.
    if (Callee && !isAnalyzedDecl(E, Callee) && isPointerLike(C->getType()))
      if (auto Built = constructionAt(E, C))
        add(C, Built->Ctor);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    add(C, C->getConstructor());
    return true;
  }

private:
  Engine &E;
  RoleSitesState &S;
};
} // namespace

llvm::ArrayRef<const Expr *> callsWithRole(Engine &E, api::Role R) {
  auto &St = engineExtension<RoleSitesState>(E);
  if (!St.Built) {
    St.Built = true;
    Indexer I(E, St);
    for (Decl *D : E.context().getTranslationUnitDecl()->decls())
      if (isAnalyzedDecl(E, D))
        I.TraverseDecl(D);
    const SourceManager &SM = E.context().getSourceManager();
    for (auto &KV : St.ByRole)
      std::stable_sort(KV.second.begin(), KV.second.end(),
                       [&](const Expr *A, const Expr *B) {
                         return SM.isBeforeInTranslationUnit(A->getBeginLoc(),
                                                             B->getBeginLoc());
                       });
  }
  auto It = St.ByRole.find(unsigned(R));
  if (It == St.ByRole.end())
    return {};
  return It->second;
}

} // namespace distlint
