//===- MapKeysTest.cpp - Keys a map surely holds where it is indexed ------===//
#include "engine/ast/MapKeys.h"
#include "ApiTestSupport.h"

#include "clang/AST/ParentMap.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace distlint;
using apitest::Snippet;

namespace {

const char *MapKeysSnippet = R"cpp(
#include <map>
#include <string>
struct Stats { std::map<std::string, double> sums; long seen = 0; };
void use(Stats &);
void keep(const Stats &);
void f(int n, std::map<int, int> &given) {
  Stats st;
  st.sums = {{"loss", 0.0}, {"acc", 0.0}};
  std::map<int, int> counts{{1, 0}, {2, 0}};
  std::map<int, int> later;
  for (int i = 0; i < n; ++i) {
    st.sums["loss"] += i; // @listed
    st.sums["other"] += i; // @unlisted
    if (i % 2)
      counts[2] += 1; // @declared
    counts[i] += 1; // @computed
    later[1] += 1; // @first
    later[1] += 1; // @again
    given[1] += 1; // @reference
    keep(st);
  }
  for (int i = 0; i < n; ++i) {
    st.sums["acc"] += i; // @cleared
    st.sums.clear();
  }
  for (int i = 0; i < n; ++i) {
    st.sums["acc"] += i; // @handed
    use(st);
  }
  later.erase(1);
  later[1] = 2; // @erased_before
}
)cpp";

TEST(MapKeys, KeyPutThereOnEveryWayAndNotRemoved) {
  Snippet S(MapKeysSnippet, {}, /*UseTestdataInclude=*/false);
  ASSERT_TRUE(S.ok());
  const auto *F = dyn_cast_or_null<FunctionDecl>(S.decl("f"));
  ASSERT_TRUE(F && F->hasBody());
  ParentMap Parents(F->getBody());
  auto Present = [&](const char *Marker) {
    const auto *Sub =
        dyn_cast_or_null<CXXOperatorCallExpr>(S.call(Marker, "operator[]"));
    EXPECT_TRUE(Sub) << Marker;
    return Sub && keyAlreadyPresent(Sub, Parents, S.context());
  };
  // The list assigned (or declared) names the key; `m[k]` before puts it.
  EXPECT_TRUE(Present("@listed"));
  EXPECT_TRUE(Present("@declared"));
  EXPECT_TRUE(Present("@again"));
  // A key not listed, one that is not a constant, the first `m[k]`.
  EXPECT_FALSE(Present("@unlisted"));
  EXPECT_FALSE(Present("@computed"));
  EXPECT_FALSE(Present("@first"));
  // A map another function's caller owns.
  EXPECT_FALSE(Present("@reference"));
  // Removed in the loop that comes back to the write, or the object handed
  // to a call that may reset it; erased between the put and the write.
  EXPECT_FALSE(Present("@cleared"));
  EXPECT_FALSE(Present("@handed"));
  EXPECT_FALSE(Present("@erased_before"));
}

} // namespace
