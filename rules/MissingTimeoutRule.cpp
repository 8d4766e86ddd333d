//===- MissingTimeoutRule.cpp ---------------------------------------------===//
//
// Which classes are process groups and stores, which fields and arguments
// set a timeout, which named values mean "no timeout", which environment
// variables switch the NCCL watchdog's abort off and which NCCL calls let a
// program detect a hung communicator all come from the API tables
// (ProcessGroupType, StoreType, TimeoutKnob, TimeoutConstant, EnvWrite,
// CommInit, AsyncErrorCheck rows). Whether the options' timeout is assigned
// on every path to the construction is the ObjectFlow data-flow.
//
//===----------------------------------------------------------------------===//
#include "MissingTimeoutRule.h"
#include "engine/UserCode.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/ObjectFlow.h"
#include "engine/RoleSites.h"
#include "engine/Values.h"
#include "fixes/TimeoutFixes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

namespace {
constexpr double kDayMs = 24.0 * 3600.0 * 1000.0;

std::string className(const CXXRecordDecl *RD) {
  return RD ? RD->getNameAsString() : std::string("process group");
}

/// Options-like: the type (or what it points to) has a TimeoutKnob field.
bool hasTimeoutField(Engine &E, QualType T) {
  T = T.getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (T->isPointerType())
    RD = T->getPointeeType()->getAsCXXRecordDecl();
  if (RD && isPointerLike(T) && !T->isPointerType())
    for (const CXXMethodDecl *M : RD->methods())
      if (M->getOverloadedOperator() == OO_Arrow)
        RD = M->getReturnType()->getPointeeType()->getAsCXXRecordDecl();
  llvm::SmallVector<const CXXRecordDecl *, 4> Work{RD};
  while (!Work.empty()) {
    const CXXRecordDecl *C = Work.pop_back_val();
    if (!C || !C->hasDefinition())
      continue;
    for (const FieldDecl *F : C->fields())
      if (E.api().findMember(F, api::Role::TimeoutKnob))
        return true;
    for (const CXXBaseSpecifier &B : C->bases())
      Work.push_back(B.getType()->getAsCXXRecordDecl());
  }
  return false;
}

const api::ApiEntry *timeoutConstantIn(Engine &E, const Expr *X) {
  if (!X)
    return nullptr;
  X = stripValue(X)->IgnoreParenCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
    if (const api::ApiEntry *Row =
            E.api().findMember(DR->getDecl(), api::Role::TimeoutConstant))
      return Row;
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return timeoutConstantIn(E, soleDefinition(E, V));
    return nullptr;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(X))
    if (CE->getNumArgs() == 1)
      return timeoutConstantIn(E, CE->getArg(0));
  return nullptr;
}
} // namespace

void MissingTimeoutRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(callExpr().bind("call"), this);
  Finder.addMatcher(cxxConstructExpr().bind("construct"), this);
  Finder.addMatcher(cxxNewExpr().bind("new"), this);
  Finder.addMatcher(binaryOperator(isAssignmentOperator()).bind("assign"), this);
  Finder.addMatcher(initListExpr().bind("init"), this);
}

void MissingTimeoutRule::check(const MatchFinder::MatchResult &Result) {
  SM = Result.SourceManager;
  Engine &E = engine();
  const Stmt *Node = nullptr;
  for (const char *Id : {"call", "construct", "new", "assign", "init"})
    if ((Node = Result.Nodes.getNodeAs<Stmt>(Id)))
      break;
  if (!Node || !isAnalyzedStmt(E, Node))
    return;
  const FunctionDecl *FD = E.enclosingFunction(Node);
  if (FD && FD->isDependentContext())
    return;
  if (const auto *Call = dyn_cast<CallExpr>(Node)) {
    if (isa<CXXOperatorCallExpr>(Call))
      checkFieldAssignment(Call);
    checkKnobCall(Call);
    checkEnvWrite(Call);
    checkNcclInit(Call);
    // Factories that construct a process group (make_intrusive, make_shared).
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && !isAnalyzedDecl(E, Callee) && isPointerLike(Call->getType()))
      checkConstruction(Call);
  } else if (const auto *New = dyn_cast<CXXNewExpr>(Node)) {
    checkConstruction(New);
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(Node)) {
    // `new T(...)` is handled at the new-expression.
    bool UnderNew = false;
    for (const DynTypedNode &P : E.context().getParents(*CE))
      UnderNew |= P.get<CXXNewExpr>() != nullptr;
    if (!UnderNew)
      checkConstruction(CE);
    checkKnobCall(CE);
  } else if (const auto *B = dyn_cast<BinaryOperator>(Node)) {
    checkFieldAssignment(B);
  } else if (const auto *Init = dyn_cast<InitListExpr>(Node)) {
    checkInitList(Init);
  }
}

std::optional<std::string> MissingTimeoutRule::badTimeout(const Expr *Value) {
  Engine &E = engine();
  if (!Value)
    return std::nullopt;
  if (const api::ApiEntry *Row = timeoutConstantIn(E, Value)) {
    if (llvm::StringRef(Row->Detail) == "none")
      return std::string("kNoTimeout (wait forever)");
    return std::nullopt;
  }
  std::optional<double> Ms = evaluateDurationMs(E, Value);
  if (!Ms)
    return std::nullopt;
  if (*Ms <= 0)
    return std::string("zero, which means no timeout");
  if (*Ms > kDayMs)
    return llvm::formatv("{0:F0} hours", *Ms / 3600000.0).str();
  return std::nullopt;
}

void MissingTimeoutRule::reportBadTimeout(const Expr *Value,
                                          const std::string &Why,
                                          bool IsStore) {
  std::string Msg =
      "timeout set to " + Why + ": " +
      (IsStore ? std::string("a store wait for a rank that died or hangs "
                             "then blocks")
               : std::string("a hung collective then blocks every rank")) +
      " practically forever and the job never fails; use a finite timeout "
      "(minutes) so the hang turns into an error";
  diag(Value->getBeginLoc(), Msg, *SM)
      .fix(fixes::replaceTimeoutValue(engine(), Value, fixOptions()));
}

/// A creation of options (or any value assigned to the options variable)
/// that already sets the timeout: a factory or constructor argument, a copy
/// of options whose timeout is set, or a user helper that returns such.
bool MissingTimeoutRule::creationSetsTimeout(const Expr *X, int Depth) {
  Engine &E = engine();
  if (!X || Depth > 4)
    return false;
  const Expr *S = stripValue(X);
  FieldQuery Q;
  auto IsField = [&](const FieldDecl *F) {
    return E.api().findMember(F, api::Role::TimeoutKnob) != nullptr;
  };
  auto Creates = [&](const Expr *Y) { return creationSetsTimeout(Y, Depth + 1); };
  Q.IsField = IsField;
  Q.CreationSets = Creates;
  if (const VarDecl *V = designatedVar(S)) {
    if (V->hasLocalStorage() || isa<ParmVarDecl>(V))
      return fieldSetOnEveryPath(E, V, X, Q) != Tri::No;
    return true; // A global: set elsewhere.
  }
  auto KnobGiven = [&](const FunctionDecl *Callee, auto ArgAt) {
    if (!Callee)
      return false;
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      if (Row->TheRole == api::Role::TimeoutKnob && Row->Args.Timeout >= 0 &&
          ArgAt(Row->Args.Timeout))
        return true;
    return false;
  };
  if (auto C = constructionAt(E, S)) {
    if (KnobGiven(C->Ctor, [&](int I) { return C->hasArg(I); }))
      return true;
    // Options built without a timeout argument keep the default.
    if (hasTimeoutField(E, E.context().getRecordType(C->Ctor->getParent())))
      return false;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = E.resolveCallee(Call);
    if (KnobGiven(Callee,
                  [&](int I) { return callArgument(Call, Callee, I) != nullptr; }))
      return true;
    // A user helper returning options: every return must set it.
    if (Callee && Callee->getDefinition() && isAnalyzedDecl(E, Callee)) {
      const FunctionDecl *Def = Callee->getDefinition();
      bool Any = false, All = true;
      std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
        if (!St || isa<LambdaExpr>(St))
          return;
        if (const auto *Ret = dyn_cast<ReturnStmt>(St)) {
          Any = true;
          const Expr *RV = Ret->getRetValue();
          bool Sets = false;
          if (const VarDecl *V = RV ? designatedVar(RV) : nullptr;
              V && V->hasLocalStorage())
            Sets = fieldSetOnEveryPath(E, V, Ret, Q) != Tri::No;
          else
            Sets = creationSetsTimeout(RV, Depth + 1);
          All = All && Sets;
          return;
        }
        for (const Stmt *Child : St->children())
          Walk(Child);
      };
      Walk(Def->getBody());
      return Any && All;
    }
    // A library factory of options without a timeout argument
    // (ProcessGroupNCCL::Options::create(bool)) leaves the default; other
    // code we cannot see is assumed to know what it does.
    if (Callee && !isAnalyzedDecl(E, Callee))
      return !hasTimeoutField(E, Call->getType());
    return true;
  }
  if (const auto *Init = dyn_cast<InitListExpr>(S)) {
    const CXXRecordDecl *RD = Init->getType()->getAsCXXRecordDecl();
    if (RD) {
      unsigned I = 0;
      for (const FieldDecl *F : RD->fields()) {
        if (I < Init->getNumInits() && IsField(F) &&
            !isa<ImplicitValueInitExpr>(Init->getInit(I)))
          return true;
        ++I;
      }
    }
    return false;
  }
  // A member, a conditional, a parameter pack...: provenance unknown.
  return true;
}

void MissingTimeoutRule::checkConstruction(const Expr *Site) {
  Engine &E = engine();
  std::optional<Construction> C = constructionAt(E, Site);
  if (!C || !C->Ctor)
    return;
  const api::ApiEntry *Row = E.api().find(C->Ctor, api::Role::CommInit);
  const CXXRecordDecl *Class = C->Ctor->getParent();
  if (!Row || Row->Args.Options < 0 ||
      !E.api().findType(Class, api::Role::ProcessGroupType))
    return;
  const Expr *Options = C->arg(Row->Args.Options);
  std::string Name = className(Class);
  std::string Common =
      ", so the library default (30 minutes) applies: a rank that hangs or "
      "dies leaves the others blocked in their collectives for half an hour "
      "before anything fails; set options->timeout to a bound that fits one "
      "step";
  if (!Options) {
    diag(Site->getBeginLoc(),
         "'" + Name + "' is created without options: its timeout is never "
         "set" + Common,
         *SM);
    return;
  }
  if (creationSetsTimeout(Options, 0))
    return;
  auto D = diag(Site->getBeginLoc(),
                "'" + Name + "' is created with options whose 'timeout' is not "
                "set on every path to this point" + Common,
                *SM);
  if (const VarDecl *V = designatedVar(Options))
    D.note(V->getLocation(), "options created here");
  D.fix(fixes::setOptionsTimeout(E, Site, designatedVar(Options), fixOptions()));
}

void MissingTimeoutRule::checkKnobCall(const Expr *Site) {
  Engine &E = engine();
  const FunctionDecl *Callee = nullptr;
  std::optional<Construction> C;
  if (const auto *Call = dyn_cast<CallExpr>(Site))
    Callee = E.resolveCallee(Call);
  else if (const auto *CE = dyn_cast<CXXConstructExpr>(Site))
    Callee = CE->getConstructor();
  if (!Callee)
    return;
  for (const api::ApiEntry *Row : E.api().lookup(Callee)) {
    if (Row->TheRole != api::Role::TimeoutKnob || Row->Args.Timeout < 0)
      continue;
    const Expr *Arg = nullptr;
    if (const auto *Call = dyn_cast<CallExpr>(Site))
      Arg = callArgument(Call, Callee, Row->Args.Timeout);
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(Site);
             CE && unsigned(Row->Args.Timeout) < CE->getNumArgs() &&
             !isa<CXXDefaultArgExpr>(CE->getArg(Row->Args.Timeout)))
      Arg = CE->getArg(Row->Args.Timeout);
    if (!Arg)
      continue;
    if (auto Why = badTimeout(Arg)) {
      const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      bool IsStore =
          MD && E.api().findType(MD->getParent(), api::Role::StoreType);
      reportBadTimeout(Arg, *Why, IsStore);
    }
    return;
  }
  // Factories that forward to a knob constructor (make_intrusive<Options>).
  if (const auto *Call = dyn_cast<CallExpr>(Site);
      Call && !isAnalyzedDecl(E, Callee) && isPointerLike(Call->getType()))
    if ((C = constructionAt(E, Call)) && C->Ctor)
      for (const api::ApiEntry *Row : E.api().lookup(C->Ctor))
        if (Row->TheRole == api::Role::TimeoutKnob && Row->Args.Timeout >= 0)
          if (const Expr *Arg = C->arg(Row->Args.Timeout))
            if (auto Why = badTimeout(Arg)) {
              bool IsStore = E.api().findType(C->Ctor->getParent(),
                                              api::Role::StoreType) != nullptr;
              reportBadTimeout(Arg, *Why, IsStore);
              return;
            }
}

void MissingTimeoutRule::checkFieldAssignment(const Stmt *S) {
  Engine &E = engine();
  const FieldDecl *F;
  const Expr *Obj, *Value;
  if (!isFieldAssignment(S, F, Obj, Value))
    return;
  if (!E.api().findMember(F, api::Role::TimeoutKnob))
    return;
  if (auto Why = badTimeout(Value)) {
    bool IsStore =
        E.api().findType(dyn_cast<CXXRecordDecl>(F->getParent()),
                         api::Role::StoreType) != nullptr;
    // TCPStoreOptions is not a store class; its knob row says so.
    if (const api::ApiEntry *Row = E.api().findMember(F, api::Role::TimeoutKnob))
      IsStore |= llvm::StringRef(Row->Detail).contains("store");
    reportBadTimeout(Value, *Why, IsStore);
  }
}

void MissingTimeoutRule::checkInitList(const InitListExpr *Init) {
  Engine &E = engine();
  if (Init->isSemanticForm() && Init->getSyntacticForm())
    ; // Both forms are matched; use the semantic one only.
  if (!Init->isSemanticForm())
    return;
  const CXXRecordDecl *RD = Init->getType()->getAsCXXRecordDecl();
  if (!RD)
    return;
  unsigned I = 0;
  for (const FieldDecl *F : RD->fields()) {
    if (I >= Init->getNumInits())
      break;
    const Expr *Value = Init->getInit(I++);
    const api::ApiEntry *Row = E.api().findMember(F, api::Role::TimeoutKnob);
    if (!Row || isa<ImplicitValueInitExpr>(Value) ||
        isa<CXXDefaultInitExpr>(Value))
      continue;
    if (auto Why = badTimeout(Value))
      reportBadTimeout(Value, *Why,
                       llvm::StringRef(Row->Detail).contains("store"));
  }
}

void MissingTimeoutRule::checkEnvWrite(const CallExpr *Call) {
  Engine &E = engine();
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const api::ApiEntry *Row =
      Callee ? E.api().find(Callee, api::Role::EnvWrite) : nullptr;
  if (!Row)
    return;
  const Expr *NameArg = callArgument(Call, Callee, Row->Args.Count);
  if (!NameArg)
    return;
  std::optional<std::string> Name = evaluateString(E, NameArg);
  std::optional<std::string> Value;
  if (Row->Args.Value >= 0) {
    Value = evaluateString(E, callArgument(Call, Callee, Row->Args.Value));
  } else if (Name) {
    // putenv("NAME=VALUE").
    size_t Eq = Name->find('=');
    if (Eq == std::string::npos)
      return;
    Value = Name->substr(Eq + 1);
    Name = Name->substr(0, Eq);
  }
  const api::ApiEntry *Knob =
      Name ? api::envVariable(*Name, api::Role::TimeoutKnob) : nullptr;
  // The name through a library constant (c10d::NCCL_ASYNC_ERROR_HANDLING).
  if (!Knob) {
    std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
      if (!S || Knob)
        return;
      if (const auto *DR = dyn_cast<DeclRefExpr>(S))
        if ((Knob = E.api().findMember(DR->getDecl(), api::Role::TimeoutKnob)))
          Name = DR->getDecl()->getNameAsString();
      for (const Stmt *Child : S->children())
        Find(Child);
    };
    Find(NameArg);
  }
  if (!Knob || !Value || !Name)
    return;
  if (llvm::StringRef(*Value).trim() != llvm::StringRef(Knob->Detail))
    return;
  diag(Call->getBeginLoc(),
       "setting " + *Name + "=" + *Value + " switches off the NCCL watchdog's "
       "abort: a hung collective is then never torn down and every rank "
       "blocks forever instead of failing after the process group timeout; "
       "leave it enabled",
       *SM);
}

void MissingTimeoutRule::checkNcclInit(const CallExpr *Call) {
  Engine &E = engine();
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const api::ApiEntry *Row =
      Callee ? E.api().find(Callee, api::Role::CommInit) : nullptr;
  if (!Row || Row->Fam != api::Family::Nccl)
    return;
  for (const Expr *Check : callsWithRole(E, api::Role::AsyncErrorCheck)) {
    const auto *C = dyn_cast<CallExpr>(Check);
    const FunctionDecl *F = C ? E.resolveCallee(C) : nullptr;
    const api::ApiEntry *R =
        F ? E.api().find(F, api::Role::AsyncErrorCheck) : nullptr;
    if (R && R->Fam == api::Family::Nccl)
      return; // Something can detect or abort a hung communicator.
  }
  auto D = diag(Call->getBeginLoc(),
                "NCCL communicator created with blocking initialization, and "
                "nothing in this file calls ncclCommGetAsyncError or "
                "ncclCommAbort: a hung collective can never be detected or "
                "aborted, so the job waits forever; poll "
                "ncclCommGetAsyncError against a deadline while waiting and "
                "call ncclCommAbort when it passes",
                *SM);
  // Where the host would block forever: the first wait on a stream that
  // carries NCCL work (or on the whole device) after a collective.
  llvm::SmallPtrSet<const VarDecl *, 4> NcclStreams;
  SourceLocation FirstCollective;
  for (const Expr *X : callsWithRole(E, api::Role::Collective)) {
    const auto *C = dyn_cast<CallExpr>(X);
    const FunctionDecl *F = C ? E.resolveCallee(C) : nullptr;
    const api::ApiEntry *R = F ? E.api().find(F, api::Role::Collective) : nullptr;
    if (!R || R->Fam != api::Family::Nccl || R->Args.Stream < 0)
      continue;
    if (FirstCollective.isInvalid())
      FirstCollective = C->getBeginLoc();
    if (const VarDecl *V = designatedVar(callArgument(C, F, R->Args.Stream)))
      NcclStreams.insert(V);
  }
  if (FirstCollective.isInvalid())
    return;
  const Expr *Wait = nullptr;
  for (api::Role Role : {api::Role::StreamSync, api::Role::EventSync,
                         api::Role::DeviceSync, api::Role::HostWaitOnDevice})
    for (const Expr *X : callsWithRole(E, Role)) {
      if (SM->isBeforeInTranslationUnit(X->getBeginLoc(), FirstCollective))
        continue;
      if (Role == api::Role::StreamSync) {
        const auto *C = dyn_cast<CallExpr>(X);
        const FunctionDecl *F = C ? E.resolveCallee(C) : nullptr;
        const api::ApiEntry *R = F ? E.api().find(F, Role) : nullptr;
        const VarDecl *V =
            R && R->Args.Stream >= 0
                ? designatedVar(callArgument(C, F, R->Args.Stream))
                : nullptr;
        if (V && !NcclStreams.count(V))
          continue;
      }
      if (!Wait ||
          SM->isBeforeInTranslationUnit(X->getBeginLoc(), Wait->getBeginLoc()))
        Wait = X;
      break;
    }
  if (Wait)
    D.note(Wait->getBeginLoc(),
           "the host waits here for the NCCL stream; if a peer hangs, this "
           "never returns");
}

} // namespace distlint
