//===- CallResults.cpp - The value a call gives ---------------------------===//
//
// API roles' return transfers, user functions' summaries with the caller's
// arguments, constructors the tables list behind factories, and library
// code whose result has the taint of what it is given.
//
//===----------------------------------------------------------------------===//
#include "engine/Construction.h"
#include "engine/uniformity/CallModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <functional>

using namespace clang;

namespace distlint {

using api::Role;

/// Does argument I of a library call pass only a small value type into the
/// result, never a shape: tensor options, a device, a number converted to a
/// scalar (`t.options()`, `c10::Scalar(x)`)?
static bool optionsArgument(const FunctionDecl *Callee, unsigned I,
                            const Expr *A, ASTContext &Ctx) {
  QualType T = A->getType().getNonReferenceType();
  if (!Callee || !T->isRecordType() || isTensorLike(T) ||
      !T.isTriviallyCopyableType(Ctx))
    return false;
  return !(I < Callee->getNumParams() &&
           isSizeArrayType(Callee->getParamDecl(I)->getType()));
}

/// Does a statement of FD's body satisfy Found?
static bool bodyHas(const FunctionDecl *FD,
                    llvm::function_ref<bool(const Stmt *)> Found) {
  std::function<bool(const Stmt *)> Has = [&](const Stmt *S) {
    if (!S)
      return false;
    if (Found(S))
      return true;
    for (const Stmt *Child : S->children())
      if (Has(Child))
        return true;
    return false;
  };
  return Has(FD->getBody());
}

/// Does a method's body use its object (`this`, a member)?
static bool readsObject(const FunctionDecl *FD) {
  return bodyHas(FD, [](const Stmt *S) { return isa<CXXThisExpr>(S); });
}

/// Does a method's body read field F of its own object (`this->F`, `F`)?
static bool readsOwnField(const FunctionDecl *FD, const FieldDecl *F) {
  return bodyHas(FD, [&](const Stmt *S) {
    const auto *M = dyn_cast<MemberExpr>(S);
    return M && M->getMemberDecl() == F &&
           isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts());
  });
}

bool UniformityAnalysis::viewOffsetArgument(const FunctionDecl *Callee,
                                            unsigned I) {
  if (Callee)
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      if (Row->TheRole == api::Role::SizeArgument && Row->Args.Dim >= 0 &&
          Row->Args.Count >= 0)
        return (int)I != Row->Args.Dim && (int)I != Row->Args.Count;
  return false;
}

/// Does a pointer of type T point to a class with a constructor the tables
/// list (a process group)? Cheap: decides whether a factory call is worth
/// following to its constructor.
bool UniformityAnalysis::buildsListedClass(QualType T) {
  T = T.getNonReferenceType();
  const CXXRecordDecl *RD = nullptr;
  if (T->isPointerType())
    RD = T->getPointeeType()->getAsCXXRecordDecl();
  else if (const CXXRecordDecl *Holder = T->getAsCXXRecordDecl();
           Holder && Holder->hasDefinition())
    for (const CXXMethodDecl *M : Holder->methods())
      if (M->getOverloadedOperator() == OO_Arrow) {
        // A proxy returned by value (an iterator's operator->) is no pointer.
        QualType Pointee = M->getReturnType()->getPointeeType();
        RD = Pointee.isNull() ? nullptr : Pointee->getAsCXXRecordDecl();
      }
  if (!RD || !RD->hasDefinition())
    return false;
  for (const CXXConstructorDecl *Ctor : RD->ctors())
    if (!E.api().lookup(Ctor).empty())
      return true;
  return false;
}

Taint UniformityAnalysis::evalCall(const CallExpr *Call, const VarState &S) {
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const Expr *Receiver;
  llvm::ArrayRef<const Expr *> Args;
  std::tie(Receiver, Args) = splitCall(Call, Callee);

  // The first row whose role decides the result (engine/model/ApiModel).
  ModelEnvAt Env(*this, Call, Callee, Receiver, Args, S, nullptr);
  for (const api::ApiEntry *Row : E.api().lookup(Callee))
    if (model::ReturnTransfer Return = model::modelOf(Row->TheRole).Return)
      if (auto T = Return({Call, *Row, Receiver, Args, Taint()}, Env))
        return *T;
  // A factory that forwards its arguments to a constructor the tables list
  // (`c10::make_intrusive<ProcessGroupGloo>(...)`, also a project's own
  // wrapper of it): that constructor's rows, with the arguments as its
  // parameters see them.
  if (Callee && buildsListedClass(Call->getType()))
    if (auto Built = constructionAt(E, Call)) {
      llvm::SmallVector<const Expr *, 6> CtorArgs(Built->Args.begin(),
                                                  Built->Args.end());
      ModelEnvAt CtorEnv(*this, Call, Built->Ctor, nullptr, CtorArgs, S,
                         nullptr);
      for (const api::ApiEntry *Row : E.api().lookup(Built->Ctor))
        if (model::ReturnTransfer Return = model::modelOf(Row->TheRole).Return)
          if (auto T =
                  Return({Call, *Row, nullptr, CtorArgs, Taint()}, CtorEnv))
            return *T;
    }

  if (Callee && Callee->hasBody() && isTaughtDecl(E, Callee)) {
    const FunctionDecl *Def = Callee->getDefinition();
    FunctionResult *CR = P.analyze(Def ? Def : Callee);
    if (CR && !CR->Summary.ParamsToReturn.empty())
      if (auto Special = specializedReturn(Def ? Def : Callee, Args, S))
        return *Special;
    Taint T;
    if (CR) {
      if (CR->Summary.ReturnVaries) {
        T.Vary = true;
        T.Origin = *CR->Summary.ReturnVaries;
      }
      T.UniformContent = CR->ReturnTaint.UniformContent;
      // A pointer to a new object (`return std::make_unique<Logger>(...)`)
      // is never null, whatever the object holds.
      T.PointeeOnly = T.Vary && CR->ReturnTaint.PointeeOnly;
      // An accessor of a tensor only updated in place: its values.
      T.ContentOnly = T.Vary && CR->ReturnTaint.ContentOnly;
      T.NonNull = CR->ReturnTaint.NonNull;
      if (CR->ReturnTaint.Range && !CR->ReturnTaint.Params)
        T.Range = CR->ReturnTaint.Range;
      for (unsigned I : CR->Summary.ParamsToReturn)
        if (I < Args.size())
          T.join(CR->ReturnTaint.argumentTaint(
              I, passedArgument(*CR, I, Args[I], S)));
        else if (const VarDecl *Captured =
                     lambdaCaptureAt(Def ? Def : Callee, I))
          T.join(varTaint(Captured, S));
      // A tensor of one shape whatever it is given (`return
      // torch::tensor({sum, count})`): what it is given reaches the values.
      if (CR->ReturnTaint.ShapeKey && !CR->ReturnTaint.ShapePending &&
          isTensorType(Call->getType())) {
        T.ShapeKey = CR->ReturnTaint.ShapeKey;
        if (T.Vary) {
          T.ContentOnly = true;
          T.VaryingDims = Taint::AllDims;
        }
      }
      // What the object holds reaches the result when the method reads it
      // (its fields' facts are TU-wide, but not what one object was given);
      // `MPI_Datatype type() const { return Traits<T>::type(); }` does not.
      // Only where the object reaches the result: a method that all-reduces
      // what it holds returns the agreed value (`return best.rank;`).
      if (Receiver && (!isa<CXXThisExpr>(Receiver->IgnoreParenImpCasts()) ||
                       ObjectVaries)) {
        Taint O = eval(Receiver, S);
        // A local object whose field this path wrote (`loader.rows.assign(n,
        // x)`): what the method reads of it is what this object holds.
        if (const auto *DR = dyn_cast<DeclRefExpr>(strip(Receiver));
            DR && !O.Vary)
          if (const auto *Base = dyn_cast<VarDecl>(DR->getDecl()))
            for (auto It = S.lower_bound(StateKey(Base));
                 It != S.end() && It->first.Var == Base; ++It)
              if (It->first.Field && It->first.Index < 0 && It->second.Vary &&
                  !It->second.ContentOnly &&
                  readsOwnField(Def ? Def : Callee, It->first.Field)) {
                O.Vary = true;
                O.Origin = It->second.Origin;
                break;
              }
        if (O.Vary && (!T.Vary || T.ContentOnly) &&
            readsObject(Def ? Def : Callee)) {
          ObjectReach Reach = objectReachesReturn(Def ? Def : Callee, O.Origin);
          if (Reach != ObjectReach::No && !T.Vary) {
            T.Vary = true;
            T.Origin = O.Origin;
            T.ContentOnly = Reach == ObjectReach::Values;
          } else if (Reach == ObjectReach::Whole) {
            T.shapeDiffers();
          }
        }
      }
    }
    return T;
  }

  // A project function defined in another translation unit, or one called
  // through a function pointer (its targets are the program's own): not a
  // rank source unless a table or config says so (those rows returned
  // above). Only rank-local data it is given (a loss, a file's contents) can
  // make its result differ; what it writes through pointers is not modelled.
  bool ThroughPointer =
      !Callee && Call->getCallee()->getType()->isFunctionPointerType();
  if (ThroughPointer ||
      (Callee && !Callee->hasBody() && E.isUserCode(Callee))) {
    Taint T;
    T.UniformContent = !isTensorType(Call->getType());
    // An API's own function that the tables do not list returns a status
    // code (MPI's int, ncclResult_t, cudaError_t); the data it produces
    // goes through its out-parameters.
    bool ApiHeader = isApiHeaderDecl(E, Callee);
    if (ApiHeader && Call->getType()->isIntegralOrEnumerationType())
      return T;
    auto Local = [&](const Expr *A) {
      Taint AT = eval(A, S);
      if (AT.Vary && AT.Origin.Kind == VaryKind::LocalData && !T.Vary) {
        T.Vary = true;
        T.Origin = AT.Origin;
      }
    };
    if (Receiver)
      Local(Receiver);
    // An API's own header is const-correct: a buffer it takes through a
    // pointer to non-const data is where it writes.
    for (unsigned I = 0; I < Args.size(); ++I)
      if (!ApiHeader || !isWrittenBuffer(Callee, I, Args[I]))
        Local(Args[I]);
    return T;
  }

  // Unknown (library) function: the result depends on what it reads.
  // Smart-pointer tests (operator bool, ==, !=, !) read the pointer only;
  // other calls through `p->` read the object.
  bool TestsPointer = false;
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee))
    TestsPointer =
        isa<CXXConversionDecl>(MD) && MD->getReturnType()->isBooleanType();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call))
    TestsPointer = OC->getOperator() == OO_EqualEqual ||
                   OC->getOperator() == OO_ExclaimEqual ||
                   OC->getOperator() == OO_Exclaim;
  auto Operand = [&](const Expr *A) {
    Taint AT = eval(A, S);
    if (TestsPointer)
      return AT.pointerValue();
    if (!Call->getType()->isPointerType())
      AT.PointeeOnly = false;
    return AT;
  };
  Taint T;
  T.UniformContent = true;
  bool TensorInput = false;
  bool MethodOnNonTensor = false;
  // The parameters that reach arguments which may give the result its shape.
  uint64_t ShapeGivers = 0;
  if (Receiver) {
    Taint O = Operand(Receiver);
    T.join(O);
    ShapeGivers |= O.Params;
    if (isTensorType(Receiver->getType()))
      TensorInput = true;
    else if (!O.UniformContent || !isa<CXXOperatorCallExpr>(Call))
      MethodOnNonTensor = true;
  }
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *A = Args[I];
    if (isa<LambdaExpr>(strip(A)))
      continue;
    // A buffer handed through a pointer to non-const data is where the call
    // writes (MPI_File_read, fread, a copy's destination), not what its
    // result is computed from: const-correct C APIs take inputs as const.
    if (isWrittenBuffer(Callee, I, A))
      if (Taint Buffer = eval(A, S);
          Buffer.Vary && (Buffer.ContentOnly || Buffer.PointeeOnly))
        continue;
    Taint AT = Operand(A);
    if (isTensorType(A->getType()))
      TensorInput = true;
    else
      AT.UniformContent = true;
    T.join(AT);
    if (!optionsArgument(Callee, I, A, E.context()) &&
        !viewOffsetArgument(Callee, I))
      ShapeGivers |= AT.Params;
    // An iterator into a container (`v.begin()` reads its shape only): the
    // call reads the elements it ranges over (max_element's position,
    // accumulate's sum).
    if (const auto *It = dyn_cast<CXXMemberCallExpr>(strip(A));
        It && !It->getType()->isIntegralOrEnumerationType() &&
        E.apiRole(It, Role::ShapeQuery))
      if (Taint Elements = eval(It->getImplicitObjectArgument(), S);
          Elements.depends()) {
        Elements.PointeeOnly = false;
        T.join(Elements);
      }
  }
  (void)TensorInput;
  // A tensor built with a parameter's options or fill value
  // (`zeros({n}, t.options())`) has that parameter in its elements only.
  if (isTensorType(Call->getType()))
    T.ElementParams |= T.Params & ~ShapeGivers;
  // A container's element of a broadcast's message (`sizes[i++]`), as for
  // a built-in array (eval).
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
      OC && OC->getOperator() == OO_Subscript && Receiver && Args.size() == 1 &&
      !T.depends())
    if (uint64_t Name = messageElementName(eval(Receiver, S), Args[0], S))
      T.ValueKey = Name;
  if (MethodOnNonTensor && isTensorType(Call->getType()))
    T.UniformContent = false;
  T.Range.reset();
  // A scalar computed from the contents varies with them; an object (a
  // tensor, a dataset, a loader) has the shape of what it was built from.
  QualType RT = Call->getType();
  T.ShapeKey = resultShapeKey(Call, Callee, Receiver, Args, S);
  T.ShapePending = false;
  uint8_t Dims =
      T.ShapeKey || !T.Vary || RT->isArithmeticType() || RT->isEnumeralType()
          ? 0
          : resultVaryingDims(Call, Callee, Receiver, Args, S);
  T.ContentOnly =
      T.Vary && !RT->isArithmeticType() && !RT->isEnumeralType() && !Dims;
  T.VaryingDims = Dims ? Dims : Taint::AllDims;
  // In a helper, the callers' values of what selects the elements decide
  // the result's shape.
  if (const Expr *Decides = valuesDecidingShape(Callee, Receiver, Args))
    T.ShapeParams |= eval(Decides, S).Params;
  return T;
}

} // namespace distlint
