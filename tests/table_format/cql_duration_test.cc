// Cassandra duration literals of a fixed length (floor() widths), and their lexing as one token.
#include "table_format/cql_duration.h"

#include <gtest/gtest.h>

#include "table_format/cql_lexer.h"

namespace columnar {
namespace {

int64_t Nanoseconds(const std::string& text) {
  int64_t value = -1;
  const Status s = ParseFixedDuration(text, &value);
  EXPECT_TRUE(s.ok()) << text << ": " << s.ToString();
  return value;
}

TEST(CqlDurationTest, UnitsAndSums) {
  EXPECT_EQ(Nanoseconds("7ns"), 7);
  EXPECT_EQ(Nanoseconds("3us"), 3000);
  EXPECT_EQ(Nanoseconds("500ms"), 500'000'000);
  EXPECT_EQ(Nanoseconds("10s"), 10'000'000'000);
  EXPECT_EQ(Nanoseconds("15m"), 900'000'000'000);
  EXPECT_EQ(Nanoseconds("1h30m"), 5'400'000'000'000);
  EXPECT_EQ(Nanoseconds("1d"), 86'400'000'000'000);
  EXPECT_EQ(Nanoseconds("2w1d"), 15 * 86'400'000'000'000);
}

TEST(CqlDurationTest, Refused) {
  const std::pair<const char*, const char*> kRefused[] = {
      {"", "empty"},
      {"h", "expected a number"},
      {"10", "expected a unit"},
      {"1x", "expected a unit"},
      {"1mo", "no fixed length"},
      {"2y", "no fixed length"},
      {"0s", "must be positive"},
      {"0h0m", "must be positive"},
      {"p1d", "expected a number"},
      {"200000w", "too long"},
      {"99999999999999999999s", "too long"},
  };
  for (const auto& [text, reason] : kRefused) {
    int64_t value = 0;
    const Status s = ParseFixedDuration(text, &value);
    EXPECT_TRUE(s.IsInvalidArgument()) << text;
    EXPECT_NE(s.ToString().find(reason), std::string::npos) << text << ": " << s.ToString();
  }
}

TEST(CqlDurationTest, LexedAsOneLowerCasedToken) {
  std::vector<Token> tokens;
  ASSERT_TRUE(TokenizeCql("floor(ts, 1H30m)", &tokens).ok());
  ASSERT_EQ(tokens.size(), 7u);
  EXPECT_EQ(tokens[4].kind, TokenKind::kDuration);
  EXPECT_EQ(tokens[4].text, "1h30m");
  // Floats and exponents stay numbers; a number glued to other characters is still refused.
  ASSERT_TRUE(TokenizeCql("1e5 2.5", &tokens).ok());
  EXPECT_EQ(tokens[0].kind, TokenKind::kFloat);
  EXPECT_FALSE(TokenizeCql("1h_", &tokens).ok());
  EXPECT_FALSE(TokenizeCql("2.5h", &tokens).ok());
}

}  // namespace
}  // namespace columnar
