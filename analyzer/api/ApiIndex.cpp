//===- ApiIndex.cpp - Matching declarations against the API tables --------===//
#include "ApiTable.h"
#include "ProjectFacts.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <map>

using namespace clang;

namespace distlint {
namespace api {

std::string qualifiedName(const NamedDecl *D) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy(D->getASTContext().getLangOpts());
  Policy.SuppressInlineNamespace = true;
  Policy.SuppressUnwrittenScope = true;
  Policy.AnonymousTagLocations = false;
  D->printQualifiedName(OS, Policy);
  return OS.str();
}

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Usr;
  if (!D || index::generateUSRForDecl(D, Usr))
    return {};
  return Usr.str().str();
}

struct ApiIndex::ProjectRows {
  /// Names and details the rows point into (stable: deques never move).
  std::deque<std::string> Strings;
  std::deque<ApiEntry> Rows;
  std::map<std::string, std::vector<const ApiEntry *>> ByUsr;
  llvm::DenseMap<const ApiEntry *, const ProjectFact *> FactOf;
};

ApiIndex::~ApiIndex() = default;

const ProjectFact *ApiIndex::projectFact(const ApiEntry *Row) const {
  if (!Project || !Row || Row->Fam != Family::Project)
    return nullptr;
  return Project->FactOf.lookup(Row);
}

ApiIndex::ApiIndex(const UserApi &User, const ProjectFacts *Facts) {
  if (Facts && !Facts->empty()) {
    Project = std::make_unique<ProjectRows>();
    for (const auto &[Usr, Entry] : Facts->ByUsr)
      for (const ProjectFact &F : Entry.Facts) {
        const char *Name = Project->Strings.emplace_back(Entry.Name).c_str();
        const char *Detail =
            Project->Strings
                .emplace_back(F.What + " at " +
                              llvm::sys::path::filename(F.File).str() + ":" +
                              std::to_string(F.Line))
                .c_str();
        ArgRoles Args;
        Args.Out = static_cast<int8_t>(F.Out);
        Args.Comm = static_cast<int8_t>(F.Comm);
        Args.Recv = static_cast<int8_t>(F.Recv);
        const ApiEntry &Row = Project->Rows.emplace_back(
            Family::Project, F.TheRole, Name, Args, Detail);
        Project->ByUsr[Usr].push_back(&Row);
        Project->FactOf[&Row] = &F;
      }
  }
  for (auto Table : {c10dTable(), ncclTable(), mpiTable(), cudaTable(),
                     torchTable(), stdTable()})
    for (const ApiEntry &Row : Table)
      addRow(Row);
  // User rows keep their names alive in UserNames; reserve first so the
  // c_str() pointers stay valid.
  UserNames.reserve(User.RankSources.size() + User.CollectiveWrappers.size() +
                    User.WorldSizeSources.size());
  UserRows.reserve(UserNames.capacity());
  auto AddUser = [&](const std::string &Name, Role R) {
    UserNames.push_back(Name);
    UserRows.push_back(ApiEntry{Family::User, R, UserNames.back().c_str(), {},
                                "declared in config"});
  };
  for (const std::string &N : User.RankSources)
    AddUser(N, Role::RankSource);
  for (const std::string &N : User.CollectiveWrappers)
    AddUser(N, Role::Collective);
  for (const std::string &N : User.WorldSizeSources)
    AddUser(N, Role::WorldSizeSource);
  for (const ApiEntry &Row : UserRows)
    addRow(Row);
}

void ApiIndex::addRow(const ApiEntry &Row) {
  llvm::StringRef Name(Row.Name);
  Name.consume_front("::");
  ByName[Name].push_back(&Row);
  InOrder.push_back(&Row);
}

std::vector<const ApiEntry *> ApiIndex::byName(llvm::StringRef Name) const {
  Name.consume_front("::");
  auto It = ByName.find(Name);
  if (It == ByName.end())
    return {};
  return It->second;
}

std::vector<const ApiEntry *> ApiIndex::byRole(Role R) const {
  std::vector<const ApiEntry *> Out;
  for (const ApiEntry *E : InOrder)
    if (E->TheRole == R)
      Out.push_back(E);
  return Out;
}

/// Name of a class for table lookups: a template specialization is named by
/// its template ("torch::data::samplers::DistributedSampler").
static std::string recordName(const CXXRecordDecl *RD) {
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    RD = Spec->getSpecializedTemplate()->getTemplatedDecl();
  return qualifiedName(RD);
}

/// Collects the record and its bases (transitively), most derived first.
static void collectBases(const CXXRecordDecl *RD,
                         llvm::SmallVectorImpl<const CXXRecordDecl *> &Out) {
  if (!RD)
    return;
  RD = RD->getDefinition() ? RD->getDefinition() : RD;
  if (llvm::is_contained(Out, RD))
    return;
  Out.push_back(RD);
  if (!RD->hasDefinition())
    return;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const auto *BR = B.getType()->getAsCXXRecordDecl())
      collectBases(BR, Out);
}

llvm::ArrayRef<const ApiEntry *>
ApiIndex::lookup(const FunctionDecl *FD) const {
  if (!FD)
    return {};
  FD = FD->getCanonicalDecl();
  auto Cached = FunctionCache.find(FD);
  if (Cached != FunctionCache.end())
    return Cached->second;

  std::vector<const ApiEntry *> Rows;
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  const FunctionDecl *Named = Pattern ? Pattern : FD;
  // Rows restricted to one overload by parameter count (TCPStore's two
  // constructors, make_data_loader's overloads) skip the others.
  const int NumParams = static_cast<int>(Named->getNumParams());
  auto AddAll = [&](llvm::StringRef Name) {
    auto It = ByName.find(Name);
    if (It != ByName.end())
      for (const ApiEntry *E : It->second)
        if ((E->Args.NumParams < 0 || E->Args.NumParams == NumParams) &&
            !llvm::is_contained(Rows, E))
          Rows.push_back(E);
  };
  AddAll(qualifiedName(Named));
  // Another TU's body, for a function this TU only declares.
  if (Project && !Named->isDefined()) {
    auto It = Project->ByUsr.find(usrOf(Named));
    if (It != Project->ByUsr.end())
      for (const ApiEntry *E : It->second)
        if (!llvm::is_contained(Rows, E))
          Rows.push_back(E);
  }

  if (const auto *MD = dyn_cast<CXXMethodDecl>(Named)) {
    // The method as declared in any base class: inherited calls, user
    // overrides and subclasses all reach the row of the API class.
    llvm::SmallVector<const CXXRecordDecl *, 8> Classes;
    collectBases(MD->getParent(), Classes);
    std::string Method = MD->getNameAsString();
    if (!Method.empty())
      for (const CXXRecordDecl *RD : Classes)
        AddAll(recordName(RD) + "::" + Method);
    llvm::SmallVector<const CXXMethodDecl *, 4> Work(
        MD->overridden_methods().begin(), MD->overridden_methods().end());
    while (!Work.empty()) {
      const CXXMethodDecl *O = Work.pop_back_val();
      AddAll(qualifiedName(O));
      Work.append(O->overridden_methods().begin(),
                  O->overridden_methods().end());
    }
  }
  return FunctionCache[FD] = std::move(Rows);
}

const ApiEntry *ApiIndex::find(const FunctionDecl *FD, Role R) const {
  for (const ApiEntry *E : lookup(FD))
    if (E->TheRole == R)
      return E;
  return nullptr;
}

const ApiEntry *ApiIndex::findType(const CXXRecordDecl *RD, Role R) const {
  llvm::SmallVector<const CXXRecordDecl *, 8> Classes;
  collectBases(RD, Classes);
  for (const CXXRecordDecl *C : Classes) {
    auto It = ByName.find(recordName(C));
    if (It == ByName.end())
      continue;
    for (const ApiEntry *E : It->second)
      if (E->TheRole == R)
        return E;
  }
  return nullptr;
}

const ApiEntry *envVariable(llvm::StringRef Name, Role R) {
  std::string Key = ("env:" + Name).str();
  for (auto Table : {c10dTable(), ncclTable(), mpiTable(), cudaTable(),
                     torchTable(), stdTable()})
    for (const ApiEntry &Row : Table)
      if (Row.TheRole == R && Key == Row.Name)
        return &Row;
  return nullptr;
}

const ApiEntry *ApiIndex::findMember(const NamedDecl *Member, Role R,
                                     const CXXRecordDecl *ObjectClass) const {
  if (!Member)
    return nullptr;
  auto FindIn = [&](llvm::StringRef Name) -> const ApiEntry * {
    auto It = ByName.find(Name);
    if (It == ByName.end())
      return nullptr;
    for (const ApiEntry *E : It->second)
      if (E->TheRole == R)
        return E;
    return nullptr;
  };
  if (const ApiEntry *E = FindIn(qualifiedName(Member)))
    return E;
  if (!ObjectClass)
    return nullptr;
  llvm::SmallVector<const CXXRecordDecl *, 8> Classes;
  collectBases(ObjectClass, Classes);
  std::string Field = Member->getNameAsString();
  for (const CXXRecordDecl *C : Classes) {
    if (const ApiEntry *E = FindIn(recordName(C) + "::" + Field))
      return E;
  }
  return nullptr;
}

const char *roleName(Role R) {
  switch (R) {
#define ROLE(X)                                                                \
  case Role::X:                                                                \
    return #X;
    ROLE(Collective)
    ROLE(PointToPoint)
    ROLE(RankSource)
    ROLE(WorldSizeSource)
    ROLE(LocalDataSource)
    ROLE(TensorRead)
    ROLE(EnvRead)
    ROLE(EnvWrite)
    ROLE(Parse)
    ROLE(CommSplit)
    ROLE(CommInit)
    ROLE(AsyncErrorCheck)
    ROLE(DeviceSync)
    ROLE(StreamSync)
    ROLE(EventSync)
    ROLE(ImplicitSync)
    ROLE(HostWaitOnDevice)
    ROLE(TrainingStep) ROLE(FailStop) ROLE(TimeoutKnob) ROLE(ProcessGroupType)
        ROLE(StoreType) ROLE(SamplerType) ROLE(DataLoaderFactory) ROLE(SetEpoch)
            ROLE(DeviceSelect) ROLE(UniformValue) ROLE(ShapeQuery) ROLE(Wait)
                ROLE(TimeoutConstant) ROLE(GroupStart) ROLE(GroupEnd) ROLE(
                    DataLoaderIterate) ROLE(SizeArgument) ROLE(DeviceLaunch)
                    ROLE(Clock) ROLE(HostVisibleAlloc) ROLE(CommDerive)
                        ROLE(SameShape) ROLE(StoreRead) ROLE(ElementStorage)
                            ROLE(ObjectAllocation) ROLE(UntimedOptions)
                                ROLE(AsyncCopy) ROLE(VariantDispatch) ROLE(Fill)
                                    ROLE(FullReduction) ROLE(ShapeFromValues)
                                        ROLE(SizeRange) ROLE(StreamState)
                                            ROLE(ModuleType)
#undef ROLE
  }
  return "?";
}

} // namespace api
} // namespace distlint
