//===- Entry.cpp - libFuzzer entry for one harness (-DHARNESS=name) -------===//
#include "Harnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  return distlint::fuzz::HARNESS(Data, Size);
}
