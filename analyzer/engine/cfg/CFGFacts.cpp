//===- CFGFacts.cpp -------------------------------------------------------===//
#include "engine/cfg/CFGFacts.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

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
  // Where each local's scope ends: the data-flow drops it there, so its
  // states follow the variables in scope, not every variable of the body.
  Options.AddLifetime = true;
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
  Facts->StmtMap.reset(
      CFGStmtMap::Build(Facts->Graph.get(), Facts->Parents.get()));
  Facts->CDC =
      std::make_unique<ControlDependencyCalculator>(Facts->Graph.get());
  // Own DFS: CFG successor lists hold nulls for pruned edges.
  std::vector<const CFGBlock *> PostOrder;
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
  const CFGBlock *Entry = &Facts->Graph->getEntry();
  Stack.push_back({Entry, 0});
  Seen.insert(Entry);
  while (!Stack.empty()) {
    auto &[B, Next] = Stack.back();
    if (Next < B->succ_size()) {
      const CFGBlock *Succ = *(B->succ_begin() + Next);
      ++Next;
      if (Succ && Seen.insert(Succ).second)
        Stack.push_back({Succ, 0});
      continue;
    }
    PostOrder.push_back(B);
    Stack.pop_back();
  }
  Facts->RPO.assign(PostOrder.rbegin(), PostOrder.rend());
  // Reachable: from the entry, and from every catch handler (the CFG has
  // no exception edges, but a handler runs when its try block throws).
  Facts->Reachable.assign(Facts->Graph->getNumBlockIDs(), false);
  std::vector<const CFGBlock *> Work(PostOrder.begin(), PostOrder.end());
  for (const CFGBlock *B : *Facts->Graph)
    if (B && llvm::isa_and_nonnull<CXXCatchStmt>(B->getLabel()))
      Work.push_back(B);
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    if (Facts->Reachable[B->getBlockID()])
      continue;
    Facts->Reachable[B->getBlockID()] = true;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs())
      if (const CFGBlock *S = Succ.getReachableBlock())
        Work.push_back(S);
  }
  for (const CFGBlock *B : *Facts->Graph)
    if (B && !Facts->Reachable[B->getBlockID()] &&
        (!B->empty() || B->getTerminatorStmt() || B->getLabel()))
      Facts->UnreachableCode = true;
  return Facts;
}

size_t FunctionFacts::elementIndexOf(const CFGBlock *B, const Stmt *S) const {
  if (Elements.empty())
    for (const CFGBlock *Block : *Graph)
      for (size_t I = 0; I < Block->size(); ++I)
        if (auto CS = (*Block)[I].getAs<CFGStmt>())
          Elements.try_emplace(CS->getStmt(), Block, I);
  size_t First = B->size();
  for (const Stmt *Cur = S; Cur; Cur = Parents->getParent(Cur)) {
    auto It = Elements.find(Cur);
    if (It != Elements.end() && It->second.first == B)
      First = std::min(First, It->second.second);
  }
  return First;
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
  // B itself when its own branch decides whether it runs again (a loop
  // whose exit test shares the block with the collective before it).
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
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

const CFGBlock *FunctionFacts::immediatePostDominator(const CFGBlock *B) const {
  auto &Base = const_cast<CFGPostDomTree &>(CDC->getCFGPostDomTree()).getBase();
  auto *Node = Base.getNode(const_cast<CFGBlock *>(B));
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

} // namespace distlint
