//===- MpiCompletenessTest.cpp - Every collective of mpi.h has a row ------===//
//
// Parses the real Open MPI mpi.h and checks that every collective it
// declares (blocking, nonblocking I*, v/w variants, scans, neighborhood,
// persistent *_init) is a Collective row of the MPI table. The collective
// families are named here; the header says which members exist.
//
//===----------------------------------------------------------------------===//
#include "ApiTestSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace distlint;

namespace {

const char *MpiInclude = "/usr/lib/x86_64-linux-gnu/openmpi/include";

/// The collective I/O calls: opening and closing a file, its view, size
/// and atomicity, and the _all / _ordered reads and writes (the split
/// _begin/_end forms are not modeled).
bool isCollectiveIoName(llvm::StringRef Name) {
  static const llvm::Regex Io(
      "^MPI_File_(open|close|set_view|set_size|preallocate|sync|"
      "set_atomicity|i?(read|write)(_at)?_all|(read|write)_ordered)$");
  return Io.match(Name);
}

/// MPI_[I]<family>[_init] with the I of neighborhood collectives written
/// MPI_Ineighbor_...
bool isCollectiveName(llvm::StringRef Name) {
  static const llvm::Regex Collective(
      "^MPI_(I?(Barrier|Bcast|Gatherv?|Scatterv?|Allgatherv?|Alltoall[vw]?|"
      "Reduce|Allreduce|Reduce_scatter|Reduce_scatter_block|Scan|Exscan)|"
      "(Neighbor|Ineighbor)_(allgatherv?|alltoall[vw]?))(_init)?$",
      llvm::Regex::IgnoreCase);
  return Collective.match(Name) || isCollectiveIoName(Name);
}

TEST(MpiTable, NameClassifier) {
  for (const char *Yes :
       {"MPI_Barrier", "MPI_Ibarrier", "MPI_Iexscan", "MPI_Alltoallw",
        "MPI_Ineighbor_alltoallw", "MPI_Allreduce_init",
        "MPI_Reduce_scatter_block", "MPI_File_open", "MPI_File_write_at_all",
        "MPI_File_iread_all", "MPI_File_read_ordered"})
    EXPECT_TRUE(isCollectiveName(Yes)) << Yes;
  for (const char *No :
       {"MPI_Reduce_local", "MPI_Send", "MPI_Send_init", "MPI_Graph_neighbors",
        "MPI_Start", "MPI_Ibsend", "MPI_File_write_at",
        "MPI_File_read_all_begin", "MPI_File_get_size"})
    EXPECT_FALSE(isCollectiveName(No)) << No;
}

TEST(MpiTable, EveryCollectiveOfTheRealHeaderHasARow) {
  if (!llvm::sys::fs::is_directory(MpiInclude))
    GTEST_SKIP() << "Open MPI headers not installed";
  apitest::Snippet Real("#include <mpi.h>\n", {std::string("-I") + MpiInclude},
                        /*UseTestdataInclude=*/false);
  ASSERT_TRUE(Real.ok());
  api::ApiIndex Api;
  std::vector<std::string> Missing;
  unsigned Seen = 0;
  std::vector<const Decl *> Decls;
  for (const Decl *D : Real.context().getTranslationUnitDecl()->decls())
    if (const auto *L = dyn_cast<LinkageSpecDecl>(D)) // extern "C" { ... }
      Decls.insert(Decls.end(), L->decls_begin(), L->decls_end());
    else
      Decls.push_back(D);
  for (const Decl *D : Decls) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->getIdentifier() || !isCollectiveName(FD->getName()))
      continue;
    ++Seen;
    if (!Api.has(FD, api::Role::Collective))
      Missing.push_back(FD->getName().str());
  }
  // Open MPI 4.1 declares 44 of them and 17 collective I/O calls; fewer
  // means the header was not the one expected.
  EXPECT_GE(Seen, 55u);
  std::string List;
  for (const std::string &M : Missing)
    List += " " + M;
  EXPECT_TRUE(Missing.empty()) << "collectives without a row:" << List;
}

} // namespace
