//===- TraceNames.cpp - Names of a trace's codes --------------------------===//
#include "TraceNames.h"

#include <cstdio>

namespace distlint {
namespace rt {

std::string dataTypeName(Api ApiId, int32_t Code) {
  if (Code < 0)
    return "";
  if (ApiId == Api::Nccl) {
    static const char *const Names[] = {
        "int8",    "uint8",   "int32",   "uint32",   "int64",   "uint64",
        "float16", "float32", "float64", "bfloat16", "fp8e4m3", "fp8e5m2"};
    return Code < 12 ? Names[Code] : "type" + std::to_string(Code);
  }
  if (ApiId == Api::C10d) { // c10::ScalarType
    const char *Name = c10dScalarTypeName(Code);
    return Name ? Name : "scalar type " + std::to_string(Code);
  }
  if (ApiId == Api::Mpi) {
    if (Code & kMpiDerivedType)
      return "derived type of " + std::to_string(Code & 0xffffff) + " bytes";
    if (Code >= 1 && unsigned(Code) <= NumMpiTypeNames)
      return MpiTypeNames[Code - 1];
  }
  return "type" + std::to_string(Code);
}

std::string redOpName(Api ApiId, int32_t Code) {
  if (Code < 0)
    return "";
  if (ApiId == Api::Nccl) {
    static const char *const Names[] = {"sum", "prod", "max", "min", "avg"};
    return Code < 5 ? Names[Code] : "custom op " + std::to_string(Code);
  }
  if (ApiId == Api::C10d) { // c10d::ReduceOp::RedOpType
    static const char *const Names[] = {"SUM", "AVG",  "PRODUCT",
                                        "MIN", "MAX",  "BAND",
                                        "BOR", "BXOR", "PREMUL_SUM"};
    return Code < 9 ? Names[Code] : "reduce op " + std::to_string(Code);
  }
  if (ApiId == Api::Mpi) {
    if (Code >= 1 && unsigned(Code) <= NumMpiOpNames)
      return MpiOpNames[Code - 1];
    return "user-defined op";
  }
  return "op" + std::to_string(Code);
}

std::string commName(uint64_t Id) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%08llx",
                (unsigned long long)shortCommId(Id));
  return Buf;
}

} // namespace rt
} // namespace distlint
