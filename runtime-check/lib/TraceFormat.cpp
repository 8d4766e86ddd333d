//===- TraceFormat.cpp - Op table and handle-code names
//--------------------===//
#include "TraceFormat.h"

#include <cstdio>

namespace distlint {
namespace rt {

bool opIsRooted(OpCode Op) {
  switch (Op) {
  case OpCode::NcclBroadcast:
  case OpCode::NcclBcast:
  case OpCode::NcclReduce:
  case OpCode::NcclGather:
  case OpCode::NcclScatter:
  case OpCode::MpiBcast:
  case OpCode::MpiReduce:
  case OpCode::MpiGather:
  case OpCode::MpiGatherv:
  case OpCode::MpiScatter:
  case OpCode::MpiScatterv:
  case OpCode::MpiIbcast:
  case OpCode::MpiIreduce:
  case OpCode::C10dBroadcast:
  case OpCode::C10dReduce:
  case OpCode::C10dGather:
  case OpCode::C10dScatter:
    return true;
  default:
    return false;
  }
}

const char *const MpiTypeNames[] = {"MPI_CHAR",
                                    "MPI_SIGNED_CHAR",
                                    "MPI_UNSIGNED_CHAR",
                                    "MPI_BYTE",
                                    "MPI_SHORT",
                                    "MPI_UNSIGNED_SHORT",
                                    "MPI_INT",
                                    "MPI_UNSIGNED",
                                    "MPI_LONG",
                                    "MPI_UNSIGNED_LONG",
                                    "MPI_LONG_LONG",
                                    "MPI_LONG_LONG_INT",
                                    "MPI_UNSIGNED_LONG_LONG",
                                    "MPI_FLOAT",
                                    "MPI_DOUBLE",
                                    "MPI_LONG_DOUBLE",
                                    "MPI_WCHAR",
                                    "MPI_C_BOOL",
                                    "MPI_CXX_BOOL",
                                    "MPI_INT8_T",
                                    "MPI_INT16_T",
                                    "MPI_INT32_T",
                                    "MPI_INT64_T",
                                    "MPI_UINT8_T",
                                    "MPI_UINT16_T",
                                    "MPI_UINT32_T",
                                    "MPI_UINT64_T",
                                    "MPI_C_FLOAT_COMPLEX",
                                    "MPI_C_DOUBLE_COMPLEX",
                                    "MPI_FLOAT_INT",
                                    "MPI_DOUBLE_INT",
                                    "MPI_LONG_INT",
                                    "MPI_2INT",
                                    "MPI_SHORT_INT",
                                    "MPI_LONG_DOUBLE_INT",
                                    "MPI_PACKED",
                                    "MPI_AINT",
                                    "MPI_OFFSET",
                                    "MPI_COUNT"};
const unsigned NumMpiTypeNames = sizeof(MpiTypeNames) / sizeof(MpiTypeNames[0]);

const char *const MpiOpNames[] = {
    "MPI_SUM",    "MPI_PROD",   "MPI_MAX",     "MPI_MIN",  "MPI_LAND",
    "MPI_BAND",   "MPI_LOR",    "MPI_BOR",     "MPI_LXOR", "MPI_BXOR",
    "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};
const unsigned NumMpiOpNames = sizeof(MpiOpNames) / sizeof(MpiOpNames[0]);

const char *c10dScalarTypeName(int32_t Code) {
  static const char *const Names[] = {
      "uint8",   "int8",    "int16",     "int32",     "int64",      "float16",
      "float32", "float64", "complex32", "complex64", "complex128", "bool",
      "qint8",   "quint8",  "qint32",    "bfloat16"};
  return Code >= 0 && Code < 16 ? Names[Code] : nullptr;
}

bool formatShapeCode(uint64_t Code, char *Buf, unsigned long Size) {
  if (Code >> 63 || Size < 16)
    return false;
  int N = std::snprintf(Buf, Size, "shape [");
  for (uint64_t D = 0, Rank = Code & 7; D < Rank && N < int(Size); ++D)
    N += std::snprintf(Buf + N, Size - size_t(N), "%s%llu", D ? ", " : "",
                       (unsigned long long)((Code >> (3 + 15 * D)) & 0x7fff));
  if (N < int(Size))
    std::snprintf(Buf + N, Size - size_t(N), "]");
  return true;
}

} // namespace rt
} // namespace distlint
