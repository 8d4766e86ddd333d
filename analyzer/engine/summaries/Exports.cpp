//===- Exports.cpp - A TU's function summaries for the other TUs ----------===//
#include "Exports.h"
#include "engine/Engine.h"
#include "engine/devices/HostReads.h"
#include "engine/devices/Syncs.h"
#include "engine/timeouts/Timeouts.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace distlint {

namespace {

/// Every node of type T under S, in lambdas' bodies too when IntoLambdas
/// (a lambda's calls run where it is called, or are summarized as the
/// lambda's own function).
template <typename T>
void collect(const Stmt *S, bool IntoLambdas, std::vector<const T *> &Out) {
  if (!S)
    return;
  if (const auto *N = dyn_cast<T>(S))
    Out.push_back(N);
  if (!IntoLambdas && isa<LambdaExpr>(S))
    return;
  for (const Stmt *Child : S->children())
    collect(Child, IntoLambdas, Out);
}

std::vector<const CallExpr *> callsIn(const FunctionDecl *FD) {
  std::vector<const CallExpr *> Calls;
  collect(FD->getBody(), /*IntoLambdas=*/true, Calls);
  return Calls;
}

class Exporter {
public:
  explicit Exporter(Engine &E) : E(E), SM(E.context().getSourceManager()) {}

  api::ProjectFact factAt(api::Role R, const std::string &What,
                          SourceLocation Loc) {
    api::ProjectFact F;
    F.TheRole = R;
    F.What = What;
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
    if (P.isValid()) {
      F.File = P.getFilename();
      F.Line = P.getLine();
    }
    return F;
  }

  static std::string calleeName(const CallExpr *Call) {
    if (const FunctionDecl *FD = Call->getDirectCallee())
      return api::qualifiedName(FD);
    return "a collective";
  }

  /// A sync FD performs on every call whose result nothing in FD reads
  /// (directly, or in a helper it always calls): the caller decides
  /// whether it is needed, as for the API call itself.
  std::optional<api::ProjectFact> strayableSync(const FunctionDecl *FD,
                                                int Depth = 0) {
    if (!E.functionReaches(FD, api::Role::DeviceSync) &&
        !E.functionReaches(FD, api::Role::StreamSync) &&
        !E.functionReaches(FD, api::Role::EventSync))
      return std::nullopt;
    auto Known = Syncs.find(FD);
    if (Known != Syncs.end())
      return Known->second;
    Syncs[FD] = std::nullopt; // recursion
    std::optional<api::ProjectFact> Found;
    for (const CallExpr *Call : callsIn(FD)) {
      if (E.enclosingFunction(Call) != FD)
        continue;
      SyncFact S = syncAt(E, Call);
      if ((S.Kind == SyncKind::Device || S.Kind == SyncKind::StreamOrEvent) &&
          (E.neverRuns(Call) || !E.controllingBranches(Call).empty()))
        continue;
      if (S.Kind == SyncKind::Device || S.Kind == SyncKind::StreamOrEvent) {
        if (syncedResultUse(E, Call, nullptr) != SyncedResult::Unread)
          continue;
        api::Role R = S.Kind == SyncKind::Device ? api::Role::DeviceSync
                      : E.apiRole(Call, api::Role::EventSync)
                          ? api::Role::EventSync
                          : api::Role::StreamSync;
        Found = factAt(R, S.What, Call->getExprLoc());
        break;
      }
      const FunctionDecl *Callee = E.resolveCallee(Call);
      if (S.Kind == SyncKind::None && Callee && Callee->hasBody() &&
          Depth < 4 && E.isUserCode(Callee))
        if (auto Inner = strayableSync(Callee->getDefinition(), Depth + 1)) {
          Found = Inner;
          break;
        }
    }
    return Syncs[FD] = Found;
  }

  /// The parameter of FD that Collective (in FD's body) receives the
  /// agreed result into, if it is one.
  int receivingParam(const FunctionDecl *FD, const CallExpr *Collective) {
    if (E.enclosingFunction(Collective) != FD)
      return -1;
    const FunctionDecl *Callee = Collective->getDirectCallee();
    const api::ApiEntry *Row =
        Callee ? E.api().find(Callee, api::Role::Collective) : nullptr;
    if (!Row || Row->Args.Recv < 0 ||
        static_cast<unsigned>(Row->Args.Recv) >= Collective->getNumArgs())
      return -1;
    const Expr *Arg = Collective->getArg(Row->Args.Recv)->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Arg);
        UO && UO->getOpcode() == UO_AddrOf)
      Arg = UO->getSubExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
    const auto *PD = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    return PD ? static_cast<int>(PD->getFunctionScopeIndex()) : -1;
  }

  /// Does every return of FD give the world size (a value the engine
  /// bounds by W from below and above)?
  bool returnsWorldSize(const FunctionDecl *FD) {
    if (!FD->getReturnType()->isIntegerType() || !FD->getBody() ||
        !E.functionReaches(FD, api::Role::WorldSizeSource))
      return false;
    std::vector<const ReturnStmt *> Returns;
    collect(FD->getBody(), /*IntoLambdas=*/false, Returns);
    auto IsW = [](const std::optional<WorldLinearBound> &B) {
      return B && B->PerWorld == 1 && B->Constant == 0;
    };
    for (const ReturnStmt *Ret : Returns) {
      const Expr *V = Ret->getRetValue();
      if (!V)
        return false;
      UniformityAnswer A = E.uniformity(V);
      if (!A.Uniform || !IsW(A.AtLeast) || !IsW(A.AtMost))
        return false;
    }
    return !Returns.empty();
  }

  /// The collectives FD issues, from its calls alone (no CFG: the engine
  /// may have dropped FD's, and nothing here calls FD to need it again).
  std::optional<api::ProjectFact> collectiveFact(const FunctionDecl *FD) {
    if (!E.functionReaches(FD, api::Role::Collective))
      return std::nullopt;
    std::vector<CollectiveSite> Sites;
    for (const CallExpr *Call : callsIn(FD))
      if (E.enclosingFunction(Call) == FD)
        if (auto Site = E.collectiveAt(Call);
            Site && !E.isOnSubCommunicator(Call))
          Sites.push_back(*Site);
    if (Sites.empty())
      return std::nullopt;
    uint64_t CommParams = 0;
    bool OnParams = true;
    for (const CollectiveSite &Site : Sites)
      if (!(OnParams = E.onParamCommunicators(FD, Site, CommParams)))
        break;
    const CallExpr *First = Sites.front().InnerCollective
                                ? Sites.front().InnerCollective
                                : Sites.front().Call;
    api::ProjectFact F =
        factAt(api::Role::Collective, calleeName(First), First->getBeginLoc());
    if (OnParams && llvm::popcount(CommParams) == 1)
      F.Comm = llvm::countr_zero(CommParams);
    F.Recv = receivingParam(FD, First);
    return F;
  }

  /// Can FD's summary hold a value fact: does it reach a value that differs
  /// per rank or a job's end, or read storage another function may have
  /// given the rank (a global, a member)? The summary of a function nothing
  /// here calls is computed for the export alone, so it is skipped where it
  /// must be empty.
  bool mayHaveSummaryFacts(const FunctionDecl *FD) {
    for (api::Role R :
         {api::Role::RankSource, api::Role::LocalDataSource,
          api::Role::TensorRead, api::Role::EnvRead, api::Role::FailStop,
          api::Role::HostWaitOnDevice, api::Role::Clock})
      if (E.functionReaches(FD, R))
        return true;
    std::vector<const DeclRefExpr *> Refs;
    collect(FD->getBody(), /*IntoLambdas=*/true, Refs);
    for (const DeclRefExpr *Ref : Refs)
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
          V && !V->hasLocalStorage() && !V->getType().isConstQualified() &&
          E.isUserCode(V))
        return true;
    // Its own object's data members (`return rank_;`), not method calls.
    std::vector<const MemberExpr *> Members;
    collect(FD->getBody(), /*IntoLambdas=*/true, Members);
    return llvm::any_of(Members, [](const MemberExpr *M) {
      return isa<FieldDecl>(M->getMemberDecl()) &&
             (M->isImplicitAccess() ||
              isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()));
    });
  }

  std::vector<api::ProjectFact> factsOf(const FunctionDecl *FD) {
    std::vector<api::ProjectFact> Out;
    static const FunctionSummary None;
    const FunctionSummary &S = mayHaveSummaryFacts(FD) ? E.summary(FD) : None;
    if (auto Collective = collectiveFact(FD))
      Out.push_back(*Collective);
    auto Varying = [&](const VaryOrigin &O, int Out_) {
      api::ProjectFact F =
          factAt(O.Kind == VaryKind::Rank ? api::Role::RankSource
                                          : api::Role::LocalDataSource,
                 O.What.empty() ? std::string("rank") : O.What.str(), O.Loc);
      F.Out = Out_;
      return F;
    };
    if (S.ReturnVaries)
      Out.push_back(Varying(*S.ReturnVaries, -1));
    for (const FunctionSummary::VaryingOutParam &P : S.VaryingOutParams)
      Out.push_back(Varying(P.Origin, static_cast<int>(P.Index)));
    if (!S.ReturnVaries && returnsWorldSize(FD))
      Out.push_back(factAt(api::Role::WorldSizeSource, "the world size",
                           FD->getLocation()));
    if (S.NoReturn)
      Out.push_back(factAt(api::Role::FailStop, "a call that ends the job",
                           FD->getLocation()));
    if (auto Sync = strayableSync(FD))
      Out.push_back(*Sync);
    if (auto Created = untimedOptionsCreated(E, FD))
      Out.push_back(factAt(api::Role::UntimedOptions,
                           "options without a timeout", *Created));
    if (E.functionReaches(FD, api::Role::TrainingStep))
      Out.push_back(factAt(api::Role::TrainingStep, "a training step",
                           FD->getLocation()));
    return Out;
  }

  /// Functions other TUs can call by name: external linkage, defined in
  /// the main file, not a template pattern or a lambda.
  bool exported(const FunctionDecl *FD) {
    if (!FD->isThisDeclarationADefinition() || FD->isDependentContext() ||
        FD->getTemplateInstantiationPattern())
      return false;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (MD && MD->getParent()->isLambda())
      return false;
    // An override is reached through its base wherever it is defined (an
    // implementation in an anonymous namespace, an inline one).
    bool Overrides = MD && MD->size_overridden_methods() > 0;
    if (!Overrides && (!FD->isExternallyVisible() || FD->isInlined()))
      return false;
    return SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()));
  }

  bool knownToTables(const FunctionDecl *Callee) {
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      if (Row->Fam != api::Family::Project)
        return true;
    return false;
  }

  TuExports run() {
    TuExports Out;
    std::set<std::string> Refs;
    for (const FunctionDecl *FD : E.userFunctions()) {
      // Calls of functions without a body here that no API table knows:
      // what phase 2 may resolve (from every function the engine reads,
      // so these are all the facts that can change its findings).
      for (const CallExpr *Call : callsIn(FD)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        if (!Callee || Callee->isDefined() || !E.isUserCode(Callee) ||
            knownToTables(Callee))
          continue;
        std::string Usr = api::usrOf(Callee);
        if (!Usr.empty())
          Refs.insert(std::move(Usr));
      }
      if (!exported(FD))
        continue;
      api::ProjectFunction PF;
      PF.Usr = api::usrOf(FD);
      if (PF.Usr.empty())
        continue;
      PF.Name = api::qualifiedName(FD);
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
        llvm::SmallVector<const CXXMethodDecl *, 4> Work(
            MD->overridden_methods().begin(), MD->overridden_methods().end());
        while (!Work.empty()) {
          const CXXMethodDecl *O = Work.pop_back_val();
          std::string U = api::usrOf(O);
          if (!U.empty() && !llvm::is_contained(PF.Overrides, U))
            PF.Overrides.push_back(U);
          Work.append(O->overridden_methods().begin(),
                      O->overridden_methods().end());
        }
      }
      PF.Facts = factsOf(FD);
      if (!PF.Facts.empty())
        Out.Defines.push_back(std::move(PF));
    }
    Out.References.assign(Refs.begin(), Refs.end());
    return Out;
  }

private:
  Engine &E;
  const SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, std::optional<api::ProjectFact>> Syncs;
};

} // namespace

TuExports exportSummaries(Engine &E) { return Exporter(E).run(); }

} // namespace distlint
