//===- CallReach.cpp -------------------------------------------------===//
//
// Which API roles a user function reaches (memoized per function and role,
// breadth-first over the call graph) and where user functions are called.
//
//===----------------------------------------------------------------------===//
#include "LoopsInternal.h"

using namespace clang;

namespace distlint {
namespace loops {

/// The definition of a user function, or null for library code.
const FunctionDecl *userDefinition(Engine &E, const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody() || !isAnalyzedDecl(E, Def))
    return nullptr;
  return Def;
}

void walkCalls(
    Engine &E, const Stmt *S,
    llvm::function_ref<void(const Expr *, const FunctionDecl *)> Fn) {
  if (!S)
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Fn(Call, E.resolveCallee(Call));
  else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S))
    Fn(Ctor, Ctor->getConstructor());
  for (const Stmt *Child : S->children())
    walkCalls(E, Child, Fn);
}

const CallsOfFunction &callsOf(Engine &E, const FunctionDecl *Def) {
  auto &Slot = state(E).Calls[Def];
  if (Slot)
    return *Slot;
  auto Facts = std::make_unique<CallsOfFunction>();
  walkCalls(E, Def->getBody(), [&](const Expr *, const FunctionDecl *Callee) {
    if (!Callee)
      return;
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      Facts->Direct |= bit(Row->TheRole);
    if (const FunctionDecl *U = userDefinition(E, Callee))
      if (U != Def && !llvm::is_contained(Facts->UserCallees, U))
        Facts->UserCallees.push_back(U);
  });
  // Constructors run their member initializers too.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      walkCalls(E, Init->getInit(),
                [&](const Expr *, const FunctionDecl *Callee) {
                  if (!Callee)
                    return;
                  for (const api::ApiEntry *Row : E.api().lookup(Callee))
                    Facts->Direct |= bit(Row->TheRole);
                  if (const FunctionDecl *U = userDefinition(E, Callee))
                    if (U != Def)
                      Facts->UserCallees.push_back(U);
                });
  Slot = std::move(Facts);
  return *Slot;
}

bool callReaches(Engine &E, const FunctionDecl *Callee, api::Role R) {
  if (!Callee)
    return false;
  if (E.api().has(Callee, R))
    return true;
  if (const FunctionDecl *U = userDefinition(E, Callee))
    return E.functionReaches(U, R);
  return false;
}

} // namespace loops

using namespace loops;

void forEachCallIn(
    Engine &E, const Stmt *S,
    llvm::function_ref<void(const Expr *, const FunctionDecl *)> Fn) {
  walkCalls(E, S, Fn);
}

llvm::ArrayRef<const CallExpr *> callSitesOf(Engine &E,
                                             const FunctionDecl *FD) {
  LoopState &St = state(E);
  if (!St.CallSitesBuilt) {
    St.CallSitesBuilt = true;
    auto Record = [&](const Expr *X, const FunctionDecl *Callee) {
      const auto *Call = dyn_cast<CallExpr>(X);
      if (!Call || !Callee)
        return;
      if (const FunctionDecl *Def = userDefinition(E, Callee))
        St.Sites[Def].push_back(Call);
      // A call of a hook runs each function registered with its container.
      for (const FunctionDecl *Hook : E.registeredTargets(Call))
        if (const FunctionDecl *Def = userDefinition(E, Hook);
            Def && Hook != Callee)
          St.Sites[Def].push_back(Call);
    };
    for (const FunctionDecl *F : E.userFunctions()) {
      walkCalls(E, F->getBody(), Record);
      // Member initializers: Trainer() : pg_(make_group(...)).
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (Init->isWritten())
            walkCalls(E, Init->getInit(), Record);
    }
  }
  const FunctionDecl *Def = userDefinition(E, FD);
  auto It = St.Sites.find(Def);
  if (It == St.Sites.end())
    return {};
  return It->second;
}

bool Engine::functionReaches(const FunctionDecl *FD, api::Role R) {
  const FunctionDecl *Root = userDefinition(*this, FD);
  if (!Root)
    return false;
  LoopState &St = state(*this);
  auto Key = std::make_pair(Root, unsigned(R));
  auto It = St.Reach.find(Key);
  if (It != St.Reach.end())
    return It->second;
  // Breadth-first over the call graph; recursion is a cycle we visit once.
  llvm::SmallVector<const FunctionDecl *, 16> Work{Root};
  llvm::DenseSet<const FunctionDecl *> Seen{Root};
  bool Found = false;
  while (!Work.empty() && !Found) {
    const FunctionDecl *F = Work.pop_back_val();
    auto Known = St.Reach.find({F, unsigned(R)});
    if (Known != St.Reach.end() && F != Root) {
      if (Known->second)
        Found = true;
      continue; // Known false: its whole closure is false.
    }
    const CallsOfFunction &Facts = callsOf(*this, F);
    if (Facts.Direct & bit(R)) {
      Found = true;
      break;
    }
    for (const FunctionDecl *Callee : Facts.UserCallees)
      if (Seen.insert(Callee).second)
        Work.push_back(Callee);
  }
  if (Found) {
    St.Reach[Key] = true;
  } else {
    // Everything reachable from Root does not reach R either.
    for (const FunctionDecl *F : Seen)
      St.Reach[{F, unsigned(R)}] = false;
  }
  return Found;
}

bool Engine::reaches(const Stmt *S, api::Role R) {
  bool Found = false;
  walkCalls(*this, S, [&](const Expr *, const FunctionDecl *Callee) {
    if (!Found && callReaches(*this, Callee, R))
      Found = true;
  });
  return Found;
}


} // namespace distlint
