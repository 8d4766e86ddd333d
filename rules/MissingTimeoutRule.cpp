//===- MissingTimeoutRule.cpp ---------------------------------------------===//
//
// Matchers: calls, constructions, new-expressions, assignments and init
// lists. Engine questions (engine/timeouts/Timeouts.h): is a timeout value
// unusable, do the options of a process group get their timeout on every
// path (following them back through helpers), which factory calls hand out
// the group, can a hung NCCL communicator be detected or aborted.
//
//===----------------------------------------------------------------------===//
#include "MissingTimeoutRule.h"
#include "api/ProjectFacts.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/objects/ObjectFlow.h"
#include "engine/timeouts/Timeouts.h"
#include "fixes/TimeoutFixes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

namespace {
const char *const BadTimeoutMsg =
    "timeout set to %0: %1 practically forever and the job never fails; use "
    "a finite timeout (minutes) so the hang turns into an error";
// A finite default is advice, not a defect: a note unless configured.
const char *const DefaultTimeoutMsg =
    "'%0' is created %1, so the library default applies (%2): a rank that "
    "hangs or dies leaves the others blocked in their collectives for %3 "
    "before anything fails; set options->timeout to a bound that fits one "
    "step";

std::string durationText(double Ms) {
  auto Plural = [](long long N, const char *Unit) {
    return std::to_string(N) + " " + Unit + (N == 1 ? "" : "s");
  };
  long long Whole = static_cast<long long>(Ms);
  if (Whole % 3600000 == 0)
    return Plural(Whole / 3600000, "hour");
  if (Whole % 60000 == 0)
    return Plural(Whole / 60000, "minute");
  return Plural(Whole / 1000, "second");
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
  // Code that never runs (after GTEST_SKIP()) creates nothing.
  if (!Node || !isAnalyzedStmt(E, Node) || E.neverRuns(Node))
    return;
  if (const FunctionDecl *FD = E.enclosingFunction(Node);
      FD && FD->isDependentContext())
    return;
  if (const auto *Call = dyn_cast<CallExpr>(Node)) {
    if (isa<CXXOperatorCallExpr>(Call))
      checkFieldAssignment(Call);
    const FunctionDecl *Callee = E.resolveCallee(Call);
    bool Knob = checkKnobArguments(Call, Callee);
    checkEnvWrite(Call, Callee);
    checkNcclInit(Call, Callee);
    // Factories that construct a process group (make_intrusive, make_shared).
    if (Callee && !isAnalyzedDecl(E, Callee) && isPointerLike(Call->getType()))
      if (auto C = constructionAt(E, Call)) {
        checkProcessGroup(*C);
        if (!Knob)
          checkKnobArguments(*C);
      }
  } else if (const auto *New = dyn_cast<CXXNewExpr>(Node)) {
    if (auto C = constructionAt(E, New))
      checkProcessGroup(*C);
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(Node)) {
    // `new T(...)` is handled at the new-expression.
    bool UnderNew = false;
    for (const DynTypedNode &P : E.context().getParents(*CE))
      UnderNew |= P.get<CXXNewExpr>() != nullptr;
    if (auto C = UnderNew ? std::nullopt : constructionAt(E, CE))
      checkProcessGroup(*C);
    checkKnobArguments(CE);
  } else if (const auto *B = dyn_cast<BinaryOperator>(Node)) {
    checkFieldAssignment(B);
  } else if (const auto *Init = dyn_cast<InitListExpr>(Node)) {
    checkInitList(Init);
  }
}

void MissingTimeoutRule::reportIfUnusable(const Expr *Value, bool IsStore) {
  auto Why = unusableTimeout(engine(), Value);
  if (!Why)
    return;
  auto D = diag(Value->getBeginLoc(), BadTimeoutMsg, *SM);
  D << *Why
    << (IsStore ? "a store wait for a rank that died or hangs then blocks"
                : "a hung collective then blocks every rank");
  D.fix(fixes::replaceTimeoutValue(engine(), Value, fixOptions()));
}

void MissingTimeoutRule::checkProcessGroup(const Construction &C) {
  Engine &E = engine();
  const api::ApiEntry *Row = C.Ctor ? E.api().find(C.Ctor, api::Role::CommInit)
                                    : nullptr;
  const CXXRecordDecl *Class = C.Ctor ? C.Ctor->getParent() : nullptr;
  if (!Row || Row->Args.Options < 0 ||
      !E.api().findType(Class, api::Role::ProcessGroupType))
    return;
  const Expr *Options = C.arg(Row->Args.Options);
  if (Options && creationSetsTimeout(E, Options))
    return;
  LibraryDefault Default = libraryDefaultTimeout(E, Class);
  std::string Headers =
      "LibTorch " + std::to_string(Default.HeadersMajor) + ".x headers";
  std::string Value = Default.Ms ? durationText(*Default.Ms) : "";
  auto D = diag(C.Site->getBeginLoc(), DefaultTimeoutMsg, *SM);
  D.severity(Severity::Note);
  D << Class->getNameAsString()
    << (Options ? "with options whose 'timeout' is not set on every "
                  "path to this point"
                : "without options: its timeout is never set")
    << (Default.Ms ? Value + ", " + Default.Constant + " in these " + Headers
                   : "of these " + Headers)
    << (Default.Ms ? Value : "the library's default timeout");
  if (auto Origin = optionsOrigin(E, Options)) {
    D.note(Origin->Created, "options created here");
    for (const CallExpr *Call : Origin->ReturnedBy)
      D.note(Call->getBeginLoc(), "options returned by this call");
    if (const CallExpr *Call = Origin->MadeElsewhere) {
      D.note(Call->getBeginLoc(), "options returned by this call");
      if (const api::ProjectFact *PF =
              E.api().projectFact(E.apiRole(Call, api::Role::UntimedOptions)))
        D.noteIn(PF->File, PF->Line,
                 "options created here (in another file of the project), "
                 "without a timeout on some path");
    }
  }
  for (const CallExpr *Call : factoryCalls(E, C.Site))
    D.note(Call->getBeginLoc(), "process group made by this call");
  if (Options)
    D.fix(fixes::setOptionsTimeout(E, C.Site, designatedVar(Options),
                                   fixOptions()));
}

bool MissingTimeoutRule::checkKnobArguments(const CallExpr *Call,
                                            const FunctionDecl *Callee) {
  if (!Callee)
    return false;
  for (const api::ApiEntry *Row : engine().api().lookup(Callee))
    if (Row->TheRole == api::Role::TimeoutKnob && Row->Args.Timeout >= 0) {
      reportIfUnusable(callArgument(Call, Callee, Row->Args.Timeout),
                       isStoreTimeout(engine(), Callee));
      return true;
    }
  return false;
}

void MissingTimeoutRule::checkKnobArguments(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  for (const api::ApiEntry *Row : engine().api().lookup(Ctor))
    if (Row->TheRole == api::Role::TimeoutKnob && Row->Args.Timeout >= 0) {
      const Expr *Arg = unsigned(Row->Args.Timeout) < CE->getNumArgs()
                            ? CE->getArg(Row->Args.Timeout)
                            : nullptr;
      if (Arg && !isa<CXXDefaultArgExpr>(Arg))
        reportIfUnusable(Arg, isStoreTimeout(engine(), Ctor));
      return;
    }
}

void MissingTimeoutRule::checkKnobArguments(const Construction &C) {
  if (!C.Ctor)
    return;
  for (const api::ApiEntry *Row : engine().api().lookup(C.Ctor))
    if (Row->TheRole == api::Role::TimeoutKnob && Row->Args.Timeout >= 0) {
      reportIfUnusable(C.arg(Row->Args.Timeout),
                       isStoreTimeout(engine(), C.Ctor));
      return;
    }
}

void MissingTimeoutRule::checkFieldAssignment(const Stmt *S) {
  const FieldDecl *F;
  const Expr *Obj, *Value;
  if (isFieldAssignment(S, F, Obj, Value) &&
      engine().api().findMember(F, api::Role::TimeoutKnob))
    reportIfUnusable(Value, isStoreTimeout(engine(), F));
}

void MissingTimeoutRule::checkInitList(const InitListExpr *Init) {
  const CXXRecordDecl *RD =
      Init->isSemanticForm() ? Init->getType()->getAsCXXRecordDecl() : nullptr;
  if (!RD)
    return;
  unsigned I = 0;
  for (const FieldDecl *F : RD->fields()) {
    if (I >= Init->getNumInits())
      break;
    const Expr *Value = Init->getInit(I++);
    if (engine().api().findMember(F, api::Role::TimeoutKnob) &&
        !isa<ImplicitValueInitExpr, CXXDefaultInitExpr>(Value))
      reportIfUnusable(Value, isStoreTimeout(engine(), F));
  }
}

void MissingTimeoutRule::checkEnvWrite(const CallExpr *Call,
                                       const FunctionDecl *Callee) {
  std::optional<EnvSetting> Set = envSettingAt(engine(), Call, Callee);
  if (!Set || !Set->DisablesAbort)
    return;
  diag(Call->getBeginLoc(),
       "setting %0=%1 switches off the NCCL watchdog's abort: a hung "
       "collective is then never torn down and every rank blocks forever "
       "instead of failing after the process group timeout; leave it "
       "enabled",
       *SM)
      << Set->Name << Set->Value;
}

void MissingTimeoutRule::checkNcclInit(const CallExpr *Call,
                                       const FunctionDecl *Callee) {
  Engine &E = engine();
  const api::ApiEntry *Row =
      Callee ? E.api().find(Callee, api::Role::CommInit) : nullptr;
  if (!Row || Row->Fam != api::Family::Nccl || ncclAbortPath(E))
    return;
  auto D = diag(Call->getBeginLoc(),
                "NCCL communicator created with blocking initialization, and "
                "nothing in this file calls ncclCommGetAsyncError or "
                "ncclCommAbort: a hung collective can never be detected or "
                "aborted, so the job waits forever; poll "
                "ncclCommGetAsyncError against a deadline while waiting and "
                "call ncclCommAbort when it passes",
                *SM);
  const VarDecl *Comm = designatedVar(callArgument(Call, Callee, Row->Args.Out));
  for (const CallExpr *Factory : factoryCalls(E, Call, Comm))
    D.note(Factory->getBeginLoc(), "communicator made by this call");
  if (const Expr *Wait = firstNcclHostWait(E))
    D.note(Wait->getBeginLoc(), "the host waits here for the NCCL stream; if "
                                "a peer hangs, this never returns");
}

} // namespace distlint
