// Python call-sites in the trace: the pseudo-module names the recorder
// writes and the report parses, and the shape text of the live line.
#include "TraceFormat.h"

#include <gtest/gtest.h>

#include <string>

using namespace distlint::rt;

TEST(PythonSites, PseudoModuleNamesSplitIntoKindFunctionAndFile) {
  PythonSiteName N;
  ASSERT_TRUE(parsePythonModule("python:b:main:/work/train.py", N));
  EXPECT_EQ(N.Kind, PythonSiteKind::Backward);
  EXPECT_EQ(std::string(N.Function, N.FunctionLength), "main");
  EXPECT_STREQ(N.File, "/work/train.py");

  ASSERT_TRUE(parsePythonModule("python:c:<module>:/a:b/c.py", N));
  EXPECT_EQ(N.Kind, PythonSiteKind::Call);
  EXPECT_EQ(std::string(N.Function, N.FunctionLength), "<module>");
  EXPECT_STREQ(N.File, "/a:b/c.py"); // Only the first colon ends the name.
}

TEST(PythonSites, RealModulesAndMalformedNamesAreNotPython) {
  PythonSiteName N;
  EXPECT_FALSE(parsePythonModule("/usr/bin/python3.11", N));
  EXPECT_FALSE(parsePythonModule("python3.11", N));
  EXPECT_FALSE(parsePythonModule("python:", N));
  EXPECT_FALSE(parsePythonModule("python:cmain", N));
  EXPECT_FALSE(parsePythonModule("python:c:main", N)); // No file.
}

TEST(PythonSites, ShapesOfTheLiveLine) {
  char Buf[64];
  ASSERT_TRUE(formatShapeCode(uint64_t(2) | (2ull << 3) | (3ull << 18), Buf,
                              sizeof(Buf)));
  EXPECT_STREQ(Buf, "shape [2, 3]");
  ASSERT_TRUE(formatShapeCode(0, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "shape []");
  EXPECT_FALSE(formatShapeCode(uint64_t(1) << 63, Buf, sizeof(Buf))); // Hash.
  EXPECT_STREQ(c10dScalarTypeName(6), "float32");
  EXPECT_EQ(c10dScalarTypeName(99), nullptr);
}
