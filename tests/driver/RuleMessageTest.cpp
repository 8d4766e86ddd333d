//===- RuleMessageTest.cpp - %0-style rule messages -----------------------===//
#include "Rule.h"

#include <gtest/gtest.h>

using distlint::formatMessage;

TEST(RuleMessage, SubstitutesArgumentsInAnyOrder) {
  EXPECT_EQ(formatMessage("'%1' after '%0'", {"a", "b"}), "'b' after 'a'");
  EXPECT_EQ(formatMessage("%0 and %0", {"x"}), "x and x");
}

TEST(RuleMessage, PercentEscapesAndMissingArguments) {
  EXPECT_EQ(formatMessage("100%% of %0", {"steps"}), "100% of steps");
  // A placeholder without an argument stays visible.
  EXPECT_EQ(formatMessage("%0 then %1", {"one"}), "one then %1");
}

TEST(RuleMessage, TextWithoutArgumentsIsKeptAsWritten) {
  EXPECT_EQ(formatMessage("`step % 10 == 0` and %0", {}),
            "`step % 10 == 0` and %0");
}
