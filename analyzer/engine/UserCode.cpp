//===- UserCode.cpp -------------------------------------------------------===//
#include "UserCode.h"
#include "EngineCache.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

using namespace clang;

namespace distlint {

namespace {
struct LibraryNamespaces : EngineExtension {
  explicit LibraryNamespaces(Engine &E) {
    // The outermost namespace of every qualified row name ("c10d" of
    // "c10d::ProcessGroup::allreduce"), except rows users declare.
    (void)E;
    for (auto Table : {api::c10dTable(), api::ncclTable(), api::mpiTable(),
                       api::cudaTable(), api::torchTable(), api::stdTable()})
      for (const api::ApiEntry &Row : Table) {
        llvm::StringRef Name(Row.Name);
        Name.consume_front("::");
        size_t Sep = Name.find("::");
        if (Sep != llvm::StringRef::npos && !Name.starts_with("env:"))
          Names.insert(Name.substr(0, Sep));
      }
  }
  llvm::StringSet<> Names;
  llvm::DenseMap<const DeclContext *, bool> Memo;
};

/// The files that declare a function with an API table row, found once per
/// TU among the top-level declarations (C APIs live there, often inside
/// `extern "C"`).
struct ApiHeaders : EngineExtension {
  explicit ApiHeaders(Engine &E) {
    const SourceManager &SM = E.context().getSourceManager();
    std::function<void(const DeclContext *)> Scan = [&](const DeclContext *DC) {
      for (const Decl *D : DC->decls()) {
        if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
          Scan(LS);
          continue;
        }
        const auto *FD = dyn_cast<FunctionDecl>(D);
        if (!FD || FD->hasBody() || E.api().lookup(FD).empty())
          continue;
        FileID F = SM.getFileID(SM.getExpansionLoc(FD->getLocation()));
        if (F.isValid())
          Files.insert(F);
      }
    };
    Scan(E.context().getTranslationUnitDecl());
  }
  llvm::DenseSet<FileID> Files;
};
} // namespace

bool isApiHeaderDecl(Engine &E, const FunctionDecl *FD) {
  if (!FD)
    return false;
  const SourceManager &SM = E.context().getSourceManager();
  FileID F = SM.getFileID(SM.getExpansionLoc(FD->getLocation()));
  return engineExtension<ApiHeaders>(E).Files.contains(F);
}

bool isLibraryDecl(Engine &E, const Decl *D) {
  if (!D)
    return false;
  auto &L = engineExtension<LibraryNamespaces>(E);
  const DeclContext *DC =
      isa<DeclContext>(D) ? cast<DeclContext>(D) : D->getDeclContext();
  auto It = L.Memo.find(DC);
  if (It != L.Memo.end())
    return It->second;
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *C = DC; C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C))
      Outermost = NS;
  bool Library = Outermost && !Outermost->isAnonymousNamespace() &&
                 L.Names.contains(Outermost->getName());
  return L.Memo[DC] = Library;
}

bool isAnalyzedDecl(Engine &E, const Decl *D) {
  return D && E.isUserCode(D) && !isLibraryDecl(E, D);
}

bool isTaughtDecl(Engine &E, const Decl *D) {
  if (!D || isLibraryDecl(E, D))
    return false;
  if (E.isUserCode(D))
    return true;
  // Reserved names (`__gnu_cxx`, `__bswap_32`) are the implementation's.
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *ND = dyn_cast<NamedDecl>(C))
      if (ND->getIdentifier() && ND->getName().starts_with("__"))
        return false;
  if (const auto *ND = dyn_cast<NamedDecl>(D))
    if (ND->getIdentifier() && ND->getName().starts_with("__"))
      return false;
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    return E.api().lookup(FD).empty();
  return true;
}

bool isAnalyzedStmt(Engine &E, const Stmt *S) {
  if (!S || !E.isUserCode(S->getBeginLoc()))
    return false;
  // Not in the members the compiler generates (implicit constructors and
  // assignments): no code the user wrote, and asking about them would
  // analyze each one.
  if (const FunctionDecl *FD = E.enclosingFunction(S))
    return !FD->isImplicit() && !isLibraryDecl(E, FD);
  return true;
}

} // namespace distlint
