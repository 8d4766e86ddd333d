//===- RankClasses.cpp - What each class of ranks issues ------------------===//
#include "engine/collectives/RankClasses.h"
#include "engine/collectives/RankConditions.h"

#include "engine/EngineInternals.h"
#include "engine/Values.h"
#include "engine/collectives/SequenceBuilder.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace distlint {
namespace collectives {

/// Builds the class trees of one function and compares them.
class RankClassComparer {
public:
  explicit RankClassComparer(Engine &E) : E(E) {}

  ClassComparison run(const FunctionDecl *FD);
  /// A scoped guard's constructor and destructor are one unit: its
  /// lifetime. For a constructor or destructor FD of a class whose one
  /// user-written constructor and destructor both have bodies, and whose
  /// every construction in user code is a local variable with nothing
  /// issued while it lives, the constructor's tree followed by the
  /// destructor's; null otherwise.
  NodeRef guardLifetime(const FunctionDecl *FD, CalleeTrees &Callees);
  static std::map<const FunctionDecl *, std::unique_ptr<ClassComparison>> &
  cache(Engine &E) {
    return E.P->RankClassResults;
  }

private:
  Engine &E;
  /// Condition of each branch met in the tree (nullopt: not readable).
  llvm::DenseMap<const Stmt *, std::optional<CondExpr>> Conds;
  /// The atom each branch tests (testedAtom), where it reads named values.
  llvm::DenseMap<const Stmt *, CondExpr> Atoms;
  /// Two-way choices that a class may name by their atom instead of their
  /// statement, and the branches some class could not (Unnamed) or could
  /// (Named) name that way.
  llvm::SmallPtrSet<const Node *, 8> Nameable;
  llvm::SmallPtrSet<const Stmt *, 8> Named, Unnamed;
  /// Ranks some atom's names are valid on alone (CondExpr::NamedOn).
  std::set<int64_t> NamingRanks;
  /// Collective tokens whose count or root argument holds a named value
  /// (the leaf for each; Kind::Unknown where not named).
  struct ArgNames {
    CondExpr Count, Root;
  };
  llvm::DenseMap<const Node *, ArgNames> TokenArgs;
  void nameArguments(const Node &N);
  /// Choice nodes whose condition may be decided, in the order first met.
  std::vector<const Node *> Choices;
  llvm::DenseMap<const Node *, unsigned> ChoiceIndex;

  const std::optional<CondExpr> &conditionAt(const Stmt *Term);
  void collect(const NodeRef &N, llvm::SmallPtrSetImpl<const Node *> &Seen);
  /// The option class C takes at choice N; -1: undecided; for loops 0 / 1
  /// mean no more iterations / undecided body.
  int decide(const Node &N, const RankClass &C);
  NodeRef resolve(const NodeRef &N, const std::vector<int> &Decisions,
                  llvm::DenseMap<const Node *, NodeRef> &Memo);
  /// The class whose tree resolve() builds.
  const RankClass *Class = nullptr;
};

const std::optional<CondExpr> &
RankClassComparer::conditionAt(const Stmt *Term) {
  auto [It, New] = Conds.try_emplace(Term);
  if (!New)
    return It->second;
  const Expr *Cond = conditionOf(Term);
  const FunctionDecl *FD = Cond ? E.enclosingFunction(Term) : nullptr;
  ResidentResult R = FD ? E.P->resident(FD) : ResidentResult();
  if (!R)
    return It->second;
  // Looked up in the body resident now: an earlier one of FD may have been
  // dropped (and its blocks freed) while other functions were asked about.
  const CFGBlock *B = nullptr;
  for (const CFGBlock *Block : R.facts().reversePostOrder())
    if (Block->getTerminatorStmt() == Term) {
      B = Block;
      break;
    }
  if (!B)
    return It->second;
  UniformityAnalysis U(E, FD, *R);
  VarState S = U.stateBefore(B, Term);
  CondExpr X = buildCondition(E, U, S, Cond);
  CondExpr Atom = buildCondition(E, U, S, testedAtom(Term));
  std::function<bool(const CondExpr &)> HasName = [&](const CondExpr &N) {
    if (N.K == CondExpr::Kind::Named && N.NamedOn >= 0)
      NamingRanks.insert(N.NamedOn);
    bool Kids = false;
    for (const CondExpr &K : N.Kids)
      Kids = HasName(K) || Kids;
    return N.K == CondExpr::Kind::Named || Kids;
  };
  if (HasName(Atom))
    Atoms[Term] = std::move(Atom);
  // The map may have grown while the state was replayed: look up again.
  return Conds[Term] = std::move(X);
}

void RankClassComparer::nameArguments(const Node &N) {
  const Token &T = N.Tok;
  if (!T.Call || !T.Op || (T.Count.known() && T.Root.known()))
    return;
  const FunctionDecl *FD = E.enclosingFunction(T.Call);
  ResidentResult R = FD ? E.P->resident(FD) : ResidentResult();
  if (!R)
    return;
  const CFGBlock *B = R.facts().blockOf(T.Call);
  if (!B)
    return;
  auto ArgAt = [&](int I) -> const Expr * {
    return I >= 0 && I < (int)T.Call->getNumArgs() ? T.Call->getArg(I)
                                                   : nullptr;
  };
  const Expr *Count = T.Count.known() ? nullptr : ArgAt(T.Op->Args.Count);
  const Expr *Root = T.Root.known() ? nullptr : ArgAt(T.Op->Args.Root);
  if (!Count && !Root)
    return;
  UniformityAnalysis U(E, FD, *R);
  VarState S = U.stateBefore(B, T.Call);
  ArgNames Names;
  auto Leaf = [&](const Expr *X) {
    CondExpr L = X ? buildCondition(E, U, S, X) : CondExpr();
    if (L.K != CondExpr::Kind::Named)
      return CondExpr();
    if (L.NamedOn >= 0)
      NamingRanks.insert(L.NamedOn);
    return L;
  };
  Names.Count = Leaf(Count);
  Names.Root = Leaf(Root);
  if (Names.Count.K == CondExpr::Kind::Named ||
      Names.Root.K == CondExpr::Kind::Named)
    TokenArgs[&N] = std::move(Names);
}

void RankClassComparer::collect(const NodeRef &N,
                                llvm::SmallPtrSetImpl<const Node *> &Seen) {
  if (!N || !Seen.insert(N.get()).second)
    return;
  if ((N->Kind == NodeKind::Alt || N->Kind == NodeKind::Loop) &&
      N->Source.Term) {
    // Rank-dependent choices, and uniform ones that end the job on one
    // side (a world-size check): others are the same on every class.
    bool Wanted = !N->Key.Uniform;
    if (N->Key.Uniform && N->Kind == NodeKind::Alt)
      Wanted = llvm::any_of(N->Kids, mayFailStop);
    // A branch of a helper on a parameter every call gives the rank: the
    // helper's own data-flow sees a parameter, the classes see the rank.
    const std::optional<CondExpr> &X = conditionAt(N->Source.Term);
    if (!Wanted && X)
      Wanted = X->mentionsRank();
    if (Wanted && X) {
      ChoiceIndex[N.get()] = Choices.size();
      Choices.push_back(N.get());
    }
  }
  if (N->Kind == NodeKind::Token && N->Tok.Kind == TokenKind::Collective)
    nameArguments(*N);
  // A two-way branch on a value every rank holds alike: classes that
  // read it by the same name make the same choice.
  if (N->Kind == NodeKind::Alt && N->Source.Term && N->Kids.size() == 2 &&
      N->Source.Succ.size() == 2 && N->Source.Succ[0] == 0 &&
      N->Source.Succ[1] == 1 && conditionAt(N->Source.Term) &&
      Atoms.count(N->Source.Term))
    Nameable.insert(N.get());
  for (const NodeRef &K : N->Kids)
    collect(K, Seen);
}

int RankClassComparer::decide(const Node &N, const RankClass &C) {
  const std::optional<CondExpr> &X = Conds.lookup(N.Source.Term);
  if (!X)
    return -1;
  auto V = evaluate(*X, C);
  if (!V)
    return -1;
  const ChoiceSource &Src = N.Source;
  unsigned Succ = 0;
  if (isa<SwitchStmt>(Src.Term)) {
    // The case whose value matches, else the default (or past the switch:
    // the last successor).
    std::optional<unsigned> Default;
    for (unsigned I = 0; I < Src.Succ.size(); ++I) {
      const Stmt *L = I < Src.Label.size() ? Src.Label[I] : nullptr;
      if (const auto *CS = dyn_cast_or_null<CaseStmt>(L)) {
        auto Lo = evaluateInt(E, CS->getLHS());
        auto Hi = CS->getRHS() ? evaluateInt(E, CS->getRHS()) : Lo;
        if (!Lo || !Hi)
          return -1;
        if (*V >= Lo->getExtValue() && *V <= Hi->getExtValue())
          return I;
      } else if (isa_and_nonnull<DefaultStmt>(L) ||
                 Src.Succ[I] + 1 == Src.NumSuccs) {
        Default = I;
      }
    }
    return Default ? int(*Default) : -1;
  }
  Succ = *V ? 0 : 1;
  if (N.Kind == NodeKind::Loop)
    return Succ == 1 ? 0 : -1; // Decided only when it never runs.
  for (unsigned I = 0; I < Src.Succ.size(); ++I)
    if (Src.Succ[I] == Succ)
      return I;
  return -1;
}

NodeRef
RankClassComparer::resolve(const NodeRef &N, const std::vector<int> &Decisions,
                           llvm::DenseMap<const Node *, NodeRef> &Memo) {
  if (N && N->Kind == NodeKind::Token) {
    // The class's names of its count and root arguments.
    auto Args = TokenArgs.find(N.get());
    if (Args == TokenArgs.end())
      return N;
    Token T = N->Tok;
    auto Rename = [&](const CondExpr &L, ArgKey &K) {
      if (L.K == CondExpr::Kind::Named &&
          (L.NamedOn < 0 || L.NamedOn == Class->Rank))
        K = ArgKey::named(L.Name);
    };
    Rename(Args->second.Count, T.Count);
    Rename(Args->second.Root, T.Root);
    return Node::token(std::move(T));
  }
  if (!N || N->Kids.empty())
    return N;
  auto Known = Memo.find(N.get());
  if (Known != Memo.end())
    return Known->second;
  NodeRef Out = N;
  auto Idx = ChoiceIndex.find(N.get());
  int Decision = Idx == ChoiceIndex.end() ? -1 : Decisions[Idx->second];
  std::optional<AtomName> Name;
  if (N->Kind == NodeKind::Alt && Decision >= 0) {
    Out = resolve(N->Kids[Decision], Decisions, Memo);
  } else if (N->Kind == NodeKind::Alt && Nameable.count(N.get()) &&
             (Name = atomName(Atoms.find(N->Source.Term)->second, *Class))) {
    NodeRef Yes = resolve(N->Kids[0], Decisions, Memo);
    NodeRef No = resolve(N->Kids[1], Decisions, Memo);
    Named.insert(N->Source.Term);
    ChoiceKey Key{Name->Id, /*Uniform=*/true};
    Key.Negated = Name->Flipped;
    Key.Subject = Name->Subject;
    Out = Node::alt(Key, {Yes, No}, N->Source);
  } else if (N->Kind == NodeKind::Loop && Decision == 0) {
    Out = Node::empty();
  } else {
    if (N->Kind == NodeKind::Alt && !N->Key.Uniform && N->Source.Term)
      Unnamed.insert(N->Source.Term);
    std::vector<NodeRef> Kids;
    bool Changed = false;
    for (const NodeRef &K : N->Kids) {
      Kids.push_back(resolve(K, Decisions, Memo));
      Changed = Changed || Kids.back() != K;
    }
    if (Changed) {
      switch (N->Kind) {
      case NodeKind::Seq:
        Out = Node::seq(std::move(Kids));
        break;
      case NodeKind::Call:
        Out = Node::call(N->Site, Kids.front());
        break;
      case NodeKind::Alt:
        Out = Node::alt(N->Key, std::move(Kids), N->Source);
        break;
      case NodeKind::Loop:
        Out = Node::loop(N->Key, Kids.front(), N->Source);
        break;
      default:
        break;
      }
    }
  }
  Memo[N.get()] = Out;
  return Out;
}

namespace {
/// The one user-written constructor (not a copy or move) of RD with a
/// body, if there is exactly one.
const CXXConstructorDecl *soleConstructor(const CXXRecordDecl *RD) {
  const CXXConstructorDecl *Found = nullptr;
  for (const CXXConstructorDecl *C : RD->ctors()) {
    if (C->isCopyOrMoveConstructor() || !C->isUserProvided())
      continue;
    const FunctionDecl *Def = C->getDefinition();
    if (!Def || !Def->hasBody() || Found)
      return nullptr;
    Found = cast<CXXConstructorDecl>(Def);
  }
  return Found;
}
} // namespace

NodeRef RankClassComparer::guardLifetime(const FunctionDecl *FD,
                                         CalleeTrees &Callees) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !(isa<CXXConstructorDecl>(MD) || isa<CXXDestructorDecl>(MD)))
    return nullptr;
  const CXXRecordDecl *RD = MD->getParent();
  const CXXDestructorDecl *Dtor = RD->getDestructor();
  const FunctionDecl *DtorDef = Dtor ? Dtor->getDefinition() : nullptr;
  const CXXConstructorDecl *Ctor = soleConstructor(RD);
  if (!Ctor || !DtorDef || !DtorDef->hasBody() || !Dtor->isUserProvided() ||
      !E.isUserCode(Ctor) || !E.isUserCode(DtorDef))
    return nullptr;
  if (isa<CXXConstructorDecl>(MD) && MD->getCanonicalDecl() !=
                                         Ctor->getCanonicalDecl())
    return nullptr;
  // Does the owner issue anything between the guard's construction (the
  // element Start of block From) and the end of its lifetime?
  auto IssuesWhileAlive = [&](const CFGBlock *From, unsigned Start,
                              const VarDecl *Guard) {
    llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
    llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
    Work.push_back({From, Start});
    while (!Work.empty()) {
      auto [B, I] = Work.pop_back_val();
      bool Ended = false;
      for (; I < B->size() && !Ended; ++I) {
        const CFGElement &El = (*B)[I];
        if (auto End = El.getAs<CFGLifetimeEnds>()) {
          Ended = End->getVarDecl() == Guard;
          continue;
        }
        auto CS = El.getAs<CFGStmt>();
        const auto *Call = CS ? dyn_cast<CallExpr>(CS->getStmt()) : nullptr;
        if (!Call)
          continue;
        if (tokenAt(E, Call))
          return true;
        if (const FunctionDecl *Callee = E.resolveCallee(Call))
          if (issuesAnything(functionSequence(E, Callee, Callees)))
            return true;
      }
      if (Ended)
        continue;
      for (const CFGBlock *S : B->succs())
        if (S && Seen.insert(S).second)
          Work.push_back({S, 0});
    }
    return false;
  };
  // Every construction of the class in user code: a local guard.
  unsigned Guards = 0;
  for (const FunctionDecl *F : E.P->UserFunctions) {
    std::unique_ptr<FunctionFacts> Transient;
    FactsRef Facts = E.cfgOnly(F, Transient);
    if (!Facts)
      continue;
    llvm::SmallPtrSet<const Expr *, 4> GuardInits;
    llvm::SmallVector<const CXXConstructExpr *, 4> Constructions;
    for (const CFGBlock *B : Facts->reversePostOrder())
      for (unsigned I = 0; I < B->size(); ++I) {
        auto CS = (*B)[I].getAs<CFGStmt>();
        if (!CS)
          continue;
        if (const auto *CE = dyn_cast<CXXConstructExpr>(CS->getStmt())) {
          if (CE->getConstructor()->getParent()->getCanonicalDecl() ==
                  RD->getCanonicalDecl() &&
              !CE->getConstructor()->isCopyOrMoveConstructor())
            Constructions.push_back(CE);
          continue;
        }
        const auto *DS = dyn_cast<DeclStmt>(CS->getStmt());
        const auto *V = DS && DS->isSingleDecl()
                            ? dyn_cast<VarDecl>(DS->getSingleDecl())
                            : nullptr;
        const auto *Init =
            V && V->getInit()
                ? dyn_cast<CXXConstructExpr>(V->getInit()->IgnoreImplicit())
                : nullptr;
        if (!Init || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
            V->getType()->isReferenceType() ||
            Init->getConstructor()->getParent()->getCanonicalDecl() !=
                RD->getCanonicalDecl())
          continue;
        if (IssuesWhileAlive(B, I + 1, V))
          return nullptr;
        GuardInits.insert(Init);
        ++Guards;
      }
    for (const CXXConstructExpr *CE : Constructions)
      if (!GuardInits.count(CE))
        return nullptr; // A member, a temporary, a heap object: no scope.
  }
  if (!Guards)
    return nullptr;
  return Node::seq({functionSequence(E, Ctor, Callees),
                    functionSequence(E, DtorDef, Callees)});
}

ClassComparison RankClassComparer::run(const FunctionDecl *FD) {
  ClassComparison Out;
  CalleeTrees Callees;
  NodeRef Tree = guardLifetime(FD, Callees);
  if (!Tree)
    Tree = functionSequence(E, FD, Callees);
  if (!issuesAnything(Tree))
    return Out;
  llvm::SmallPtrSet<const Node *, 32> Seen;
  collect(Tree, Seen);
  // World sizes up to past the largest constant compared with; ranks: the
  // small ones and the last two.
  int64_t Largest = 2;
  for (const Node *N : Choices)
    Largest =
        std::max(Largest, Conds.lookup(N->Source.Term)->largestConstant());
  const int64_t MaxWorld = std::min<int64_t>(Largest + 2, 24);
  CompareBudget Budget;
  Budget.Steps = E.limits().SequenceSteps;
  std::vector<RankClass> Tried;
  for (int64_t W = 1; W <= MaxWorld && !Budget.Exhausted; ++W) {
    // Classes with the same decisions issue the same tree.
    std::map<std::vector<int>, RankClass> Distinct;
    for (int64_t R = 0; R < W; ++R) {
      if (R > Largest + 1 && R < W - 2)
        continue;
      RankClass C{R, W};
      Tried.push_back(C);
      std::vector<int> Decisions;
      for (const Node *N : Choices)
        Decisions.push_back(decide(*N, C));
      // A rank that names values the others cannot (a broadcast's root)
      // is a class of its own.
      Decisions.push_back(NamingRanks.count(R) ? int(R) : -1);
      Distinct.try_emplace(std::move(Decisions), C);
    }
    std::vector<std::pair<NodeRef, RankClass>> Trees;
    for (const auto &[Decisions, C] : Distinct) {
      llvm::DenseMap<const Node *, NodeRef> Memo;
      Class = &C;
      Trees.push_back({resolve(Tree, Decisions, Memo), C});
    }
    std::vector<bool> Talks;
    for (const auto &Tree : Trees)
      Talks.push_back(issuesPointToPoint(Tree.first));
    unsigned Talking = llvm::count(Talks, true);
    for (size_t I = 0; I < Trees.size() && !Budget.Exhausted; ++I)
      for (size_t J = I + 1; J < Trees.size() && !Budget.Exhausted; ++J) {
        bool OthersTalk = Talking > unsigned(Talks[I]) + unsigned(Talks[J]);
        auto D = firstDifference(Trees[I].first, Trees[J].first, Budget,
                                 &Out.Trace, OthersTalk);
        if (!D)
          continue;
        auto Note = [&](const Side &Here, const Side &Other, RankClass A,
                        RankClass B) {
          if (Here.Tok && Here.Site)
            Out.AtDifference.try_emplace(
                Here.Site, ClassComparison::Witness{
                               A, B, Other.Tok ? Other.Site : nullptr});
        };
        Note(D->A, D->B, Trees[I].second, Trees[J].second);
        Note(D->B, D->A, Trees[J].second, Trees[I].second);
      }
  }
  if (Budget.Exhausted) {
    noteBudgetHit(E, "rank-class comparison steps", FD);
    return Out;
  }
  Out.Finished = true;
  for (const auto &[Term, X] : Conds) {
    if (!X)
      continue;
    bool All = true;
    for (const RankClass &C : Tried)
      All = All && evaluate(*X, C).has_value();
    if (All)
      Out.Decided.insert(Term);
  }
  // Branches every class that reaches them made by the names of the values
  // they test.
  for (const Stmt *Term : Named)
    if (!Unnamed.count(Term))
      Out.Decided.insert(Term);
  return Out;
}

const ClassComparison &compareRankClasses(Engine &E, const FunctionDecl *FD) {
  auto &Cache = RankClassComparer::cache(E);
  auto It = Cache.find(FD);
  if (It != Cache.end())
    return *It->second;
  auto Result = std::make_unique<ClassComparison>(RankClassComparer(E).run(FD));
  return *(Cache[FD] = std::move(Result));
}

bool ruledOutByRankClasses(Engine &E, const FunctionDecl *FD,
                           const Stmt *Branch, const CallExpr *Collective) {
  if (!FD || !Branch)
    return false;
  const ClassComparison &C = compareRankClasses(E, FD);
  return C.Finished && C.Decided.count(Branch) &&
         C.Trace.Matched.count(Collective) &&
         !C.Trace.AfterDifference.count(Collective);
}

bool decidedByRankClasses(Engine &E, const FunctionDecl *FD,
                          const Stmt *Branch) {
  if (!FD || !Branch)
    return false;
  const ClassComparison &C = compareRankClasses(E, FD);
  return C.Finished && C.Decided.count(Branch);
}

bool argumentAgreedByRankClasses(Engine &E, const FunctionDecl *FD,
                                 const CallExpr *Collective, int ArgIndex) {
  if (!FD)
    return false;
  const ClassComparison &C = compareRankClasses(E, FD);
  auto It = C.Trace.NamedAlike.find({Collective, ArgIndex});
  return C.Finished && It != C.Trace.NamedAlike.end() && It->second &&
         C.Trace.Matched.count(Collective) &&
         !C.Trace.AfterDifference.count(Collective);
}

const ClassComparison::Witness *rankClassWitness(Engine &E,
                                                 const FunctionDecl *FD,
                                                 const CallExpr *Collective) {
  if (!FD)
    return nullptr;
  const ClassComparison &C = compareRankClasses(E, FD);
  auto It = C.AtDifference.find(Collective);
  return It == C.AtDifference.end() ? nullptr : &It->second;
}

} // namespace collectives
} // namespace distlint
