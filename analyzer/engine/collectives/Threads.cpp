//===- Threads.cpp --------------------------------------------------------===//
#include "engine/collectives/Threads.h"
#include "engine/Engine.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

using namespace clang;

namespace distlint {
namespace collectives {

namespace {

/// Does the condition test the calling thread's number (`omp_get_thread_num()
/// == 0`), so that one thread of the team takes the branch?
bool testsThreadNumber(Engine &E, const Expr *Cond, int Depth = 0) {
  if (!Cond || Depth > 8)
    return false;
  const Expr *X = Cond->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(X))
    if (const FunctionDecl *FD = E.resolveCallee(Call))
      if (FD->getIdentifier() && FD->getName() == "omp_get_thread_num")
        return true;
  // `int tid = omp_get_thread_num();` then `tid == 0`, `comms[tid]`.
  if (const auto *DR = dyn_cast<DeclRefExpr>(X))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && V->hasLocalStorage() && V->getInit())
      return testsThreadNumber(E, V->getInit(), Depth + 1);
  for (const Stmt *Child : X->children())
    if (const auto *C = dyn_cast_or_null<Expr>(Child);
        C && testsThreadNumber(E, C, Depth + 1))
      return true;
  return false;
}

/// Does each thread pass a communicator of its own: one chosen by a
/// variable private to the region (`comms[tid]`, the worksharing loop's
/// `comms[i]`: one GPU per thread) or by the thread number?
bool ownCommunicatorPerThread(Engine &E, const CallExpr *Call,
                              const OMPExecutableDirective *Region) {
  const api::ApiEntry *Row = E.apiRole(Call, api::Role::Collective);
  if (!Row) {
    // A helper given the thread's own slot, chosen by the thread number
    // (`run(&input[omp_get_thread_num()])`), runs on the communicator that
    // slot holds. (Private scalars it is given say nothing of that.)
    return llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
      return testsThreadNumber(E, Arg);
    });
  }
  if (Row->Args.Comm < 0 || Row->Args.Comm >= (int)Call->getNumArgs())
    return false;
  const Expr *Comm = Call->getArg(Row->Args.Comm);
  if (testsThreadNumber(E, Comm))
    return true;
  const SourceManager &SM = E.context().getSourceManager();
  // The directive's own range is its pragma line; its body follows.
  SourceRange R = Region->getSourceRange();
  if (Region->hasAssociatedStmt() && Region->getAssociatedStmt())
    R.setEnd(Region->getAssociatedStmt()->getEndLoc());
  std::function<bool(const Stmt *)> Private = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && V->hasLocalStorage() &&
          !SM.isBeforeInTranslationUnit(V->getLocation(), R.getBegin()) &&
          !SM.isBeforeInTranslationUnit(R.getEnd(), V->getLocation()))
        return true;
    for (const Stmt *Child : S->children())
      if (Private(Child))
        return true;
    return false;
  };
  return Private(Comm);
}

} // namespace

const OMPExecutableDirective *perThreadRegion(Engine &E, const CallExpr *Call) {
  ASTContext &Ctx = E.context();
  DynTypedNode Node = DynTypedNode::create(*Call);
  const Stmt *Child = Call;
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    if (Node.get<FunctionDecl>())
      return nullptr; // The function's body: outside any region.
    const auto *S = Node.get<Stmt>();
    if (!S)
      continue; // A CapturedDecl between a region and its body.
    if (const auto *If = dyn_cast<IfStmt>(S);
        If && If->getCond() != Child && testsThreadNumber(E, If->getCond()))
      return nullptr;
    if (const auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      OpenMPDirectiveKind K = D->getDirectiveKind();
      if (K == llvm::omp::OMPD_single || K == llvm::omp::OMPD_master ||
          K == llvm::omp::OMPD_masked)
        return nullptr;
      if (isOpenMPParallelDirective(K))
        return ownCommunicatorPerThread(E, Call, D) ? nullptr : D;
    }
    Child = S;
  }
  return nullptr;
}

} // namespace collectives
} // namespace distlint
