#include "NcclAbiTable.h"

#include "NcclAbi.h"

std::map<std::string, EntryShape> ourNcclShapes() {
  std::map<std::string, EntryShape> M;
#define ENTRY(Name) M[#Name] = shapeOf(static_cast<decltype(&::Name)>(nullptr));
  NCCL_HOOKED_ENTRIES(ENTRY)
#undef ENTRY
  return M;
}

size_t ourUniqueIdSize() { return sizeof(ncclUniqueId); }
