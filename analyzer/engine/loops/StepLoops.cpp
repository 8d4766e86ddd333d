//===- StepLoops.cpp -------------------------------------------------===//
//
// Loops enclosing a statement, training loops and step loops, and whether a
// statement runs on every training step (in its loop or through the helpers
// the step loop calls).
//
//===----------------------------------------------------------------------===//
#include "LoopsInternal.h"
#include "engine/ast/AstHelpers.h"

#include <functional>

using namespace clang;

namespace distlint {
namespace loops {

/// The parts of a loop that run on every iteration.
llvm::SmallVector<const Stmt *, 4> iterationParts(const Stmt *Loop) {
  llvm::SmallVector<const Stmt *, 4> Parts;
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    Parts = {F->getCond(), F->getInc(), F->getBody(),
             F->getConditionVariableDeclStmt()};
  else if (const auto *W = dyn_cast<WhileStmt>(Loop))
    Parts = {W->getCond(), W->getBody(), W->getConditionVariableDeclStmt()};
  else if (const auto *D = dyn_cast<DoStmt>(Loop))
    Parts = {D->getCond(), D->getBody()};
  else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    Parts = {R->getCond(), R->getInc(), R->getLoopVarStmt(), R->getBody()};
  llvm::erase(Parts, nullptr);
  return Parts;
}

bool isFunctionBoundary(const DynTypedNode &N) {
  return N.get<FunctionDecl>() || N.get<LambdaExpr>() || N.get<BlockDecl>() ||
         N.get<CXXRecordDecl>() || N.get<ObjCMethodDecl>();
}

void forEachEnclosingStmt(
    Engine &E, const Stmt *S,
    llvm::function_ref<bool(const Stmt *Parent, const Stmt *Child)> Visit) {
  ASTContext &Ctx = E.context();
  DynTypedNode Node = DynTypedNode::create(*S);
  const Stmt *Child = S;
  while (true) { // Ends at the function; no cap that drops deep code.
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return;
    Node = Parents[0];
    if (isFunctionBoundary(Node))
      return;
    const Stmt *P = Node.get<Stmt>();
    if (!P)
      continue;
    if (!Visit(P, Child))
      return;
    Child = P;
  }
}

bool runsAtMostOnce(Engine &E, const Stmt *Loop) {
  if (!isa<DoStmt, WhileStmt, ForStmt>(Loop))
    return false;
  const Expr *Cond = decisionOf(Loop).Cond;
  if (!Cond)
    return false;
  auto V = evaluateInt(E, Cond);
  // do { } while (0) runs once; while (0) / for (;0;) never.
  return V && V->isZero();
}

namespace {

/// Does one call of Def run a training step outside its own training
/// loops (train_step() rather than train_epoch())?
bool stepsDirectly(Engine &E, const FunctionDecl *Def);

bool stepIn(Engine &E, const Stmt *S, const Stmt *Loop) {
  if (!S)
    return false;
  if (S != Loop && isLoopStmt(S) && E.isTrainingLoop(S))
    return false; // Its iterations are the steps, not ours.
  if (isa<CUDAKernelCallExpr>(S))
    return true; // kernel<<<grid, block, 0, stream>>>(...)
  if (isa<LambdaExpr>(S))
    return false; // Judged where it is called.
  const FunctionDecl *Callee = nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Callee = E.resolveCallee(Call);
  else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S))
    Callee = Ctor->getConstructor();
  if (Callee) {
    if (E.api().has(Callee, api::Role::TrainingStep) ||
        E.api().has(Callee, api::Role::Collective) ||
        E.api().has(Callee, api::Role::DeviceLaunch))
      return true;
    if (const FunctionDecl *U = userDefinition(E, Callee))
      if (stepsDirectly(E, U))
        return true;
  }
  for (const Stmt *Child : S->children())
    if (stepIn(E, Child, Loop))
      return true;
  return false;
}

bool stepsDirectly(Engine &E, const FunctionDecl *Def) {
  auto &Memo = state(E).StepsDirectly;
  auto It = Memo.find(Def);
  if (It != Memo.end())
    return It->second == 2;
  Memo[Def] = 0;
  bool Result = stepIn(E, Def->getBody(), nullptr);
  state(E).StepsDirectly[Def] = Result ? 2 : 1;
  return Result;
}

std::optional<StepContext> runsEveryStepImpl(Engine &E, const Stmt *S,
                                             int Depth);

/// Declarations of local objects of class RD (by value) in user code.
llvm::SmallVector<const DeclStmt *, 4>
localDeclarationsOf(Engine &E, const CXXRecordDecl *RD) {
  llvm::SmallVector<const DeclStmt *, 4> Out;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V->hasLocalStorage() &&
            V->getType()->getAsCXXRecordDecl() == RD) {
          Out.push_back(DS);
          break;
        }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  for (const FunctionDecl *F : E.userFunctions())
    Walk(F->getBody());
  return Out;
}

/// Sites from which a call of Def runs every step.
const std::vector<StepCaller> &stepCallers(Engine &E, const FunctionDecl *Def,
                                           int Depth) {
  LoopState &St = state(E);
  auto It = St.Callers.find(Def);
  if (It != St.Callers.end())
    return It->second;
  static const std::vector<StepCaller> None;
  if (Depth > 6 || !St.CallersInProgress.insert(Def).second)
    return None;
  std::vector<StepCaller> Found;
  for (const CallExpr *Call : callSitesOf(E, Def))
    if (auto Ctx = runsEveryStepImpl(E, Call, Depth + 1))
      Found.push_back({Call, *Ctx});
  // A destructor runs where each local of its class goes out of scope: an
  // RAII timer declared in the step body runs it every step.
  if (const auto *Dtor = dyn_cast<CXXDestructorDecl>(Def))
    for (const DeclStmt *Decl : localDeclarationsOf(E, Dtor->getParent()))
      if (auto Ctx = runsEveryStepImpl(E, Decl, Depth + 1))
        Found.push_back({Decl, *Ctx});
  // A lambda passed to an algorithm runs where it is written.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda()) {
    for (const DynTypedNode &P : E.context().getParents(*MD->getParent()))
      if (const auto *Lambda = P.get<LambdaExpr>())
        if (auto Ctx = runsEveryStepImpl(E, Lambda, Depth + 1))
          Found.push_back({Lambda, *Ctx});
  }
  St.CallersInProgress.erase(Def);
  return St.Callers[Def] = std::move(Found);
}

std::optional<StepContext> runsEveryStepImpl(Engine &E, const Stmt *S,
                                             int Depth) {
  for (const Stmt *Loop : enclosingLoops(E, S)) {
    if (isStepLoop(E, Loop)) {
      VaryContext C{Loop, nullptr, nullptr, nullptr};
      if (guardedPeriodically(E, S, Loop, C))
        return std::nullopt;
      return StepContext{Loop, {}};
    }
    if (E.isTrainingLoop(Loop))
      return std::nullopt; // Once per epoch, not per step.
  }
  const FunctionDecl *FD = E.enclosingFunction(S);
  const FunctionDecl *Def = userDefinition(E, FD);
  if (!Def)
    return std::nullopt;
  for (const StepCaller &Caller : stepCallers(E, Def, Depth)) {
    VaryContext Outer{Caller.Context.Loop, nullptr, nullptr, nullptr};
    VaryContext Inner{nullptr, Def, dyn_cast<CallExpr>(Caller.Site), &Outer};
    if (guardedPeriodically(E, S, Def->getBody(), Inner))
      continue;
    StepContext Result = Caller.Context;
    Result.Via.push_back(Caller.Site);
    return Result;
  }
  return std::nullopt;
}


} // namespace
} // namespace loops

using namespace loops;

llvm::SmallVector<const Stmt *, 4> enclosingLoops(Engine &E, const Stmt *S) {
  llvm::SmallVector<const Stmt *, 4> Out;
  if (!S)
    return Out;
  forEachEnclosingStmt(E, S, [&](const Stmt *P, const Stmt *Child) {
    if (isLoopStmt(P) && llvm::is_contained(iterationParts(P), Child) &&
        !runsAtMostOnce(E, P))
      Out.push_back(P);
    return true;
  });
  return Out;
}

namespace {
void loopsAroundImpl(Engine &E, const Stmt *S,
                     llvm::SmallVectorImpl<const Stmt *> &Via,
                     llvm::SmallPtrSetImpl<const FunctionDecl *> &Active,
                     llvm::SmallVectorImpl<StepContext> &Out) {
  for (const Stmt *Loop : enclosingLoops(E, S)) {
    StepContext C{Loop, {}};
    C.Via.assign(Via.rbegin(), Via.rend());
    Out.push_back(std::move(C));
  }
  const FunctionDecl *Def = userDefinition(E, E.enclosingFunction(S));
  if (!Def || Via.size() >= size_t(kCallContextDepth) ||
      !Active.insert(Def).second)
    return;
  for (const CallExpr *Call : callSitesOf(E, Def)) {
    Via.push_back(Call);
    loopsAroundImpl(E, Call, Via, Active, Out);
    Via.pop_back();
  }
  Active.erase(Def);
}
} // namespace

llvm::SmallVector<StepContext, 4> loopsAround(Engine &E, const Stmt *S) {
  llvm::SmallVector<StepContext, 4> Out;
  llvm::SmallVector<const Stmt *, 4> Via;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Active;
  if (S)
    loopsAroundImpl(E, S, Via, Active, Out);
  return Out;
}

bool runsInIterationOf(Engine &E, const Stmt *S, const Stmt *Loop) {
  return llvm::is_contained(enclosingLoops(E, S), Loop);
}

/// Does some part of Loop's iterations reach role R (through user code)?
bool iterationReaches(Engine &E, const Stmt *Loop, api::Role R) {
  for (const Stmt *Part : iterationParts(Loop))
    if (E.reaches(Part, R))
      return true;
  return false;
}

/// A loop that queues device computation (kernels, cuBLAS) each iteration.
bool queuesDeviceWork(Engine &E, const Stmt *Loop) {
  auto &Memo = state(E).DeviceWork;
  auto It = Memo.find(Loop);
  if (It != Memo.end())
    return It->second;
  bool Result = iterationReaches(E, Loop, api::Role::DeviceLaunch);
  if (!Result)
    forEachCallIn(E, Loop, [&](const Expr *X, const FunctionDecl *) {
      Result |= isa<CUDAKernelCallExpr>(X);
    });
  return state(E).DeviceWork[Loop] = Result;
}

bool isBenchmarkLoop(Engine &E, const Stmt *Loop) {
  // Collectives and a clock, but no computation: it times communication.
  return iterationReaches(E, Loop, api::Role::Collective) &&
         iterationReaches(E, Loop, api::Role::Clock) &&
         !iterationReaches(E, Loop, api::Role::TrainingStep) &&
         !queuesDeviceWork(E, Loop);
}

namespace {
/// Does S hold (or call, through user functions) a loop of training steps
/// that communicate: every iteration computes (a backward pass, an
/// optimizer step, device work) and communicates? Gradient-accumulation
/// micro-steps do not communicate (that is their point), a loop over the
/// parameters' gradients communicates without computing; the batches of an
/// epoch do both.
bool holdsCommunicatingLoop(Engine &E, const Stmt *S, const Stmt *Outer,
                            llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (S != Outer && isLoopStmt(S) && E.isTrainingLoop(S) &&
      iterationReaches(E, S, api::Role::Collective) &&
      (iterationReaches(E, S, api::Role::TrainingStep) ||
       queuesDeviceWork(E, S)))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *U = userDefinition(E, E.resolveCallee(Call));
        U && Seen.size() < 8 && Seen.insert(U).second &&
        holdsCommunicatingLoop(E, U->getBody(), nullptr, Seen))
      return true;
  for (const Stmt *Child : S->children())
    if (holdsCommunicatingLoop(E, Child, Outer, Seen))
      return true;
  return false;
}

/// An epoch loop: its iterations run a nested loop whose iterations
/// communicate, so what it runs besides (a metric all-reduce, a checkpoint)
/// runs once per epoch.
bool isEpochLoop(Engine &E, const Stmt *Loop) {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  for (const Stmt *Part : iterationParts(Loop))
    if (holdsCommunicatingLoop(E, Part, Loop, Seen))
      return true;
  return false;
}
} // namespace

bool isStepLoop(Engine &E, const Stmt *Loop) {
  auto &Memo = state(E).Step;
  auto It = Memo.find(Loop);
  if (It != Memo.end())
    return It->second;
  bool Result = false;
  if ((E.isTrainingLoop(Loop) || queuesDeviceWork(E, Loop)) &&
      !isBenchmarkLoop(E, Loop) && !isEpochLoop(E, Loop))
    for (const Stmt *Part : iterationParts(Loop))
      if (stepIn(E, Part, Loop)) {
        Result = true;
        break;
      }
  return state(E).Step[Loop] = Result;
}

bool runsTrainingStep(Engine &E, const FunctionDecl *FD) {
  const FunctionDecl *Def = userDefinition(E, FD);
  return Def && stepsDirectly(E, Def);
}

std::optional<StepContext> runsEveryStep(Engine &E, const Stmt *S) {
  return runsEveryStepImpl(E, S, 0);
}

const Stmt *Engine::enclosingLoop(const Stmt *S) {
  auto Loops = enclosingLoops(*this, S);
  return Loops.empty() ? nullptr : Loops.front();
}

bool Engine::isTrainingLoop(const Stmt *Loop) {
  if (!isLoopStmt(Loop) || runsAtMostOnce(*this, Loop))
    return false;
  auto &Memo = state(*this).Training;
  auto It = Memo.find(Loop);
  if (It != Memo.end())
    return It->second;
  bool Result = false;
  for (const Stmt *Part : iterationParts(Loop))
    if (reaches(Part, api::Role::TrainingStep) ||
        reaches(Part, api::Role::Collective)) {
      Result = true;
      break;
    }
  return state(*this).Training[Loop] = Result;
}

} // namespace distlint
