//===- NcclAbiTest.cpp - The hooks' NCCL declarations match <nccl.h> ------===//
#include "NcclAbiTable.h"

#include <gtest/gtest.h>

TEST(NcclAbi, HookedEntryPointsHaveNcclsShape) {
  auto Ours = ourNcclShapes();
  auto Real = realNcclShapes();
  ASSERT_EQ(Ours.size(), Real.size());
  for (const auto &[Name, Shape] : Real) {
    SCOPED_TRACE(Name);
    const EntryShape &Mine = Ours.at(Name);
    EXPECT_EQ(Mine.ReturnSize, Shape.ReturnSize);
    EXPECT_EQ(Mine.ParamSizes, Shape.ParamSizes);
    EXPECT_EQ(Mine.ParamIsPointer, Shape.ParamIsPointer);
  }
  EXPECT_EQ(ourUniqueIdSize(), realUniqueIdSize());
}
