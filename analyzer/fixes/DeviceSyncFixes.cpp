//===- DeviceSyncFixes.cpp ------------------------------------------------===//
#include "fixes/DeviceSyncFixes.h"
#include "fixes/FixText.h"

#include "engine/Engine.h"

#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace distlint::fixes {

namespace {
const Stmt *bodyOf(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getBody();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return R->getBody();
  return nullptr;
}
} // namespace

std::vector<FixItHint> syncEveryNthStep(Engine &E, const Expr *Sync,
                                        const Stmt *StepLoop,
                                        const FixOptions &Opts) {
  if (!Sync || !StepLoop)
    return {};
  const VarDecl *Counter = loopCounter(StepLoop);
  if (!Counter)
    return {};
  ASTContext &Ctx = E.context();
  const CompoundStmt *Block = nullptr;
  const Stmt *S = statementInBlock(Ctx, Sync, &Block);
  // Directly in the loop's body, and only an expression statement (a
  // declaration would leave its scope).
  if (!S || !isa<Expr>(S) || Block != bodyOf(StepLoop))
    return {};
  CharSourceRange R = statementRange(Ctx, S);
  if (R.isInvalid())
    return {};
  return {FixItHint::CreateInsertion(
      R.getBegin(), "if (" + Counter->getNameAsString() + " % " +
                        std::to_string(Opts.StepSyncInterval) + " == 0) ")};
}

} // namespace distlint::fixes
