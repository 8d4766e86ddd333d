//===- Timeouts.cpp -------------------------------------------------------===//
#include "Timeouts.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/RoleSites.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/loops/Loops.h"
#include "engine/objects/ObjectFlow.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace clang;

namespace distlint {

namespace {
constexpr double kDayMs = 24.0 * 3600.0 * 1000.0;
constexpr int kCreationDepth = 4;

/// Options-like: the type (or what it points to) has a TimeoutKnob field.
bool hasTimeoutField(Engine &E, QualType T) {
  T = T.getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (T->isPointerType())
    RD = T->getPointeeType()->getAsCXXRecordDecl();
  if (RD && isPointerLike(T) && !T->isPointerType())
    for (const CXXMethodDecl *M : RD->methods())
      if (M->getOverloadedOperator() == OO_Arrow) {
        // A proxy returned by value (an iterator's operator->) is no pointer.
        QualType Pointee = M->getReturnType()->getPointeeType();
        RD = Pointee.isNull() ? nullptr : Pointee->getAsCXXRecordDecl();
      }
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

bool isKnobField(Engine &E, const FieldDecl *F) {
  return E.api().findMember(F, api::Role::TimeoutKnob) != nullptr;
}

/// Does a TimeoutKnob row of Callee have its timeout argument given?
bool knobGiven(Engine &E, const FunctionDecl *Callee,
               llvm::function_ref<bool(int)> ArgAt) {
  if (!Callee)
    return false;
  for (const api::ApiEntry *Row : E.api().lookup(Callee))
    if (Row->TheRole == api::Role::TimeoutKnob && Row->Args.Timeout >= 0 &&
        ArgAt(Row->Args.Timeout))
      return true;
  return false;
}

/// The return statements of a user function's body (not of its lambdas).
void returnsOf(const Stmt *S, llvm::SmallVectorImpl<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *Ret = dyn_cast<ReturnStmt>(S))
    Out.push_back(Ret);
  for (const Stmt *Child : S->children())
    returnsOf(Child, Out);
}

const FunctionDecl *userBody(Engine &E, const FunctionDecl *FD) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  return Def && Def->getBody() && isAnalyzedDecl(E, Def) ? Def : nullptr;
}

bool creationSets(Engine &E, const Expr *X, int Depth);

FieldQuery knobQuery(Engine &E, int Depth,
                     std::function<bool(const Expr *)> &Creates,
                     std::function<bool(const FieldDecl *)> &IsField) {
  IsField = [&E](const FieldDecl *F) { return isKnobField(E, F); };
  Creates = [&E, Depth](const Expr *Y) {
    return creationSets(E, Y, Depth + 1);
  };
  FieldQuery Q;
  Q.IsField = IsField;
  Q.CreationSets = Creates;
  return Q;
}

/// The first of a helper's Returns whose options miss the timeout on some
/// path, or null.
const ReturnStmt *untimedReturn(Engine &E,
                                llvm::ArrayRef<const ReturnStmt *> Returns,
                                int Depth) {
  std::function<bool(const Expr *)> Creates;
  std::function<bool(const FieldDecl *)> IsField;
  FieldQuery Q = knobQuery(E, Depth, Creates, IsField);
  for (const ReturnStmt *Ret : Returns) {
    const Expr *RV = Ret->getRetValue();
    const VarDecl *V = RV ? designatedVar(RV) : nullptr;
    bool Sets = V && V->hasLocalStorage()
                    ? fieldSetOnEveryPath(E, V, Ret, Q) != Tri::No
                    : creationSets(E, RV, Depth + 1);
    if (!Sets)
      return Ret;
  }
  return nullptr;
}

bool creationSets(Engine &E, const Expr *X, int Depth) {
  if (!X || Depth > kCreationDepth)
    return false;
  const Expr *S = stripValue(X);
  std::function<bool(const Expr *)> Creates;
  std::function<bool(const FieldDecl *)> IsField;
  FieldQuery Q = knobQuery(E, Depth, Creates, IsField);
  if (const VarDecl *V = designatedVar(S)) {
    if (V->hasLocalStorage() || isa<ParmVarDecl>(V))
      return fieldSetOnEveryPath(E, V, X, Q) != Tri::No;
    return true; // A global: set elsewhere.
  }
  if (auto C = constructionAt(E, S)) {
    if (knobGiven(E, C->Ctor, [&](int I) { return C->hasArg(I); }))
      return true;
    // Options built without a timeout argument keep the default.
    if (hasTimeoutField(E, E.context().getRecordType(C->Ctor->getParent())))
      return false;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = E.resolveCallee(Call);
    if (knobGiven(E, Callee, [&](int I) {
          return callArgument(Call, Callee, I) != nullptr;
        }))
      return true;
    // A user helper returning options: every return must set it.
    if (const FunctionDecl *Def = userBody(E, Callee)) {
      llvm::SmallVector<const ReturnStmt *, 4> Returns;
      returnsOf(Def->getBody(), Returns);
      return !Returns.empty() && !untimedReturn(E, Returns, Depth);
    }
    // One another TU defines, whose options miss it on some path.
    if (E.apiRole(Call, api::Role::UntimedOptions))
      return false;
    // A library factory of options without a timeout argument
    // (ProcessGroupNCCL::Options::create(bool)) leaves the default; other
    // code we cannot see is assumed to know what it does.
    if (Callee && !isAnalyzedDecl(E, Callee))
      return !hasTimeoutField(E, Call->getType());
    return true;
  }
  if (const auto *Init = dyn_cast<InitListExpr>(S)) {
    if (const CXXRecordDecl *RD = Init->getType()->getAsCXXRecordDecl()) {
      unsigned I = 0;
      for (const FieldDecl *F : RD->fields()) {
        if (I < Init->getNumInits() && isKnobField(E, F) &&
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

/// Is X (through casts, temporaries and library factories such as
/// make_intrusive) the value of a return statement?
bool isReturned(Engine &E, const Expr *X) {
  DynTypedNode Node = DynTypedNode::create(*X);
  for (int Depth = 0; Depth < 12; ++Depth) {
    auto Parents = E.context().getParents(Node);
    if (Parents.empty())
      return false;
    Node = Parents[0];
    if (Node.get<ReturnStmt>())
      return true;
    const auto *P = Node.get<Expr>();
    if (!P || (isa<CallExpr>(P) && !isa<CXXOperatorCallExpr>(P)))
      return false;
  }
  return false;
}
} // namespace

std::optional<std::string> unusableTimeout(Engine &E, const Expr *Value) {
  if (!Value)
    return std::nullopt;
  if (const api::ApiEntry *Row = timeoutConstantIn(E, Value)) {
    if (Row->Facts.Timeout == api::TimeoutValue::Infinite)
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

LibraryDefault libraryDefaultTimeout(Engine &E, const CXXRecordDecl *Class) {
  LibraryDefault D;
  ASTContext &Ctx = E.context();
  for (const api::ApiEntry *Row : E.api().byRole(api::Role::ProcessGroupType))
    if (Row->Facts.SinceMajor > D.HeadersMajor)
      if (const auto *RD =
              dyn_cast_or_null<CXXRecordDecl>(lookupQualified(Ctx, Row->Name));
          RD && RD->hasDefinition())
        D.HeadersMajor = Row->Facts.SinceMajor;
  const api::ApiEntry *Type =
      E.api().findType(Class, api::Role::ProcessGroupType);
  api::PgBackend Backend =
      Type ? Type->Facts.Backend : api::PgBackend::Unspecified;
  auto Defaults = E.api().byRole(api::Role::TimeoutConstant);
  for (api::PgBackend Wanted : {Backend, api::PgBackend::Unspecified})
    for (const api::ApiEntry *Row : Defaults) {
      if (Row->Facts.Timeout != api::TimeoutValue::Default ||
          Row->Facts.StoreTimeout || Row->Facts.Backend != Wanted)
        continue;
      const auto *V =
          dyn_cast_or_null<VarDecl>(lookupQualified(Ctx, Row->Name));
      if (!V || !V->getInit())
        continue;
      D.Constant = Row->Name;
      D.Ms = evaluateDurationMs(E, V->getInit());
      return D;
    }
  return D;
}

bool creationSetsTimeout(Engine &E, const Expr *X) {
  return creationSets(E, X, 0);
}

std::optional<SourceLocation> untimedOptionsCreated(Engine &E,
                                                    const FunctionDecl *FD) {
  const FunctionDecl *Def = userBody(E, FD);
  if (!Def || !hasTimeoutField(E, Def->getReturnType()))
    return std::nullopt;
  llvm::SmallVector<const ReturnStmt *, 4> Returns;
  returnsOf(Def->getBody(), Returns);
  const ReturnStmt *Ret = untimedReturn(E, Returns, 0);
  if (!Ret || !Ret->getRetValue())
    return std::nullopt;
  const VarDecl *V = designatedVar(Ret->getRetValue());
  return V ? V->getLocation() : Ret->getRetValue()->getBeginLoc();
}

std::optional<OptionsOrigin> optionsOrigin(Engine &E, const Expr *Options) {
  const VarDecl *V = Options ? designatedVar(Options) : nullptr;
  if (!V)
    return std::nullopt;
  OptionsOrigin O;
  O.Created = V->getLocation();
  // Through helpers that return the options they create.
  for (int Depth = 0; Depth < kCreationDepth && V && V->getInit(); ++Depth) {
    const auto *Call = dyn_cast<CallExpr>(stripValue(V->getInit()));
    const FunctionDecl *Def =
        Call ? userBody(E, E.resolveCallee(Call)) : nullptr;
    if (!Def) {
      if (Call && E.apiRole(Call, api::Role::UntimedOptions))
        O.MadeElsewhere = Call;
      break;
    }
    llvm::SmallVector<const ReturnStmt *, 4> Returns;
    returnsOf(Def->getBody(), Returns);
    if (Returns.size() != 1 || !Returns[0]->getRetValue())
      break;
    O.ReturnedBy.push_back(Call);
    const Expr *RV = Returns[0]->getRetValue();
    V = designatedVar(RV);
    O.Created = V ? V->getLocation() : RV->getBeginLoc();
  }
  return O;
}

llvm::SmallVector<const CallExpr *, 2> factoryCalls(Engine &E, const Expr *Site,
                                                    const VarDecl *Created) {
  llvm::SmallVector<const CallExpr *, 2> Out;
  const Expr *Value = Site;
  for (int Depth = 0; Value && Depth < kCreationDepth; ++Depth) {
    const FunctionDecl *FD = E.enclosingFunction(Value);
    if (!FD || !userBody(E, FD))
      break;
    bool Escapes =
        isReturned(E, Value) || (Created && isa<ParmVarDecl>(Created));
    if (!Escapes) {
      // Built into a local that the function returns.
      const VarDecl *Local = Created;
      DynTypedNode Node = DynTypedNode::create(*Value);
      for (int Up = 0; !Local && Up < 6; ++Up) {
        auto Parents = E.context().getParents(Node);
        if (Parents.empty())
          break;
        Node = Parents[0];
        Local = Node.get<VarDecl>();
        if (!Local && !Node.get<Expr>())
          break;
      }
      llvm::SmallVector<const ReturnStmt *, 4> Returns;
      returnsOf(FD->getBody(), Returns);
      for (const ReturnStmt *Ret : Returns)
        if (Local && Ret->getRetValue() &&
            designatedVar(Ret->getRetValue()) == Local)
          Escapes = true;
    }
    if (!Escapes)
      break;
    auto Sites = callSitesOf(E, FD);
    if (Sites.empty())
      break;
    Out.append(Sites.begin(), Sites.end());
    Value = Sites.size() == 1 ? Sites.front() : nullptr;
    Created = nullptr;
  }
  return Out;
}

bool isStoreTimeout(Engine &E, const NamedDecl *Knob) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Knob))
    return E.api().findType(MD->getParent(), api::Role::StoreType);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Knob))
    return E.api().findType(Ctor->getParent(), api::Role::StoreType);
  const auto *F = dyn_cast<FieldDecl>(Knob);
  if (!F)
    return false;
  if (E.api().findType(dyn_cast<CXXRecordDecl>(F->getParent()),
                       api::Role::StoreType))
    return true;
  // TCPStoreOptions is not a store class; its knob row says so.
  const api::ApiEntry *Row = E.api().findMember(F, api::Role::TimeoutKnob);
  return Row && Row->Facts.StoreTimeout;
}

std::optional<EnvSetting> envSettingAt(Engine &E, const CallExpr *Call,
                                       const FunctionDecl *Callee) {
  const api::ApiEntry *Row =
      Callee ? E.api().find(Callee, api::Role::EnvWrite) : nullptr;
  const Expr *NameArg =
      Row ? callArgument(Call, Callee, Row->Args.Count) : nullptr;
  if (!NameArg)
    return std::nullopt;
  std::optional<std::string> Name = evaluateString(E, NameArg);
  std::optional<std::string> Value;
  if (Row->Args.Value >= 0) {
    Value = evaluateString(E, callArgument(Call, Callee, Row->Args.Value));
  } else if (Name) {
    // putenv("NAME=VALUE").
    size_t Eq = Name->find('=');
    if (Eq == std::string::npos)
      return std::nullopt;
    Value = Name->substr(Eq + 1);
    Name = Name->substr(0, Eq);
  }
  const api::ApiEntry *Knob =
      Name ? api::envVariable(*Name, api::Role::TimeoutKnob) : nullptr;
  // The name through a library constant (c10d::NCCL_ASYNC_ERROR_HANDLING).
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
  if (!Value || !Name)
    return std::nullopt;
  EnvSetting Set{*Name, *Value, false};
  // Knob env rows carry the value that disables the abort.
  int Number = 0;
  Set.DisablesAbort =
      Knob && Knob->Facts.DisablingValue >= 0 &&
      !llvm::StringRef(*Value).trim().getAsInteger(10, Number) &&
      Number == Knob->Facts.DisablingValue;
  return Set;
}

bool ncclAbortPath(Engine &E) {
  for (const Expr *Check : callsWithRole(E, api::Role::AsyncErrorCheck)) {
    const auto *C = dyn_cast<CallExpr>(Check);
    const FunctionDecl *F = C ? E.resolveCallee(C) : nullptr;
    const api::ApiEntry *R =
        F ? E.api().find(F, api::Role::AsyncErrorCheck) : nullptr;
    if (R && R->Fam == api::Family::Nccl)
      return true;
  }
  return false;
}

const Expr *firstNcclHostWait(Engine &E) {
  const SourceManager &SM = E.context().getSourceManager();
  llvm::SmallPtrSet<const VarDecl *, 4> NcclStreams;
  SourceLocation FirstCollective;
  for (const Expr *X : callsWithRole(E, api::Role::Collective)) {
    const auto *C = dyn_cast<CallExpr>(X);
    const FunctionDecl *F = C ? E.resolveCallee(C) : nullptr;
    const api::ApiEntry *R =
        F ? E.api().find(F, api::Role::Collective) : nullptr;
    if (!R || R->Fam != api::Family::Nccl || R->Args.Stream < 0)
      continue;
    if (FirstCollective.isInvalid())
      FirstCollective = C->getBeginLoc();
    if (const VarDecl *V = designatedVar(callArgument(C, F, R->Args.Stream)))
      NcclStreams.insert(V);
  }
  if (FirstCollective.isInvalid())
    return nullptr;
  const Expr *Wait = nullptr;
  for (api::Role Role : {api::Role::StreamSync, api::Role::EventSync,
                         api::Role::DeviceSync, api::Role::HostWaitOnDevice})
    for (const Expr *X : callsWithRole(E, Role)) {
      if (SM.isBeforeInTranslationUnit(X->getBeginLoc(), FirstCollective))
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
          SM.isBeforeInTranslationUnit(X->getBeginLoc(), Wait->getBeginLoc()))
        Wait = X;
      break;
    }
  return Wait;
}

} // namespace distlint
