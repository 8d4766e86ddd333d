//===- Calls.cpp - What a call does to the state --------------------------===//
#include "engine/Construction.h"
#include "engine/ast/AstHelpers.h"
#include "engine/cfg/ErrorPaths.h"
#include "engine/model/ApiModel.h"
#include "engine/objects/OwnFieldWrites.h"
#include "engine/uniformity/CallModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

#include <tuple>

#include <functional>

using namespace clang;

namespace distlint {

using api::Role;

std::pair<const Expr *, llvm::ArrayRef<const Expr *>>
splitCall(const CallExpr *Call, const FunctionDecl *Callee) {
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return {MC->getImplicitObjectArgument(), Args};
  if (isa<CXXOperatorCallExpr>(Call) &&
      isa_and_nonnull<CXXMethodDecl>(Callee) && !Args.empty())
    return {Args.front(), Args.drop_front()};
  return {nullptr, Args};
}

/// The class of the object a call argument hands over (`d`, `&cfg`, `*d`):
/// a variable of a class type, a reference to one or a pointer to one.
static const RecordDecl *objectGiven(const Expr *Arg) {
  const Expr *X = Arg ? Arg->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(X);
      U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref))
    X = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *DR = dyn_cast_or_null<DeclRefExpr>(X);
  if (!DR || !isa<VarDecl>(DR->getDecl()))
    return nullptr;
  QualType T = DR->getDecl()->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->getAsRecordDecl();
}

/// Does the callee only read argument I: a parameter taken by value (not a
/// pointer) or through a pointer or reference to const (`strcmp(cfg.name,
/// ...)`)? A variadic argument is a copy, unless it is a pointer to
/// non-const data (`scanf("%d", &cfg.n)`; a char array passed to printf's
/// `...` decays to one too, so it counts as written).
static bool readOnlyArgument(const FunctionDecl *Callee, unsigned I,
                             const Expr *A) {
  if (!Callee)
    return false;
  QualType T = I < Callee->getNumParams() ? Callee->getParamDecl(I)->getType()
                                          : A->getType();
  if (I >= Callee->getNumParams() && !Callee->isVariadic())
    return false;
  // What a printf-like function formats is only read (`printf("%s",
  // cfg.tag)`); a scanf-like one writes through the same `...`.
  if (I >= Callee->getNumParams())
    for (const auto *Format : Callee->specific_attrs<FormatAttr>())
      if (Format->getType()->getName().contains("printf"))
        return true;
  if (T->isPointerType() || T->isReferenceType())
    return T->getPointeeType().isConstQualified();
  return !T->isRecordType() || T->getAsCXXRecordDecl() == nullptr ||
         !T->getAsCXXRecordDecl()->hasDefinition() ||
         T->getAsCXXRecordDecl()->isTriviallyCopyable();
}

/// A method that changes nothing by itself: const, or the non-const twin of
/// a const one that only hands out mutable access (`operator[]`, `data()`,
/// `begin()`, `at()`); a write through what it returns is an assignment.
static bool isAccessor(const FunctionDecl *Callee) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
  if (!MD || isa<CXXConstructorDecl, CXXDestructorDecl>(MD) || MD->isStatic())
    return false;
  if (MD->isConst())
    return true;
  if (MD->isOverloadedOperator() &&
      MD->getOverloadedOperator() != OO_Subscript &&
      MD->getOverloadedOperator() != OO_Star &&
      MD->getOverloadedOperator() != OO_Arrow)
    return false;
  for (const NamedDecl *ND : MD->getParent()->lookup(MD->getDeclName())) {
    const auto *Twin = dyn_cast_or_null<CXXMethodDecl>(ND->getAsFunction());
    if (Twin && Twin != MD && Twin->isConst() &&
        Twin->getNumParams() == MD->getNumParams())
      return true;
  }
  return false;
}

/// `std::get<I>(t)` (also what a structured binding of a pair or tuple
/// reads through): hands out an element, as operator[] does.
static bool isElementGetter(const FunctionDecl *Callee) {
  return Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
         Callee->getName() == "get" && Callee->getNumParams() == 1;
}

/// Does a library function take argument I (A) as a buffer to write: a
/// pointer to non-const data (not a handle to an opaque struct)?
bool isWrittenBuffer(const FunctionDecl *Callee, unsigned I, const Expr *A) {
  QualType T = Callee && I < Callee->getNumParams()
                   ? Callee->getParamDecl(I)->getType()
                   : A->getType();
  if (!T->isPointerType())
    return false;
  QualType Pointee = T->getPointeeType();
  return !Pointee.isConstQualified() && !Pointee->isFunctionType() &&
         (Pointee->isVoidType() || !Pointee->isIncompleteType());
}

void UniformityAnalysis::callEffects(const CallExpr *Call, VarState &S,
                                     const Taint &Ctl) {
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const Expr *Receiver;
  llvm::ArrayRef<const Expr *> Args;
  std::tie(Receiver, Args) = splitCall(Call, Callee);
  auto ArgAt = [&](int I) -> const Expr * {
    return I >= 0 && I < (int)Args.size() ? Args[I] : nullptr;
  };
  // The caller's object an argument designates; none for a temporary
  // (`fill(torch::full({1}, t.size(0)))` writes nothing of `t`).
  // A copy of a variable (a tensor handle passed by value) designates it.
  auto CallerObjectAt = [&](int I) -> const Expr * {
    const Expr *A = ArgAt(I);
    const Expr *X = A;
    for (bool Stripped = true; X && Stripped;) {
      Stripped = false;
      X = X->IgnoreParens();
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(X)) {
        X = Cast->getSubExpr();
        Stripped = true;
      } else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(X)) {
        X = Bind->getSubExpr();
        Stripped = true;
      } else if (const auto *Copy = dyn_cast<CXXConstructExpr>(X);
                 Copy && Copy->getNumArgs() == 1 &&
                 Copy->getConstructor()->isCopyOrMoveConstructor()) {
        X = Copy->getArg(0);
        Stripped = true;
      }
    }
    if (!X || isa<MaterializeTemporaryExpr>(X) ||
        (X->isPRValue() && X->getType()->isRecordType()))
      return nullptr;
    return A;
  };

  // Decided before the call forgets what it may write.
  const auto AgreedOutputs = agreedDeviceOutputs(Call, Callee, Args, S);

  // A function the API tables do not describe may write any field of what
  // it is given: what this path knew of those fields is gone.
  if (E.api().lookup(Callee).empty()) {
    llvm::SmallVector<const VarDecl *, 4> Given;
    // One field of a local object handed over (`read_name(cfg.dir)`,
    // `&cfg.n`, `cfg.dir.resize(n)`): the call reaches that field only.
    auto GiveField = [&](const Expr *X) {
      X = strip(X);
      if (const auto *U = dyn_cast<UnaryOperator>(X);
          U && U->getOpcode() == UO_AddrOf)
        X = strip(U->getSubExpr());
      const auto *M = dyn_cast<MemberExpr>(X);
      while (M && !M->isArrow())
        if (const auto *Inner =
                dyn_cast<MemberExpr>(M->getBase()->IgnoreParenImpCasts()))
          M = Inner;
        else
          break;
      const auto *F = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
      // A local object, or one a reference parameter names.
      const VarDecl *Base = F && !M->isArrow() ? fieldBase(M) : nullptr;
      if (Base && !isLocal(Base))
        Base = nullptr;
      if (Base)
        forgetFieldOf(S, Base, F);
      return Base != nullptr;
    };
    for (unsigned I = 0; I < Args.size(); ++I)
      if (!readOnlyArgument(Callee, I, Args[I]) && !isElementGetter(Callee) &&
          !GiveField(Args[I]))
        collectVarRefs(Args[I], Given);
    // A method called on a local object (`loader.next()`) changes the
    // fields it may write; what this path knows of the others stays.
    const auto *Object =
        Receiver ? dyn_cast<DeclRefExpr>(strip(Receiver)) : nullptr;
    const FieldSet *ObjectWrites =
        Object && !Receiver->getType()->isPointerType()
            ? fieldsMethodMayWrite(E, dyn_cast_or_null<CXXMethodDecl>(Callee))
            : nullptr;
    if (ObjectWrites) {
      const auto *VD = dyn_cast<VarDecl>(Object->getDecl());
      for (auto It = S.lower_bound(StateKey(VD, nullptr));
           It != S.end() && It->first.Var == VD;)
        It = It->first.isPart() &&
                     (!It->first.Field || ObjectWrites->count(It->first.Field))
                 ? S.erase(It)
                 : std::next(It);
    } else if (Receiver && !isAccessor(Callee) && !GiveField(Receiver)) {
      collectVarRefs(Receiver, Given);
    }
    for (const VarDecl *VD : Given)
      forgetFieldsOf(S, VD);
    // A method of the object, or a call given the object: its fields may
    // change.
    auto GivesThis = [&](const Expr *X) {
      X = X ? strip(X)->IgnoreParenImpCasts() : nullptr;
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(X);
          U && U->getOpcode() == UO_Deref)
        X = U->getSubExpr()->IgnoreParenImpCasts();
      return isa_and_nonnull<CXXThisExpr>(X);
    };
    // Any of them sees the object as it is here (an accessor too).
    bool Seen = Receiver && GivesThis(Receiver);
    bool ThisGiven = Seen && !isAccessor(Callee);
    bool ArgGivesThis = false;
    for (unsigned I = 0; I < Args.size(); ++I)
      if (GivesThis(Args[I])) {
        Seen = true;
        ArgGivesThis |= !readOnlyArgument(Callee, I, Args[I]);
      }
    if (Seen) {
      noteObjectEscape(S);
      noteObjectSeen(nullptr);
    }
    // An object handed to the call (`report(d)`): it sees the fields of its
    // class as they are here.
    for (const Expr *Arg : Args)
      if (const RecordDecl *Object = objectGiven(Arg))
        noteObjectSeen(Object);
    if (ThisGiven || ArgGivesThis) {
      // A method of the object changes what it writes, nothing else.
      const FieldSet *MayWrite =
          ArgGivesThis ? nullptr
                       : fieldsMethodMayWrite(
                             E, dyn_cast_or_null<CXXMethodDecl>(Callee));
      for (auto It = S.begin(); It != S.end();)
        It = !It->first.Var && It->first.Field &&
                     (!MayWrite || MayWrite->count(It->first.Field))
                 ? S.erase(It)
                 : std::next(It);
    }
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
        Method && Receiver && !Seen && !isAccessor(Method) &&
        isTaughtDecl(E, Method)) {
      if (Ctl.depends())
        noteMethodUnderBranch(Method, Receiver, S, Ctl);
      if (const FieldDecl *Whole = ownMemberObject(strip(Receiver)))
        noteMemberObjectMethod(Method, Whole, S, Ctl);
    }
  }

  // What the rows' roles write through arguments (engine/model/ApiModel).
  bool Known = false;
  ModelEnvAt Env(*this, Call, Callee, Receiver, Args, S, &S);
  for (const api::ApiEntry *Row : E.api().lookup(Callee)) {
    Known = true;
    if (model::EffectsTransfer Effects = model::modelOf(Row->TheRole).Effects)
      Effects({Call, *Row, Receiver, Args, Ctl}, Env);
  }

  // A project function defined elsewhere (a kernel launcher in a .cu file)
  // writes the buffers it takes through pointers to non-const data: what a
  // local buffer holds is no longer known to agree (device results read
  // back from it are this rank's own, ApiModel's copies).
  if (!Known && Callee && !Callee->hasBody() && E.isUserCode(Callee) &&
      !isApiHeaderDecl(E, Callee))
    for (unsigned I = 0; I < Args.size(); ++I)
      if (isWrittenBuffer(Callee, I, Args[I]))
        if (const VarDecl *VD = baseVar(Args[I]); VD && isLocal(VD))
          if (auto It = S.find(VD); It != S.end() && !It->second.Vary)
            It->second.UniformContent = false;
  for (const Expr *Out : AgreedOutputs.Buffers)
    markUniform(Out, S, AgreedOutputs.Params);

  if (Callee && Callee->hasBody() && isTaughtDecl(E, Callee)) {
    const FunctionDecl *Def = Callee->getDefinition();
    FunctionResult *CR = P.analyze(Def ? Def : Callee);
    forgetSequenceLengths(Def ? Def : Callee, Args,
                          CR ? CR->LengthKeptParams : 0, S);
    if (CR) {
      // Copies: for a recursive call CR is this function's own result, and
      // noteFieldWrite below appends to it.
      const auto OutParams = CR->Summary.VaryingOutParams;
      const auto ParamFields = CR->ParamToField;
      // `helper(&group)` where the helper stores a sub-communicator through
      // that parameter (`*out = merged`): group is one.
      const FunctionDecl *Body = Def ? Def : Callee;
      for (unsigned I = 0; I < Body->getNumParams() && I < Args.size(); ++I)
        if (const ParmVarDecl *PD = Body->getParamDecl(I);
            PD->getType()->isPointerType() && P.Tu.isSubCommunicator(PD)) {
          if (const FieldDecl *F = accessedField(Args[I]))
            P.Tu.noteFieldCommunicator(F, true);
          else if (const VarDecl *To = baseVar(Args[I]))
            P.Tu.noteSubCommunicator(To);
        }
      for (const FunctionSummary::VaryingOutParam &Out : OutParams)
        if (const Expr *A = CallerObjectAt(Out.Index)) {
          Taint T;
          T.Vary = true;
          T.Origin = Out.Origin;
          // Only its elements written: its length is the caller's.
          if (Out.Index < 64 && (CR->LengthKeptParams >> Out.Index & 1)) {
            T.ContentOnly = true;
            T.ShapeKey = eval(A, S).ShapeKey;
          } else if (Out.ContentOnly && !Ctl.Vary && !Ctl.Params) {
            // Every rank makes the call and gets the callee's length,
            // the same on all of them.
            T.ContentOnly = true;
          }
          assignLValue(A, T, S, false);
        }
      const auto Writes = CR->OutParamWrites;
      for (const FunctionResult::OutParamWrite &W : Writes)
        if (const Expr *A = CallerObjectAt(W.Index)) {
          // The value written: what the caller gives the parameters it
          // comes from (the rank included).
          Taint From;
          From.UniformContent = true;
          for (unsigned I = 0; I < Args.size() && I < 64; ++I)
            if (W.FromParams & (uint64_t(1) << I))
              From.join(eval(Args[I], S));
          From.addControl(Ctl);
          // A tensor written in place (copy_, a collective into it): under a
          // branch the contents may differ, the shape is what the caller's
          // tensor had (OutParamWrite::InPlace).
          if (W.InPlace) {
            From.ShapeKey = eval(A, S).ShapeKey;
            From.ShapePending = false;
            if (From.Vary && !From.Params)
              From.ContentOnly = true;
          }
          if (From.Vary || From.Params)
            assignLValue(A, From, S, false);
          else if (W.Overwritten)
            markUniform(A, S);
        }
      // `reduce_grads(&m)`: the fields the helper agreed on, in the
      // caller's object too (like a collective on them here).
      const auto AgreedFields = CR->AgreedParamFields;
      for (const auto &[Idx, Field] : AgreedFields)
        if (const Expr *A = ArgAt(Idx))
          if (const VarDecl *Base = baseVar(A);
              Base && Base->hasLocalStorage()) {
            Taint T;
            T.UniformContent = true;
            S[StateKey(Base, Field)] = T;
            settleAgreedObject(Base, S);
          }
      noteParamFieldWrites(ParamFields, Args, S, Ctl);
    }
    return;
  }

  // A library function given a sequence by reference may resize it.
  if (!Known && Callee)
    forgetSequenceLengths(Callee, Args, 0, S);

  // A library method that mutates a local object (push_back, insert...):
  // the object now holds what was passed in. A virtual method of the
  // project whose overriders are here is not one: the run calls one of
  // those bodies, and what the object holds does not come from its
  // arguments (`strategy->sync(pg, grads)` leaves the strategy as it was).
  if (!Known && Receiver)
    libraryMethodEffects(Call, Callee, Receiver, Args, S, Ctl);
}

Taint UniformityAnalysis::closureTaint(const LambdaExpr *L, const VarState &S) {
  Taint T;
  T.UniformContent = true;
  const CXXMethodDecl *Op = L->getCallOperator();
  FunctionResult *CR = Op && Op->hasBody() ? P.analyze(Op) : nullptr;
  if (!CR)
    return T;
  // What it returns, with the captures it reads there as they are here;
  // its explicit parameters are the caller's arguments, joined at the call.
  Taint Result;
  if (CR->Summary.ReturnVaries) {
    Result.Vary = true;
    Result.Origin = *CR->Summary.ReturnVaries;
  }
  for (unsigned I : CR->Summary.ParamsToReturn)
    if (const VarDecl *Captured = lambdaCaptureAt(Op, I))
      Result.join(varTaint(Captured, S));
  if (Result.Vary) {
    T.Vary = true;
    T.Origin = Result.Origin;
    // Only the returned elements differ (`std::vector<double> g(n)` filled
    // from the rank): what is computed from its length stays agreed.
    T.ContentOnly =
        CR->ReturnTaint.ContentOnly ||
        (!Op->getReturnType()->isScalarType() && !CR->ReturnTaint.Vary);
  }
  T.Params = Result.Params;
  return T;
}

std::optional<Taint> UniformityAnalysis::scratchReturn(
    const FunctionDecl *Callee,
    llvm::function_ref<void(UniformityAnalysis &)> Configure) {
  if (P.SpecializationDepth > P.Limits.SpecializationDepth) {
    P.Limits.hit("specialization depth", Callee->getNameAsString());
    return std::nullopt;
  }
  FunctionResult Scratch;
  Scratch.Body = std::make_unique<FunctionBody>();
  Scratch.Body->Facts = FunctionFacts::build(Callee, E.context());
  if (!Scratch.Body->Facts)
    return std::nullopt;
  if (Scratch.Body->Facts->cfg().size() > P.Limits.SpecializationBlocks) {
    // Too big to re-analyze per question: the summary answers.
    P.Limits.hit("specialization size", Callee->getNameAsString());
    return std::nullopt;
  }
  P.computeDoomed(Callee, Scratch);
  Scratch.Body->ErrorPaths = errorPathBlocks(E, *Scratch.Body->Facts);
  ++P.SpecializationDepth;
  UniformityAnalysis U(E, Callee, Scratch);
  Configure(U);
  U.run();
  --P.SpecializationDepth;
  return Scratch.ReturnTaint;
}

ObjectReach UniformityAnalysis::objectReachesReturn(const FunctionDecl *Method,
                                                    const VaryOrigin &Origin) {
  auto Known = P.ObjectReachesReturn.find(Method);
  if (Known != P.ObjectReachesReturn.end() &&
      (Known->second.first == ObjectReach::Whole ||
       Known->second.second == P.Tu.stamp()))
    return Known->second.first;
  // Recursion: it may.
  P.ObjectReachesReturn[Method] = {ObjectReach::Whole, P.Tu.stamp()};
  std::optional<Taint> Ret = scratchReturn(
      Method, [&](UniformityAnalysis &U) { U.assumeObjectVaries(Origin); });
  ObjectReach Reach = !Ret               ? ObjectReach::Whole
                      : !Ret->Vary       ? ObjectReach::No
                      : Ret->ContentOnly ? ObjectReach::Values
                                         : ObjectReach::Whole;
  P.ObjectReachesReturn[Method] = {Reach, P.Tu.stamp()};
  return Reach;
}

std::optional<Taint>
UniformityAnalysis::specializedReturn(const FunctionDecl *Callee,
                                      llvm::ArrayRef<const Expr *> Args,
                                      const VarState &S) {
  std::vector<Taint> Bound;
  SpecializationKey Key{Callee, {}};
  bool Named = false;
  for (const Expr *A : Args) {
    Bound.push_back(eval(A, S));
    Named = Named || Bound.back().LauncherVar != LauncherVariable::None;
    // The same spelling can carry another value elsewhere (a variable
    // holding a name): the key includes what the analysis knows of it.
    Key.Args.push_back({sourceText(A, E.context()), Bound.back().LauncherVar,
                        Bound.back().Vary});
  }
  if (!Named || Callee->getNumParams() != Args.size())
    return std::nullopt;
  auto It = P.Specialized.find(Key);
  if (It != P.Specialized.end())
    return It->second;
  P.Specialized[Key] = Taint(); // Recursion: uniform.
  std::optional<Taint> Ret = scratchReturn(
      Callee, [&](UniformityAnalysis &U) { U.bindArguments(&Bound); });
  if (!Ret) {
    P.Specialized.erase(Key);
    return std::nullopt;
  }
  Ret->Params = Ret->ShapeParams = 0;
  Ret->ValueKey = 0; // Names the callee's expression, not the caller's value.
  P.Specialized[Key] = *Ret;
  return Ret;
}

} // namespace distlint
