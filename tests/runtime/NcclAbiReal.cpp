#include "NcclAbiTable.h"

#include <nccl.h>

std::map<std::string, EntryShape> realNcclShapes() {
  std::map<std::string, EntryShape> M;
#define ENTRY(Name) M[#Name] = shapeOf(static_cast<decltype(&::Name)>(nullptr));
  NCCL_HOOKED_ENTRIES(ENTRY)
#undef ENTRY
  return M;
}

size_t realUniqueIdSize() { return sizeof(ncclUniqueId); }

static_assert(ncclSuccess == 0 && ncclSystemError == 2 && ncclInProgress == 7,
              "result codes NcclAbi.h relies on");
static_assert(NCCL_SPLIT_NOCOLOR == -1, "NCCL_SPLIT_NOCOLOR");
static_assert(sizeof(ncclResult_t) == sizeof(int) && sizeof(ncclDataType_t) == sizeof(int) &&
                  sizeof(ncclRedOp_t) == sizeof(int),
              "enumerations are passed as int");
