//===- CFGFacts.cpp -------------------------------------------------------===//
#include "CFGFacts.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/PostOrderIterator.h"

using namespace clang;

namespace distlint {

std::unique_ptr<FunctionFacts> FunctionFacts::build(const FunctionDecl *FD,
                                                    ASTContext &Ctx) {
  if (!FD || !FD->hasBody() || FD->isDependentContext())
    return nullptr;
  Stmt *Body = FD->getBody();
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddInitializers = true;
  Options.AddCXXDefaultInitExprInCtors = true;
  Options.AddImplicitDtors = false;
  Options.AddTemporaryDtors = false;
  Options.AddLifetime = false;
  Options.AddCXXNewAllocator = false;
  std::unique_ptr<CFG> Graph = CFG::buildCFG(FD, Body, &Ctx, Options);
  if (!Graph)
    return nullptr;
  auto Facts = std::unique_ptr<FunctionFacts>(new FunctionFacts());
  Facts->FD = FD;
  Facts->Graph = std::move(Graph);
  Facts->Parents = std::make_unique<ParentMap>(Body);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getInit())
        Facts->Parents->addStmt(Init->getInit());
  Facts->StmtMap.reset(CFGStmtMap::Build(Facts->Graph.get(),
                                         Facts->Parents.get()));
  Facts->CDC = std::make_unique<ControlDependencyCalculator>(Facts->Graph.get());
  llvm::ReversePostOrderTraversal<const CFG *> Order(Facts->Graph.get());
  for (const CFGBlock *B : Order)
    Facts->RPO.push_back(B);
  return Facts;
}

const CFGBlock *FunctionFacts::blockOf(const Stmt *S) const {
  if (!S)
    return nullptr;
  return StmtMap->getBlock(const_cast<Stmt *>(S));
}

llvm::ArrayRef<CFGBlock *>
FunctionFacts::controlDependencies(const CFGBlock *B) {
  if (!B)
    return {};
  return CDC->getControlDependencies(const_cast<CFGBlock *>(B));
}

std::vector<const CFGBlock *>
FunctionFacts::allControlDependencies(const CFGBlock *B) {
  std::vector<const CFGBlock *> Out;
  std::vector<const CFGBlock *> Work{B};
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen{B};
  while (!Work.empty()) {
    const CFGBlock *Cur = Work.front();
    Work.erase(Work.begin());
    for (CFGBlock *Dep : controlDependencies(Cur))
      if (Dep && Seen.insert(Dep).second) {
        Out.push_back(Dep);
        Work.push_back(Dep);
      }
  }
  return Out;
}

const CFGBlock *
FunctionFacts::immediatePostDominator(const CFGBlock *B) const {
  auto &Base =
      const_cast<CFGPostDomTree &>(CDC->getCFGPostDomTree()).getBase();
  auto *Node = Base.getNode(const_cast<CFGBlock *>(B));
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

} // namespace distlint
