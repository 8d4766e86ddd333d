//===- ApiModel.cpp - The role -> transfer table --------------------------===//
#include "engine/model/ApiModel.h"
#include "api/CopyKinds.h"
#include "engine/ast/AstHelpers.h"

#include "clang/AST/ExprCXX.h"

#include <cassert>

using namespace clang;

namespace distlint {
namespace model {

using api::Role;

namespace {

Taint rankValue(SourceLocation Loc, std::string What = "rank") {
  Taint T = Taint::varying(VaryKind::Rank, Loc, std::move(What));
  T.Range = IntRange{{0, 0}, {1, -1}};
  return T;
}

/// The rank a process has in the communicator of the call (not a known
/// sub-communicator, whose ranks are not the world's).
Taint ownRank(const CallModelContext &C, ModelEnv &Env) {
  const Expr *Comm = C.Receiver ? C.Receiver : C.arg(C.Row.Args.Comm);
  if (Comm && Env.isSelfCommunicator(Comm))
    return Taint::constant(0);
  Taint T = rankValue(C.loc());
  T.IsRank = !(Comm && Env.isSubCommunicator(Comm));
  // Among the members of a sub-communicator, its rank still tells them
  // apart: a branch on it around a collective on that communicator.
  if (!T.IsRank)
    T.Origin.Comm = communicatorDecl(Comm);
  return T;
}

Taint worldSizeValue() {
  Taint T;
  T.Range = IntRange{{1, 0}, {1, 0}};
  return T;
}

/// The size of the call's communicator: the world's, or between 1 and the
/// world's for a known sub-communicator.
Taint communicatorSize(const CallModelContext &C, ModelEnv &Env) {
  Taint T = worldSizeValue();
  const Expr *Comm = C.Receiver ? C.Receiver : C.arg(C.Row.Args.Comm);
  if (Comm && Env.isSelfCommunicator(Comm))
    return Taint::constant(1);
  if (Comm && Env.isSubCommunicator(Comm))
    T.Range = IntRange{{0, 1}, {1, 0}};
  return T;
}

Taint uniformContent() {
  Taint T;
  T.UniformContent = true;
  return T;
}

//===--- Return transfers -------------------------------------------------===//

/// `int r = dist.get_rank();` gives the rank; `MPI_Comm_rank(c, &r)`
/// returns a status (its effect writes the rank).
std::optional<Taint> rankSourceReturn(const CallModelContext &C,
                                      ModelEnv &Env) {
  if (C.Row.Args.Out >= 0)
    return Taint();
  return ownRank(C, Env);
}

std::optional<Taint> worldSizeReturn(const CallModelContext &C, ModelEnv &Env) {
  if (C.Row.Args.Out >= 0)
    return Taint();
  return communicatorSize(C, Env);
}

/// Clocks, random numbers, files. Random tensors: their values differ, their
/// shape is what was asked.
std::optional<Taint> localDataReturn(const CallModelContext &C, ModelEnv &Env) {
  Taint T = Taint::varying(VaryKind::LocalData, C.loc(),
                           "rank-local value (clock, random number, file "
                           "system or local data)");
  if (isTensorType(C.Call->getType())) {
    uint8_t Dims = Env.resultVaryingDims();
    T.ContentOnly = !Dims;
    T.VaryingDims = Dims ? Dims : Taint::AllDims;
    T.ShapeKey = Env.resultShapeKey();
  }
  return T;
}

/// Is T a standard stream (a class derived from std::basic_ios)?
bool derivesFromBasicIos(const CXXRecordDecl *RD, unsigned Depth = 0) {
  if (!RD || Depth > 8)
    return false;
  if (RD->getName() == "basic_ios" && RD->isInStdNamespace())
    return true;
  if (!RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &B : RD->getDefinition()->bases())
    if (derivesFromBasicIos(B.getType()->getAsCXXRecordDecl(), Depth + 1))
      return true;
  return false;
}

bool isStreamType(QualType T) {
  return derivesFromBasicIos(T.getNonReferenceType()->getAsCXXRecordDecl());
}

/// The stream a read returned (`std::getline(in, line)`, `in >> a >> b`):
/// the stream object it read from, through the chain; null when X is not a
/// read that returns its stream.
const Expr *streamReadFrom(const Expr *X) {
  const Expr *Stream = nullptr;
  for (X = X->IgnoreParenImpCasts(); const auto *Call = dyn_cast<CallExpr>(X);
       X = Stream->IgnoreParenImpCasts()) {
    if (!isStreamType(Call->getType()))
      break;
    const Expr *From = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      From = MC->getImplicitObjectArgument();
    else if (Call->getNumArgs() > 0)
      From = Call->getArg(0); // getline(in, s), operator>>(in, x)
    if (!From || !isStreamType(From->getType()))
      break;
    Stream = From;
  }
  return Stream;
}

/// A stream's state: on what a read returned, whether the input ended,
/// which is as uniform as what the stream reads (a file named alike on
/// every rank holds the same lines); on the stream itself, whether the
/// file opened on this node.
std::optional<Taint> streamStateReturn(const CallModelContext &C,
                                       ModelEnv &Env) {
  const Expr *Tested = C.Receiver ? C.Receiver : C.arg(0);
  if (!Tested)
    return std::nullopt;
  if (const Expr *Stream = streamReadFrom(Tested)) {
    Taint Source = Env.eval(Stream);
    if (!Source.Vary)
      return Taint();
    Taint T = Taint::varying(VaryKind::LocalData, C.loc(),
                             "end of input read from a file or string that "
                             "differs between ranks");
    T.Params = Source.Params;
    return T;
  }
  return Taint::varying(VaryKind::LocalData, C.loc(),
                        "rank-local value (whether a file opened on this "
                        "node's file system)");
}

/// `t.item()`: the tensor's value on the host, uniform if the tensor's
/// contents are known to be (after a collective).
std::optional<Taint> tensorReadReturn(const CallModelContext &C,
                                      ModelEnv &Env) {
  Taint Obj = C.Receiver ? Env.eval(C.Receiver)
                         : (C.Args.empty() ? Taint() : Env.eval(C.Args[0]));
  if (Obj.UniformContent && !Obj.Vary)
    return uniformContent();
  if (Obj.Vary)
    return Obj;
  Taint T =
      Taint::varying(VaryKind::LocalData, C.loc(), "rank-local tensor value");
  T.Params = Obj.Params;
  return T;
}

/// getenv: launchers give every rank the same environment except the rank
/// variables, which they always set (the pointer is not null).
std::optional<Taint> envReadReturn(const CallModelContext &C, ModelEnv &Env) {
  int Idx = C.Row.Args.Count >= 0 ? C.Row.Args.Count : 0;
  const Expr *NameArg = C.arg(Idx);
  if (!NameArg)
    return Taint();
  if (const auto *SL = dyn_cast<StringLiteral>(strip(NameArg))) {
    std::string Name = SL->getString().str();
    if (const api::ApiEntry *Var = api::envVariable(Name, Role::RankSource)) {
      Taint T = rankValue(C.loc(), "rank (environment variable " + Name + ")");
      T.NonNull = true;
      T.IsRank = Var->Facts.Scope == api::RankScope::Global;
      return T;
    }
    if (api::envVariable(Name, Role::WorldSizeSource)) {
      Taint T = worldSizeValue();
      T.NonNull = true;
      return T;
    }
    return Taint();
  }
  // A variable name computed elsewhere: the value carries its taint.
  Taint T = Env.eval(NameArg);
  if (T.LauncherVar == LauncherVariable::Rank) {
    T.Range = IntRange{{0, 0}, {1, -1}};
    T.NonNull = true;
    T.LauncherVar = LauncherVariable::None;
    T.UniformContent = false;
    return T;
  }
  if (T.LauncherVar == LauncherVariable::WorldSize && !T.depends()) {
    Taint W = worldSizeValue();
    W.NonNull = true;
    return W;
  }
  T.Range.reset();
  T.UniformContent = false;
  return T;
}

/// atoi / stoi: the number has the taint of its text.
std::optional<Taint> parseReturn(const CallModelContext &C, ModelEnv &Env) {
  const Expr *Text = C.arg(C.Row.Args.Send >= 0 ? C.Row.Args.Send : 0);
  return Text ? Env.eval(Text) : Taint();
}

/// `store->get(key)`: what the key holds, the same for every reader; it
/// differs only when the key does (`"rank" + std::to_string(r)`).
std::optional<Taint> storeReadReturn(const CallModelContext &C, ModelEnv &Env) {
  const Expr *Key = C.arg(0);
  Taint T = Key ? Env.eval(Key) : Taint();
  T.Range.reset();
  T.ShapeKey = 0;
  T.IsRank = false;
  T.UniformContent = !T.depends();
  return T;
}

/// `std::make_unique<Logger>(rank == 0)`: the object holds what the
/// arguments give; the pointer is never null (`if (logger)` is uniform).
std::optional<Taint> allocationReturn(const CallModelContext &C,
                                      ModelEnv &Env) {
  Taint Object;
  Object.UniformContent = true;
  for (const Expr *A : C.Call->arguments())
    Object.join(Env.eval(A));
  return Object.addressOf();
}

/// Collectives and uniform-valued functions return the same on every rank.
std::optional<Taint> uniformReturn(const CallModelContext &, ModelEnv &) {
  return uniformContent();
}

/// A communicator's handle (`make_intrusive<ProcessGroupGloo>(store, rank,
/// size, opts)`): every member passes its own rank to create it, which is
/// what that argument is for, so the rank does not make the handles differ;
/// the other arguments (the store, the size) still do. Rows that write the
/// communicator through an argument return a status code: the next row
/// decides.
std::optional<Taint> commInitReturn(const CallModelContext &C, ModelEnv &Env) {
  if (C.Row.Args.Out >= 0)
    return std::nullopt;
  Taint T = uniformContent();
  for (int I = 0; I < int(C.Args.size()); ++I)
    if (I != C.Row.Args.Rank && C.Args[I])
      T.join(Env.eval(C.Args[I]));
  T.Range.reset();
  T.IsRank = false;
  T.ValueKey = T.ShapeKey = 0;
  return T;
}

/// size() / numel(): the shape of the object, not its contents.
std::optional<Taint> shapeQueryReturn(const CallModelContext &C,
                                      ModelEnv &Env) {
  Taint T = C.Receiver ? Env.eval(C.Receiver) : Taint();
  if (T.Vary && T.ContentOnly)
    T = Taint();
  // `x.size(0)` of a tensor whose other dimensions differ.
  if (const Expr *DimArg = C.arg(C.Row.Args.Dim); DimArg && T.shapeVaries())
    if (Taint D = Env.eval(DimArg);
        D.singleValue() && D.Range->Lo.W == 0 && D.Range->Lo.C >= 0 &&
        D.Range->Lo.C < 7 && !(T.VaryingDims & Taint::dimBit(D.Range->Lo.C)))
      T = Taint();
  T.Params &= ~T.ElementParams; // What reached its elements only.
  T.ElementParams = 0;
  // A size (`x.size(0)`, `v.size()`): what reaches it, other than values
  // that chose the elements, reaches it through the shape. An iterator
  // (`v.begin()`) leads to the elements.
  QualType Result = C.Call->getType().getNonReferenceType();
  T.SizeParams =
      Result->isIntegralOrEnumerationType() || isSizeArrayType(Result)
          ? T.Params & ~T.ShapeParams
          : 0;
  for (const Expr *A : C.Args)
    T.join(Env.eval(A));
  T.Range.reset();
  T.UniformContent = false;
  return T;
}

//===--- Effects transfers ------------------------------------------------===//

/// `MPI_Comm_rank(c, &rank)`.
void rankSourceEffects(const CallModelContext &C, ModelEnv &Env) {
  if (const Expr *Out = C.arg(C.Row.Args.Out)) {
    Taint T = ownRank(C, Env);
    T.addControl(C.Control);
    Env.assign(Out, T);
  }
}

void worldSizeEffects(const CallModelContext &C, ModelEnv &Env) {
  if (const Expr *Out = C.arg(C.Row.Args.Out)) {
    Taint T = communicatorSize(C, Env);
    T.addControl(C.Control);
    Env.assign(Out, T);
  }
}

/// Data loaded from a file (values and length) differs per rank only when
/// the file is chosen by the rank; the same path gives every rank the same
/// data. Other out-parameters (a random fill) are rank-local.
void localDataEffects(const CallModelContext &C, ModelEnv &Env) {
  const Expr *Out = C.arg(C.Row.Args.Out);
  if (!Out)
    return;
  if (const Expr *PathArg = C.arg(C.Row.Args.Send)) {
    Taint Path = Env.eval(PathArg);
    Taint T;
    if (Path.Vary) {
      T = Taint::varying(VaryKind::LocalData, C.loc(),
                         "data loaded from a file chosen by the rank");
    } else {
      T.UniformContent = true;
      T.Params = Path.Params;
    }
    T.addControl(C.Control);
    // A checkpoint loaded into a module fills the parameters its
    // constructor made: which they are and their shapes stay.
    if (T.Vary && Env.isModuleObject(Out))
      T.ContentOnly = true;
    Env.assign(Out, T);
    return;
  }
  std::string What = "rank-local value";
  if (C.Row.Detail && *C.Row.Detail)
    What += std::string(" (") + C.Row.Detail + ")";
  Env.assign(Out, Taint::varying(VaryKind::LocalData, C.loc(), What));
}

void commSplitEffects(const CallModelContext &C, ModelEnv &Env) {
  if (const Expr *Out = C.arg(C.Row.Args.Out))
    Env.noteSubCommunicator(Out);
}

/// A communicator with the members of another has its membership: a copy
/// or merge of a sub-communicator only holds those who called it.
void commDeriveEffects(const CallModelContext &C, ModelEnv &Env) {
  const Expr *From = C.arg(C.Row.Args.Comm);
  if (const Expr *Out = C.arg(C.Row.Args.Out); Out && From) {
    if (Env.isSubCommunicator(From))
      Env.noteSubCommunicator(Out);
    else
      Env.noteOtherCommunicator(Out);
  }
}

/// A communicator created for every rank that calls with its id
/// (ncclCommInitRank): as far as membership goes, the job's, unless only
/// some ranks create it (createdByMembersOnly). One created from a parent
/// (ncclCommSplit, ncclCommShrink) holds whom its CommSplit row says.
void commInitEffects(const CallModelContext &C, ModelEnv &Env) {
  if (C.Row.Args.Comm >= 0)
    return;
  const Expr *Out = C.arg(C.Row.Args.Out);
  if (!Out)
    return;
  std::optional<Taint> Size;
  if (const Expr *SizeArg = C.arg(C.Row.Args.WorldSize))
    Size = Env.eval(SizeArg);
  if (createdByMembersOnly(C.Control, Size ? &*Size : nullptr))
    Env.noteSubCommunicator(Out);
  else
    Env.noteOtherCommunicator(Out);
}

/// Does a write through Dst land in one scalar (`&n`) rather than in the
/// elements of a buffer?
bool intoScalar(const Expr *Dst) {
  const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Dst));
  return AddrOf && AddrOf->getOpcode() == UO_AddrOf &&
         AddrOf->getSubExpr()->getType()->isScalarType();
}

/// A receive buffer whose contents differ between ranks afterwards: a
/// reduce or gather writes it on the root alone (the others keep what they
/// had), a scatter, scan or all-to-all gives each rank its own part. Only
/// the contents differ: the buffer's length is the caller's.
void variedReceiveEffects(const CallModelContext &C, ModelEnv &Env) {
  const Expr *Dst = C.arg(C.Row.Args.RecvVaries);
  if (!Dst || C.Row.Args.Recv == C.Row.Args.RecvVaries)
    return;
  Taint T = Taint::varying(
      VaryKind::LocalData, C.loc(),
      internOriginText(std::string("data received by ") + C.Row.Name +
                       " (a reduce or gather fills the root's buffer alone; "
                       "a scatter, scan or all-to-all gives each rank its "
                       "own part)"));
  T.addControl(C.Control);
  if (!C.Control.Vary)
    T.ContentOnly = !intoScalar(Dst);
  Env.assign(Dst, T);
}

/// In-place / receive buffers hold the same value on every rank now.
void collectiveEffects(const CallModelContext &C, ModelEnv &Env) {
  if (const Expr *Recv = C.arg(C.Row.Args.Recv))
    Env.markUniform(Recv);
  variedReceiveEffects(C, Env);
  if (api::isBroadcast(C.Row))
    Env.receiveBroadcast(C.Row);
}

/// Copies (synchronous, or queued on a stream: what the destination holds
/// once the host reads it) write their destination only (`m->inputs`, not
/// all of `*m`), with the source's values. Device data read back is rank-local
/// unless known uniform; host data keeps its own variance. Where the source
/// lives comes from the kind argument.
void copyEffects(const CallModelContext &C, ModelEnv &Env) {
  const Expr *Dst = C.arg(C.Row.Args.Recv), *Src = C.arg(C.Row.Args.Send);
  if (!Dst || !Src)
    return;
  Taint ST = Env.eval(Src);
  Taint T;
  if (ST.Vary) {
    T = ST;
    T.shapeDiffers();
  } else if (copiesFromDevice(C.arg(C.Row.Args.Flag)) && !ST.UniformContent &&
             baseVar(Src)) {
    T = Taint::varying(VaryKind::LocalData, C.loc(),
                       "rank-local device data copied to the host");
  } else {
    T.UniformContent = ST.UniformContent;
    T.Params = ST.Params;
  }
  T.Range.reset();
  T.addControl(C.Control);
  // Into a buffer: its elements; into a scalar (`&n`): its value.
  if (T.Vary && !C.Control.Vary)
    T.ContentOnly = !intoScalar(Dst);
  Env.assign(Dst, T);
}

/// A fill: the buffer's contents are its value argument's (a constant on
/// every rank: agreed), written under this call's control.
void fillEffects(const CallModelContext &C, ModelEnv &Env) {
  const Expr *Dst = C.arg(C.Row.Args.Recv), *Value = C.arg(C.Row.Args.Value);
  if (!Dst || !Value)
    return;
  Taint V = Env.eval(Value);
  if (!V.depends() && !V.PendingVary) {
    Env.markUniform(Dst);
    return;
  }
  Taint T = V;
  T.Range.reset();
  T.UniformContent = false;
  T.addControl(C.Control);
  if (T.Vary && !C.Control.Vary)
    T.ContentOnly = !intoScalar(Dst);
  Env.assign(Dst, T);
}

/// One row per role, in the enum's order (checked by modelOf and the unit
/// tests). Roles the uniformity data-flow has no transfer for are matched
/// by other engine questions (collective sequences, device syncs, timeouts,
/// data loaders).
const RoleModel Table[] = {
    {Role::Collective, uniformReturn, collectiveEffects},
    {Role::PointToPoint},
    {Role::RankSource, rankSourceReturn, rankSourceEffects},
    {Role::WorldSizeSource, worldSizeReturn, worldSizeEffects},
    {Role::LocalDataSource, localDataReturn, localDataEffects},
    {Role::TensorRead, tensorReadReturn},
    {Role::EnvRead, envReadReturn},
    {Role::EnvWrite},
    {Role::Parse, parseReturn},
    {Role::CommSplit, nullptr, commSplitEffects},
    {Role::CommInit, commInitReturn, commInitEffects},
    {Role::AsyncErrorCheck},
    {Role::DeviceSync},
    {Role::StreamSync},
    {Role::EventSync},
    {Role::ImplicitSync},
    {Role::HostWaitOnDevice, nullptr, copyEffects},
    {Role::TrainingStep},
    {Role::FailStop},
    {Role::TimeoutKnob},
    {Role::ProcessGroupType},
    {Role::StoreType},
    {Role::SamplerType},
    {Role::DataLoaderFactory},
    {Role::SetEpoch},
    {Role::DeviceSelect},
    {Role::UniformValue, uniformReturn},
    {Role::ShapeQuery, shapeQueryReturn},
    {Role::Wait},
    {Role::TimeoutConstant},
    {Role::GroupStart},
    {Role::GroupEnd},
    {Role::DataLoaderIterate},
    {Role::SizeArgument},
    {Role::DeviceLaunch},
    {Role::Clock},
    {Role::HostVisibleAlloc},
    {Role::CommDerive, nullptr, commDeriveEffects},
    // Read where a call's result gets its shape key (sameShapeKey).
    {Role::SameShape},
    {Role::StoreRead, storeReadReturn},
    // Read where device copies land in host buffers (devices/HostReads).
    {Role::ElementStorage},
    {Role::ObjectAllocation, allocationReturn},
    // Read where options are followed to their creation (timeouts/).
    {Role::UntimedOptions},
    {Role::AsyncCopy, nullptr, copyEffects},
    // Read where a call's possible targets are listed (collectives/).
    {Role::VariantDispatch},
    {Role::Fill, nullptr, fillEffects},
    // Read where a call's result gets its shape key (resultShapeKey).
    {Role::FullReduction},
    // Read where a call's result shape is decided (resultVaryingDims).
    {Role::ShapeFromValues},
    {Role::SizeRange},
    {Role::StreamState, streamStateReturn},
    // Read where a load writes into an object (localDataEffects).
    {Role::ModuleType},
};
static_assert(sizeof(Table) / sizeof(Table[0]) == api::NumRoles,
              "one model row per api::Role");

} // namespace

llvm::ArrayRef<RoleModel> apiModel() { return Table; }

const RoleModel &modelOf(Role R) {
  const RoleModel &M = Table[static_cast<unsigned>(R)];
  assert(M.TheRole == R && "model rows follow the enum's order");
  return M;
}

bool copiesFromDevice(const Expr *Kind) {
  const auto *DR = Kind ? dyn_cast<DeclRefExpr>(strip(Kind)) : nullptr;
  const auto *EC = DR ? dyn_cast<EnumConstantDecl>(DR->getDecl()) : nullptr;
  if (EC)
    for (const api::CopyKind &K : api::cudaCopyKinds())
      if (EC->getName() == K.Name)
        return K.FromDevice;
  return true;
}

bool createdByMembersOnly(const Taint &Control, const Taint *Size) {
  if (!Control.Vary)
    return false;
  return !(Size && !Size->depends() && Size->Range == worldSizeValue().Range);
}

} // namespace model
} // namespace distlint
