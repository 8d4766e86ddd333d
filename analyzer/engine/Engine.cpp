//===- Engine.cpp (temporary stub; real implementation follows) -----------===//
#include "Engine.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace distlint {

struct Engine::Impl {
  llvm::DenseMap<const FunctionDecl *, FunctionSummary> Summaries;
};

Engine::Engine(ASTContext &Ctx, const api::ApiIndex &Api)
    : Ctx(Ctx), Api(Api), P(std::make_unique<Impl>()) {}
Engine::~Engine() = default;

bool Engine::isUserCode(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  return Loc.isValid() && !SM.isInSystemHeader(Loc);
}
bool Engine::isUserCode(const Decl *D) const {
  return D && isUserCode(D->getLocation());
}
const FunctionDecl *Engine::resolveCallee(const CallExpr *Call) {
  return Call->getDirectCallee();
}
const api::ApiEntry *Engine::apiRole(const CallExpr *Call, api::Role R) {
  return Api.find(resolveCallee(Call), R);
}
std::optional<CollectiveSite> Engine::collectiveAt(const CallExpr *Call) {
  if (const api::ApiEntry *E = apiRole(Call, api::Role::Collective))
    return CollectiveSite{Call, E, nullptr, Call};
  return std::nullopt;
}
const FunctionSummary &Engine::summary(const FunctionDecl *FD) {
  return P->Summaries[FD];
}
UniformityAnswer Engine::uniformity(const Expr *) { return {}; }
UniformityAnswer Engine::branchUniformity(const Stmt *) { return {}; }
const FunctionDecl *Engine::enclosingFunction(const Stmt *) { return nullptr; }
FunctionFacts *Engine::facts(const FunctionDecl *) { return nullptr; }
std::vector<const Stmt *> Engine::controllingBranches(const Stmt *) {
  return {};
}
const Stmt *Engine::parentStmt(const Stmt *) { return nullptr; }

} // namespace distlint
