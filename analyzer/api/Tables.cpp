//===- Tables.cpp (temporary: empty tables until analyzer/api/*Api.cpp) ---===//
#include "ApiTable.h"
namespace distlint {
namespace api {
llvm::ArrayRef<ApiEntry> c10dTable() { return {}; }
llvm::ArrayRef<ApiEntry> ncclTable() { return {}; }
llvm::ArrayRef<ApiEntry> mpiTable() { return {}; }
llvm::ArrayRef<ApiEntry> cudaTable() { return {}; }
llvm::ArrayRef<ApiEntry> torchTable() { return {}; }
llvm::ArrayRef<ApiEntry> stdTable() { return {}; }
} // namespace api
} // namespace distlint
