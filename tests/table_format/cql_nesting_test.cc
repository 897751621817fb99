// Deeply nested CQL option values: the recursive term parser (and the canonical printer of
// what it parsed) must refuse them with InvalidArgument instead of overflowing the stack, at
// any depth, while every nesting up to the limit still parses and prints back.
#include <gtest/gtest.h>

#include <string>

#include "table_format/cql_parser.h"

namespace columnar {
namespace {

// `{'k': {'k': ... 'v' ...}}` with `depth` maps.
std::string NestedMaps(int depth) {
  std::string text;
  for (int i = 0; i < depth; i++) text += "{'k': ";
  text += "'v'";
  for (int i = 0; i < depth; i++) text += "}";
  return text;
}

std::string CreateWithOption(const std::string& term) {
  return "CREATE TABLE ks.t (a int PRIMARY KEY) WITH compaction = " + term;
}

TEST(CqlNestingTest, DeepOpenBracesAreInvalidArgument) {
  // The shape of the report: only opening braces, 50,000 deep (and deeper).
  for (int depth : {50'000, 200'000}) {
    CreateTableStatement statement;
    const Status s = ParseCreateTable(CreateWithOption(std::string(depth, '{')), &statement);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find("nested deeper than"), std::string::npos) << s.ToString();
  }
}

TEST(CqlNestingTest, DeepWellFormedMapsAreInvalidArgument) {
  CreateTableStatement statement;
  Status s = ParseCreateTable(CreateWithOption(NestedMaps(100'000)), &statement);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // As a map key too.
  s = ParseCreateTable(CreateWithOption("{" + NestedMaps(100'000) + ": 'v'}"), &statement);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  AlterTableStatement alter;
  s = ParseAlterTable("ALTER TABLE ks.t WITH compaction = " + NestedMaps(100'000), &alter);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

TEST(CqlNestingTest, NestingUpToTheLimitParsesAndPrintsBack) {
  CreateTableStatement statement;
  Status s = ParseCreateTable(CreateWithOption(NestedMaps(kMaxCqlTermNesting)), &statement);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::string printed = statement.schema.ToCql();
  EXPECT_NE(printed.find(NestedMaps(kMaxCqlTermNesting)), std::string::npos) << printed;
  s = ParseCreateTable(CreateWithOption(NestedMaps(kMaxCqlTermNesting + 1)), &statement);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

}  // namespace
}  // namespace columnar
