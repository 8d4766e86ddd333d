//===- RunOptions.cpp -------------------------------------------------===//
//
// Code the user opts into at run time: a statement under a condition that is
// false while every run-time option it reads holds its default. A run-time
// option is a variable (or field) that the program sets from its command
// line or environment and otherwise leaves at a constant default:
//
//   int variant = 2;                          // the default
//   if (argc > 3) variant = atoi(argv[3]);    // set from the command line
//   for (...) { if (variant == 6) sync(); }   // runs only when asked for
//
// A run-time switch that is off by default is the run-time twin of an
// `#ifdef DEBUG` block, which the preprocessor hides from every rule.
//
//===----------------------------------------------------------------------===//
#include "LoopsInternal.h"
#include "engine/ast/AstHelpers.h"

using namespace clang;

namespace distlint {
namespace loops {

namespace {

constexpr int kInputDepth = 3;
constexpr size_t kMaxDefaultCombinations = 16;

/// argv, or an array of C strings handed on from it (`parse(int, char **)`),
/// or main's argc.
bool isCommandLineParam(const ParmVarDecl *P) {
  if (const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
      FD && FD->isMain())
    return true;
  QualType T = P->getType();
  if (const auto *Outer = T->getAs<PointerType>())
    T = Outer->getPointeeType();
  else if (T->isArrayType())
    T = QualType(T->getPointeeOrArrayElementType(), 0);
  else
    return false;
  const auto *Inner = T->getAs<PointerType>();
  return Inner && Inner->getPointeeType()->isAnyCharacterType();
}

bool derivedFromInput(Engine &E, const Expr *X, int Depth);

/// Is D (an assignment or an initializer) under a condition that reads the
/// command line or the environment, within its function?
bool inputControlled(Engine &E, const Stmt *D) {
  bool Found = false;
  forEachEnclosingStmt(E, D, [&](const Stmt *P, const Stmt *Child) {
    const Expr *Cond = decisionOf(P).Cond;
    // A two-way branch's own condition is not under it; a loop's is
    // (`while ((o = getopt(...)) != -1)` runs again because of what it read).
    if (Child == Cond && isa<IfStmt, ConditionalOperator, BinaryOperator>(P))
      Cond = nullptr;
    if (Cond && derivedFromInput(E, Cond, 0))
      Found = true;
    return !Found;
  });
  return Found;
}

/// What an option can hold: each value written to it (Def: the assignment,
/// null for an initializer) and whether it is also written in a way whose
/// value is not visible (`++V`, `V += x`).
struct Definitions {
  struct Entry {
    const Expr *Value;
    const Stmt *Def;
  };
  llvm::SmallVector<Entry, 4> Entries;
  bool Opaque = false;
};

/// Is X the option D: a local read, or a read of field D of any object?
bool refersTo(const Expr *X, const ValueDecl *D) {
  X = X->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(X))
    return DR->getDecl() == D;
  if (const auto *M = dyn_cast<MemberExpr>(X))
    return M->getMemberDecl() == D;
  return false;
}

void collectWrites(const Stmt *S, const ValueDecl *D, Definitions &Out) {
  if (!S)
    return;
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->isAssignmentOp() && refersTo(B->getLHS(), D)) {
    if (B->getOpcode() == BO_Assign)
      Out.Entries.push_back({B->getRHS(), B});
    else
      Out.Opaque = true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp() && refersTo(U->getSubExpr(), D))
    Out.Opaque = true;
  for (const Stmt *Child : S->children())
    collectWrites(Child, D, Out);
}

/// A local's definitions in its function; a field's in every user function,
/// its in-class initializer and constructors' member initializers.
Definitions definitionsOf(Engine &E, const ValueDecl *D) {
  Definitions Out;
  if (const auto *V = dyn_cast<VarDecl>(D)) {
    const FunctionDecl *FD = owningFunction(V);
    if (!FD || !FD->getBody()) {
      Out.Opaque = true;
      return Out;
    }
    if (const Expr *Init = V->getInit())
      Out.Entries.push_back({Init, nullptr});
    collectWrites(FD->getBody(), D, Out);
    return Out;
  }
  const auto *F = cast<FieldDecl>(D);
  if (const Expr *Init = F->getInClassInitializer())
    Out.Entries.push_back({Init, nullptr});
  for (const FunctionDecl *FD : E.userFunctions()) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *I : Ctor->inits())
        if (I->isWritten() && I->getMember() == F)
          Out.Entries.push_back({I->getInit(), nullptr});
    collectWrites(FD->getBody(), D, Out);
  }
  return Out;
}

/// Does a local's value come from the command line or environment (some
/// definition reads them or is chosen by them)?
bool localFromInput(Engine &E, const VarDecl *V, int Depth) {
  if (Depth > kInputDepth)
    return false;
  for (const Definitions::Entry &Entry : definitionsOf(E, V).Entries)
    if (derivedFromInput(E, Entry.Value, Depth + 1) ||
        (Entry.Def && inputControlled(E, Entry.Def)))
      return true;
  return false;
}

bool derivedFromInput(Engine &E, const Expr *X, int Depth) {
  if (!X || Depth > kInputDepth)
    return false;
  bool Found = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
        Found = isCommandLineParam(P);
      else if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
               V && V->hasLocalStorage())
        Found = localFromInput(E, V, Depth + 1);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && E.apiRole(Call, api::Role::EnvRead)) {
      Found = true;
      return;
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(X);
  return Found;
}

bool inside(Engine &E, const Stmt *S, const Stmt *Region) {
  for (const Stmt *P = S; P; P = E.parentStmt(P))
    if (P == Region)
      return true;
  return false;
}

/// The defaults of a run-time option: the constants it holds unless the
/// command line or environment sets it. Empty when D is not such an option
/// (a value computed otherwise, `is_available()`, none from input, or one
/// the loop changes).
llvm::SmallVector<int64_t, 2> optionDefaults(Engine &E, const ValueDecl *D,
                                             const Stmt *Loop) {
  const auto *V = dyn_cast<VarDecl>(D);
  if (V &&
      (isa<ParmVarDecl>(V) || !V->hasLocalStorage() || isWrittenIn(E, V, Loop)))
    return {};
  if (!V && !isa<FieldDecl>(D))
    return {};
  Definitions Defs = definitionsOf(E, D);
  if (Defs.Opaque)
    return {}; // `++V`: a value no default names.
  llvm::SmallVector<int64_t, 2> Defaults;
  bool FromInput = false;
  // Each value D can hold: from input, or a constant. ChosenByInput: Value
  // is selected by a condition on the input.
  std::function<bool(const Expr *, const Stmt *, bool)> Classify =
      [&](const Expr *Value, const Stmt *Def, bool ChosenByInput) {
        // `env ? atoi(env) : 0`: the constant arm is the default when the other
        // arm is the input.
        if (const auto *CO = dyn_cast<AbstractConditionalOperator>(
                Value->IgnoreParenImpCasts());
            CO && derivedFromInput(E, CO->getCond(), 0)) {
          const Expr *Arms[] = {CO->getTrueExpr(), CO->getFalseExpr()};
          for (int I = 0; I < 2; ++I) {
            bool OtherIsInput = derivedFromInput(E, Arms[1 - I], 0);
            if (OtherIsInput && derivedFromInput(E, Arms[I], 0))
              FromInput = true;
            else if (!Classify(Arms[I], Def, !OtherIsInput))
              return false;
          }
          return true;
        }
        if (derivedFromInput(E, Value, 0)) {
          FromInput = true;
          return true;
        }
        std::optional<llvm::APSInt> C = evaluateInt(E, Value);
        if (!C)
          return false; // Computed: a fact of the run, not an option.
        if (ChosenByInput || (Def && inputControlled(E, Def)))
          FromInput = true; // `if (arg == "--debug") debug = true;`
        else
          Defaults.push_back(C->getExtValue());
        return true;
      };
  for (const Definitions::Entry &Entry : Defs.Entries)
    if ((Entry.Def && inside(E, Entry.Def, Loop)) ||
        !Classify(Entry.Value, Entry.Def, false))
      return {};
  return FromInput ? Defaults : llvm::SmallVector<int64_t, 2>();
}

/// Evaluates a condition with each run-time option it reads at one of its
/// defaults (Assigned; options met first take their first default and are
/// listed in Found). Unknown when anything else decides it.
struct DefaultEval {
  DefaultEval(Engine &E, const Stmt *Loop) : E(E), Loop(Loop) {}
  Engine &E;
  const Stmt *Loop;
  llvm::SmallDenseMap<const ValueDecl *, int64_t, 4> Assigned;
  llvm::SmallVector<std::pair<const ValueDecl *, llvm::SmallVector<int64_t, 2>>,
                    2>
      Found;

  /// Values of Cond when the options hold their defaults; nullopt when one
  /// of them is not known.
  std::optional<bool> truth(const Expr *Cond, int Depth = 0) {
    if (!Cond || Depth > 8)
      return std::nullopt;
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Cond);
        U && U->getOpcode() == UO_LNot) {
      if (auto T = truth(U->getSubExpr(), Depth + 1))
        return !*T;
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
      if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
        bool And = B->getOpcode() == BO_LAnd;
        // Both sides, so that every option the condition reads is found.
        auto L = truth(B->getLHS(), Depth + 1);
        auto R = truth(B->getRHS(), Depth + 1);
        if (L && *L != And)
          return L; // Decided by the left side.
        if (R && *R != And)
          return R;
        if (L && R)
          return And;
        return std::nullopt;
      }
      if (B->isComparisonOp()) {
        auto L = value(B->getLHS()), R = value(B->getRHS());
        if (!L || !R)
          return std::nullopt;
        switch (B->getOpcode()) {
        case BO_EQ:
          return *L == *R;
        case BO_NE:
          return *L != *R;
        case BO_LT:
          return *L < *R;
        case BO_LE:
          return *L <= *R;
        case BO_GT:
          return *L > *R;
        case BO_GE:
          return *L >= *R;
        default:
          return std::nullopt;
        }
      }
    }
    if (auto V = value(Cond))
      return *V != 0;
    return std::nullopt;
  }

  std::optional<int64_t> value(const Expr *X) {
    X = X->IgnoreParenImpCasts();
    const ValueDecl *D = nullptr;
    if (const auto *DR = dyn_cast<DeclRefExpr>(X))
      D = dyn_cast<VarDecl>(DR->getDecl());
    else if (const auto *M = dyn_cast<MemberExpr>(X))
      D = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!D)
      ;
    else if (auto It = Assigned.find(D); It != Assigned.end())
      return It->second;
    else if (auto Defaults = optionDefaults(E, D, Loop); !Defaults.empty()) {
      Found.push_back({D, Defaults});
      return Assigned[D] = Defaults.front();
    }
    if (std::optional<llvm::APSInt> C = evaluateInt(E, X))
      return C->getExtValue();
    return std::nullopt;
  }
};

} // namespace

} // namespace loops

using namespace loops;

std::optional<OptInGuard> optInGuard(Engine &E, const Stmt *S,
                                     const StepContext &Ctx) {
  if (!S || !Ctx.Loop)
    return std::nullopt;
  // The statements on the way from the loop down to S, each judged in its
  // own function: the call in the loop up to the loop, the others up to
  // their function's body.
  llvm::SmallVector<const Stmt *, 4> Path(Ctx.Via.begin(), Ctx.Via.end());
  Path.push_back(S);
  const FunctionDecl *LoopFunction = E.enclosingFunction(Ctx.Loop);
  for (const Stmt *At : Path) {
    const FunctionDecl *FD = E.enclosingFunction(At);
    if (!FD)
      continue;
    const Stmt *Stop = FD == LoopFunction ? Ctx.Loop : FD->getBody();
    for (const Guard &G : guardsBetween(E, At, Stop)) {
      // Off with every combination of the options' defaults.
      DefaultEval First(E, Ctx.Loop);
      std::optional<bool> Truth = First.truth(G.Cond);
      if (!Truth || First.Found.empty() || *Truth == G.WhenTrue)
        continue;
      size_t Combinations = 1;
      for (const auto &Option : First.Found)
        Combinations *= Option.second.size();
      if (Combinations > kMaxDefaultCombinations)
        continue;
      bool OffByDefault = true;
      for (size_t Index = 0; Index < Combinations && OffByDefault; ++Index) {
        DefaultEval Each(E, Ctx.Loop);
        size_t Rest = Index;
        for (const auto &[Option, Defaults] : First.Found) {
          Each.Assigned[Option] = Defaults[Rest % Defaults.size()];
          Rest /= Defaults.size();
        }
        std::optional<bool> T = Each.truth(G.Cond);
        OffByDefault = T && *T != G.WhenTrue;
      }
      if (OffByDefault)
        return OptInGuard{G.Cond, First.Found.front().first,
                          First.Found.front().second.back()};
    }
  }
  return std::nullopt;
}

} // namespace distlint
