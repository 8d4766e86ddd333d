//===- UniformityAnalysis.h - Which values differ between ranks -*- C++ -*-===//
//
// The forward rank-uniformity data-flow of one function: expression
// evaluation (Eval.cpp), calls and their side effects (Calls.cpp), the
// shapes of call results (Shapes.cpp), the per-element transfer and the
// fixpoint (Transfer.cpp). Results go to the
// function's FunctionResult; facts about fields, globals and
// sub-communicators go to the AnalysisManager.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/AnalysisManager.h"
#include "engine/UserCode.h"
#include "engine/ast/AstHelpers.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <vector>

namespace distlint {

/// A call as the API model sees it: the object of a method call (also of
/// a member operator) and the explicit arguments.
std::pair<const clang::Expr *, llvm::ArrayRef<const clang::Expr *>>
splitCall(const clang::CallExpr *Call, const clang::FunctionDecl *Callee);

/// The name of the uniform value Value computes (Taint::ValueKey), or 0.
/// The range of an integer of type Ty moved by Step (`++i`, `i--`); none
/// where that may overflow or an unsigned value may wrap.
std::optional<IntRange> steppedRange(std::optional<IntRange> R,
                                     clang::QualType Ty, int Step);
uint64_t valueKeyOf(const clang::Expr *Value, const Taint &T,
                    const clang::ASTContext &Ctx);

class UniformityAnalysis {
public:
  UniformityAnalysis(Engine &E, const clang::FunctionDecl *FD,
                     FunctionResult &R)
      : E(E), P(*E.P), FD(FD), R(R) {}

  /// X's taint in state S (on a path of a one-rank world: agreed).
  Taint eval(const clang::Expr *X, const VarState &S);
  /// A condition that compares the rank with one number (`rank == 0`,
  /// `rank != 2`, `!rank`, `rank`): that rank, and whether the condition is
  /// true for it alone (else for every other rank).
  struct RankTest {
    int64_t Rank;
    bool TrueForRank;
  };
  std::optional<RankTest> rankTest(const clang::Expr *Cond, const VarState &S);
  void transfer(const clang::CFGElement &El, VarState &S, const Taint &Ctl);
  /// Join of the branches B is control-dependent on. Fail-stop guards are
  /// skipped unless asked for: code after `if (err) exit(1)` runs on every
  /// rank that is still alive.
  Taint controlTaint(const clang::CFGBlock *B, bool WithFailStopGuards = false);
  /// The body's exit arms taken on some ranks only (FunctionBody::HangArms),
  /// by the branch taints of the round before.
  llvm::SmallPtrSet<const clang::CFGBlock *, 8> hangArms();
  /// The block whose elements transfer() is given next.
  void enterBlock(const clang::CFGBlock *B) {
    CurrentBlock = B;
    CurrentElement = 0;
  }
  /// Of Ctl (the current block's control), what the branches taken since
  /// VD's declaration give: those around the declaration hold on every
  /// path where VD exists.
  Taint controlSinceDeclaration(const clang::VarDecl *VD, const Taint &Ctl);
  /// The fixpoint: rounds of the data-flow under the control taint of the
  /// previous round's branches until those stop changing.
  void run();
  /// The last round of an earlier run() again, from the control taint it
  /// ran under (FunctionResult::ControlSeed): the same states, one round.
  void rerun(llvm::ArrayRef<FunctionResult::SeedBranch> ControlSeed);
  /// Replays B's elements up to (not including) the one that is or
  /// contains Target; returns the state there.
  VarState stateBefore(const clang::CFGBlock *B, const clang::Stmt *Target);
  /// The state on entry: out-parameters hold what the caller passed in.
  VarState entryState();
  /// What variable VD holds in state S (a lambda's capture at its call).
  Taint variable(const clang::VarDecl *VD, const VarState &S) {
    return varTaint(VD, S);
  }
  /// What the call passes as parameter Index of a function whose result is
  /// Callee: the argument's value, joined with what the fields the callee
  /// reads of that object (FunctionResult::ParamFieldReads) hold here.
  Taint passedArgument(const FunctionResult &Callee, unsigned Index,
                       const clang::Expr *Arg, const VarState &S);

private:
  Engine &E;
  AnalysisManager &P;
  const clang::FunctionDecl *FD;
  FunctionResult &R;

  /// A field read: what this path agreed on, else what the TU wrote there.
  Taint evalMember(const clang::MemberExpr *M, const VarState &S);
  /// Is `M` a read of field F of a parameter object the body never writes
  /// (its value is the caller's object's)? Records it in R.ParamFieldReads.
  bool readsCallersField(const clang::MemberExpr *M, const clang::FieldDecl *F);
  /// Records that the body reads field F of parameter object PD, which it
  /// never writes (FunctionResult::ParamFieldReads); false when PD is no
  /// such parameter or the budget is spent.
  bool noteParamFieldRead(const clang::ParmVarDecl *PD,
                          const clang::FieldDecl *F);

  void runRounds(int Rounds);
  Taint varTaint(const clang::VarDecl *VD, const VarState &S);
  /// A local struct given a value field by field: a braced list, or a
  /// call whose summary returns its fields (FunctionResult::ReturnFields).
  void assignFields(const clang::VarDecl *VD, const clang::Expr *Value,
                    VarState &S, const Taint &Ctl);
  /// The fields a return statement gives back, joined over the returns.
  void noteReturnedFields(const clang::Expr *Value, const VarState &S,
                          const Taint &Ctl);
  Taint evalExpr(const clang::Expr *X, const VarState &S);
  /// The fields a callee stores its parameters in (ParamFields) get what
  /// this call passes there.
  void noteParamFieldWrites(
      const llvm::MapVector<const clang::FieldDecl *,
                            FunctionResult::ParamFieldWrite> &ParamFields,
      llvm::ArrayRef<const clang::Expr *> Args, const VarState &S,
      const Taint &Ctl);
  void constructionEffects(const clang::CXXConstructExpr *CE, const VarState &S,
                           const Taint &Ctl);
  Taint evalCall(const clang::CallExpr *Call, const VarState &S);
  bool buildsListedClass(clang::QualType T);
  /// Is X (of value T) the uniform result of a user function that issues
  /// collectives (a broadcast in `receive()`)?
  bool agreedByCollectives(const clang::Expr *X, const Taint &T);
  Taint evalCompare(clang::BinaryOperatorKind Op, const Taint &L,
                    const Taint &Rt);
  /// The operand whose values decide a call's result shape (a
  /// ShapeFromValues row: `mask.nonzero()`), or null.
  const clang::Expr *
  valuesDecidingShape(const clang::FunctionDecl *Callee,
                      const clang::Expr *Receiver,
                      llvm::ArrayRef<const clang::Expr *> Args);
  /// Which dimensions of a library call's result differ between ranks
  /// (Taint::VaryingDims; 0: its shape is uniform)? It follows the objects
  /// it is computed from and the arguments that are sizes (int-array
  /// parameters, SizeArgument rows); other scalars (a fill value, a device,
  /// an offset) only change values. A view along one dimension (narrow,
  /// slice) keeps its receiver's other dimensions.
  uint8_t resultVaryingDims(const clang::CallExpr *Call,
                            const clang::FunctionDecl *Callee,
                            const clang::Expr *Receiver,
                            llvm::ArrayRef<const clang::Expr *> Args,
                            const VarState &S);
  /// The dimensions a size list passed as an argument gives differing
  /// extents (`{local_rows, 6}`: dimension 0); every one when it is not a
  /// braced list.
  uint8_t sizeListVaryingDims(const clang::Expr *A, const VarState &S);
  /// Hash of a tensor result's shape when its size/shape argument is a
  /// constant list; 0 otherwise.
  /// The shape key of a braced list of tensors that all have one.
  uint64_t listShapeKey(const clang::Expr *List, const VarState &S);
  /// A call that returns the part of its receiver between two indices
  /// (api::Role::SizeRange): is the width of that range rank-dependent?
  bool rangeWidthVaries(const clang::FunctionDecl *Callee,
                        llvm::ArrayRef<const clang::Expr *> Args,
                        const VarState &S);
  /// A library method run on a local object or a field of this one
  /// (`push_back(x)`, `resize(n)`, uniformity/Containers.cpp): the object
  /// holds what it was given.
  void libraryMethodEffects(const clang::CallExpr *Call,
                            const clang::FunctionDecl *Callee,
                            const clang::Expr *Receiver,
                            llvm::ArrayRef<const clang::Expr *> Args,
                            VarState &S, const Taint &Ctl);
  /// Sequences passed by non-const reference to parameters of Callee not
  /// in KeptParams (a mask) may have been resized: their length keys go.
  void forgetSequenceLengths(const clang::FunctionDecl *Callee,
                             llvm::ArrayRef<const clang::Expr *> Args,
                             uint64_t KeptParams, VarState &S);
  /// The length key a value sequence gets from its constructor (a copy's,
  /// `vector(n, v)`'s from the name of n, a braced list's count), or 0.
  uint64_t sequenceLengthKey(const clang::CXXConstructExpr *Ctor,
                             const VarState &S);
  uint64_t scalarOperatorShapeKey(const clang::Expr *Receiver,
                                  llvm::ArrayRef<const clang::Expr *> Args,
                                  const VarState &S);
  /// The shape key of a call's tensor result: a constant size argument, an
  /// operator with numbers, a SameShape row's input; 0 when none fixes it.
  uint64_t resultShapeKey(const clang::CallExpr *Call,
                          const clang::FunctionDecl *Callee,
                          const clang::Expr *Receiver,
                          llvm::ArrayRef<const clang::Expr *> Args,
                          const VarState &S);
  /// A SameShape call's (api tables): the shape key of its receiver, or of
  /// its first tensor argument.
  uint64_t sameShapeKey(const clang::FunctionDecl *Callee,
                        const clang::Expr *Receiver,
                        llvm::ArrayRef<const clang::Expr *> Args,
                        const VarState &S);
  uint64_t constantShapeKey(const clang::FunctionDecl *Callee,
                            llvm::ArrayRef<const clang::Expr *> Args);
  void assignVar(const clang::VarDecl *VD, Taint T, VarState &S, bool Strong);
  void assignLValue(const clang::Expr *LHS, Taint T, VarState &S, bool Strong);
  void callEffects(const clang::CallExpr *Call, VarState &S, const Taint &Ctl);
  /// The buffers a kernel launch (or a project function whose body is in
  /// another file) writes, when all it may read agrees here: then they hold
  /// agreed contents after it (uniformity/DeviceOutputs.cpp).
  struct DeviceOutputs {
    llvm::SmallVector<const clang::Expr *, 4> Buffers;
    uint64_t Params = 0; ///< The function's parameters their contents follow.
  };
  DeviceOutputs agreedDeviceOutputs(const clang::CallExpr *Call,
                                    const clang::FunctionDecl *Callee,
                                    llvm::ArrayRef<const clang::Expr *> Args,
                                    const VarState &S);
  /// `c = sub` or `*out = sub`: a copy of a sub-communicator is one too
  /// (through a pointer parameter: the callers' communicator it points to).
  void noteSubCommunicatorCopy(const clang::BinaryOperator *Assign);
  /// X calls a project function that returns a sub-communicator on every
  /// path.
  bool returnsSubCommunicator(const clang::Expr *X);
  /// Is X a sub-communicator: MPI_COMM_SELF, a variable or a field that
  /// holds one, a split's or such a function's result?
  bool holdsSubCommunicator(const clang::Expr *X);
  /// The communicator X written into field F (`ctx.comm = X`, a member
  /// initializer): the field holds a sub-communicator only if every such
  /// write is one. The null communicator says nothing.
  void noteFieldCommunicatorWrite(const clang::FieldDecl *F,
                                  const clang::Expr *X);
  bool returnsOnlySubCommunicators(const clang::FunctionDecl *Def);
  /// Does X build a process group (`make_intrusive<ProcessGroupGloo>(...)`)
  /// that only the ranks taking this path join (model::createdByMembersOnly)?
  bool buildsGroupOfMembers(const clang::Expr *X, const VarState &S,
                            const Taint &Ctl);
  /// Target (a variable or a field) holds the group X builds: a
  /// sub-communicator when only its members build it.
  void noteGroupOfMembers(const clang::VarDecl *VD, const clang::Expr *X,
                          const VarState &S, const Taint &Ctl);
  void noteGroupOfMembers(const clang::Expr *Target, const clang::Expr *X,
                          const VarState &S, const Taint &Ctl);
  /// The variables a buffer argument designates (and the tensors they
  /// hold) are the same on every rank from here on.
  /// Buffer holds the same contents on every rank from here on (given the
  /// parameters in Params: the same where the callers pass the same).
  void markUniform(const clang::Expr *Buffer, VarState &S, uint64_t Params = 0);
  /// Every field of the struct Base holds agrees on this path.
  void markFieldsAgreed(const clang::VarDecl *Base, VarState &S);
  /// A local struct whose every field this path has agreed on, one by one
  /// (`cfg = parse()` on the root, then each field broadcast): the whole
  /// object agrees, as handed to calls or copied.
  void settleAgreedObject(const clang::VarDecl *Base, VarState &S);
  /// `this->F = T` on this path: kept while it agrees (StateKey::thisField).
  void noteOwnFieldWrite(const clang::FieldDecl *F, const Taint &T,
                         VarState &S);
  /// The analysis as the API model's transfers see it (Calls.cpp).
  class ModelEnvAt;
  /// Records a write of user field F (TU-wide facts: may it vary, its
  /// range, which parameters reach it).
  /// The member object X designates (`this->settings_`, `settings_`): a
  /// field of the object the method runs on, of class type; else null.
  static const clang::FieldDecl *ownMemberObject(const clang::Expr *X);
  /// Member object F changes with values that differ between ranks (a
  /// field of it written, a method of it run): this path no longer knows it
  /// agreed, and this function is one of its varying writers.
  void noteWholeWrite(const clang::FieldDecl *F, VarState &S);
  /// A project method run on another object (Receiver) under a branch
  /// (Ctl): the fields it may write hold what only some ranks stored.
  void noteMethodUnderBranch(const clang::CXXMethodDecl *Method,
                             const clang::Expr *Receiver, VarState &S,
                             const Taint &Ctl);
  /// A project method run on member object Whole (`settings_.parse(p)`).
  void noteMemberObjectMethod(const clang::CXXMethodDecl *Method,
                              const clang::FieldDecl *Whole, VarState &S,
                              const Taint &Ctl);
  /// OwnedObject: the field of a local object of this function (by value).
  void noteFieldWrite(const clang::FieldDecl *F, const Taint &T,
                      bool OwnedObject = false);
  /// Return value of a user function called with these argument values,
  /// when an argument names a launcher variable; nullopt otherwise.
  std::optional<Taint>
  specializedReturn(const clang::FunctionDecl *Callee,
                    llvm::ArrayRef<const clang::Expr *> Args,
                    const VarState &S);
  /// Bound parameter values of a specialized analysis.
  const std::vector<Taint> *BoundArgs = nullptr;

  /// Set in the analysis that asks whether a method's object reaches its
  /// result: every read of the object (`this`, its fields) varies from
  /// this origin, and nothing is recorded in the TU's facts.
  std::optional<VaryOrigin> ObjectVaries;
  /// Callee's return value in an analysis of its body of its own, set up by
  /// Configure (bound arguments, a varying object); nullopt past
  /// Budget::SpecializationBlocks or SpecializationDepth.
  std::optional<Taint>
  scratchReturn(const clang::FunctionDecl *Callee,
                llvm::function_ref<void(UniformityAnalysis &)> Configure);
  /// Do the TU's field facts say what any one object holds in F?
  bool factsPerField(const clang::FieldDecl *F);
  /// A closure's value: what its result depends on among the captures, as
  /// the enclosing function holds them where the closure is made.
  Taint closureTaint(const clang::LambdaExpr *L, const VarState &S);
  std::optional<int64_t> foldedConstantCall(const clang::Expr *X);
  /// How much of what Method's object holds reaches its result?
  /// (Conservatively Whole past Budget::SpecializationBlocks and
  /// SpecializationDepth.)
  ObjectReach objectReachesReturn(const clang::FunctionDecl *Method,
                                  const VaryOrigin &Origin);

public:
  void bindArguments(const std::vector<Taint> *Args) { BoundArgs = Args; }
  void assumeObjectVaries(const VaryOrigin &O) { ObjectVaries = O; }

private:
  /// Set while transferring a block under a rank-varying branch.
  bool ControlVaries = false;

  // Broadcast messages (Broadcasts.cpp).
  /// The name of the message Call (a broadcast) carries, or 0 when paths
  /// to it issue different numbers of broadcasts of its signature first.
  uint64_t broadcastKey(const clang::CallExpr *Call);
  /// What a broadcast's arguments say of its message (0: not a broadcast).
  uint64_t broadcastSignature(const clang::CallExpr *Call);
  void receiveBroadcast(const clang::CallExpr *Call, const api::ApiEntry &Row,
                        VarState &S);
  /// `B[8] = n_cases`: the element entry remembers the variable it copies;
  /// the other elements keep theirs (Kept: B's element entries before).
  using ElementEntries = llvm::SmallVector<std::pair<StateKey, Taint>, 4>;
  ElementEntries elementEntries(const clang::Expr *LHS, const VarState &S);
  void noteElementCopy(const clang::BinaryOperator *Assign, VarState &S,
                       const ElementEntries &Kept);
  /// The name of the element of Buffer's broadcast message read at Index
  /// (a constant, or a counter the data-flow knows), or 0.
  uint64_t messageElementName(const Taint &Buffer, const clang::Expr *Index,
                              const VarState &S);
  /// Element Index of Buffer now copies Value, when it is a local variable
  /// or a field of the object the method runs on.
  void noteCopyInto(const clang::VarDecl *Buffer, int64_t Index,
                    const clang::Expr *Value, VarState &S);
  /// Does only rank Rank run S (inside `if (rank == Rank)`, or the else of
  /// `if (rank != Rank)`), the rank read as the state Here holds it?
  bool onlyRankRuns(const clang::Stmt *S, int64_t Rank, const VarState &Here);
  /// Field F of the object was written: elements that copied it hold an
  /// older value.
  void forgetCopiesOfField(const clang::FieldDecl *F, VarState &S);
  /// `int info[] = {n, m}`: element I copies the I-th variable listed.
  void noteInitializerCopies(const clang::VarDecl *Buffer, VarState &S);
  /// VD was written: elements that copied it hold an older value.
  void forgetCopiesOf(const clang::VarDecl *VD, VarState &S);
  llvm::DenseMap<const clang::CallExpr *, uint64_t> BroadcastKeys,
      BroadcastSignatures;
  /// The range a range-for's reference variable is an element of: writes
  /// through it (`for (auto &g : grads) g = rank;`) write the range's
  /// contents.
  llvm::SmallDenseMap<const clang::VarDecl *, const clang::Expr *, 4>
      RangeOfElement;
  void assignRangeElement(const clang::Expr *Range, Taint T, VarState &S);
  bool CopiesIntoElements = false;
  const clang::CFGBlock *CurrentBlock = nullptr;
  /// The control the statement being transferred runs under (transfer).
  const Taint *WriteControl = nullptr;
  /// The varying field writes of the round being run, by site (field,
  /// block): whether a site is on some ranks only is its control's, which
  /// the first rounds do not know yet, so the last round's go into the TU's
  /// facts (runRounds; at once outside the rounds).
  struct SiteWrite {
    Taint Value;
    unsigned Element = ~0u; ///< The first write's element in its block.
    bool SomeRanksOnly = false;
    /// On some ranks only, and agreed by a collective of this function on
    /// every path before the object can be seen (agreedBeforeSeen).
    bool AgreedHere = false;
  };
  llvm::DenseMap<std::pair<const clang::FieldDecl *, unsigned>, SiteWrite>
      RoundFieldWrites;
  bool InRounds = false;
  void commitFieldWrites();
  /// Where, in the replay, a collective agrees a field (Agreed) or a call is
  /// handed an object of class Object (null: the method's own object).
  struct FieldEvent {
    const clang::CFGBlock *Block;
    unsigned Element;
    const clang::FieldDecl *Agreed;
    const clang::RecordDecl *Object;
  };
  std::vector<FieldEvent> FieldEvents;
  bool RecordingFieldEvents = false;
  unsigned CurrentElement = 0;
  void noteAgreedHere(const clang::FieldDecl *F);
  void noteObjectSeen(const clang::RecordDecl *Object);
  /// Decides SiteWrite::AgreedHere for the round's sites (the replay's
  /// events): does every path from the write reach an agreement of the
  /// field before the function returns or hands the object to a call?
  void decideWriterAgreement();
  using EventsByBlock =
      llvm::DenseMap<const clang::CFGBlock *,
                     llvm::SmallVector<const FieldEvent *, 2>>;
  /// Is argument I where a view of a given length starts (`narrow(0,
  /// start, n)`'s start): it picks the elements, not how many?
  bool viewOffsetArgument(const clang::FunctionDecl *Callee, unsigned I);
  bool agreedBeforeSeen(const clang::FieldDecl *F, const clang::CFGBlock *Block,
                        unsigned Element, const EventsByBlock &EventsOf);
  /// Fields this function writes values into that differ between ranks.
  llvm::SmallPtrSet<const clang::FieldDecl *, 4> VaryWrittenFields;
  /// Tells the TU whether each of them holds an agreed value wherever the
  /// object can be seen from outside this function -- where it returns and
  /// where it calls a method of the object or hands it to a call -- when it
  /// is a method of the field's class, a constructor included (End: the
  /// state where it returns; null when it never does).
  void noteWriterAgreement(const VarState *End);
  /// A point where the object escapes (S: the state there), counted in the
  /// last replay of the function only.
  void noteObjectEscape(const VarState &S);
  bool CountingEscapes = false;
  struct Escape {
    /// Fields agreed there, and those written rank-dependent values before
    /// it in the replay's order (an escape in a loop may follow any write).
    llvm::SmallPtrSet<const clang::FieldDecl *, 8> Agreed, WrittenBefore;
    bool InLoop = false;
  };
  std::vector<Escape> Escapes;
  llvm::DenseMap<const clang::VarDecl *, const clang::CFGBlock *> DeclBlocks;
  bool DeclBlocksBuilt = false;
  bool isLocal(const clang::VarDecl *VD) const {
    return VD->hasLocalStorage() && owningFunction(VD) == FD;
  }
  /// An object this function holds by value (a local or a by-value
  /// parameter): what is stored into it is no caller's object.
  bool ownsObject(const clang::VarDecl *VD) const {
    return VD && isLocal(VD) && !VD->getType()->isReferenceType() &&
           !VD->getType()->isPointerType();
  }
};

} // namespace distlint
