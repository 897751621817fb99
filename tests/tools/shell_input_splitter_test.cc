// The shell's input splitter: statements across lines, ';' inside strings, names and
// comments, shell command lines, and the source positions of every piece.
#include "tools/shell_input_splitter.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace columnar {
namespace {

std::vector<ShellInput> Split(const std::string& text, bool finish = true) {
  InputSplitter splitter;
  std::vector<ShellInput> pieces;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) splitter.AddLine(line, &pieces);
  ShellInput rest;
  if (finish && splitter.Finish(&rest)) pieces.push_back(rest);
  return pieces;
}

void ExpectPiece(const ShellInput& piece, ShellInput::Kind kind, const std::string& text, int line,
                 int column) {
  EXPECT_EQ(piece.kind, kind) << piece.text;
  EXPECT_EQ(piece.text, text);
  EXPECT_EQ(piece.line, line) << piece.text;
  EXPECT_EQ(piece.column, column) << piece.text;
}

constexpr ShellInput::Kind kCql = ShellInput::Kind::kCql;
constexpr ShellInput::Kind kCommand = ShellInput::Kind::kCommand;

TEST(ShellInputSplitterTest, StatementsEndAtSemicolonsAcrossLines) {
  const auto pieces = Split("SELECT * FROM t\n  WHERE a = 1; INSERT INTO t (a) VALUES (2);\n");
  ASSERT_EQ(pieces.size(), 2u);
  ExpectPiece(pieces[0], kCql, "SELECT * FROM t\n  WHERE a = 1;", 1, 1);
  ExpectPiece(pieces[1], kCql, "INSERT INTO t (a) VALUES (2);", 2, 16);
}

TEST(ShellInputSplitterTest, ABatchEndsAtApplyBatch) {
  const auto pieces = Split(
      "begin unlogged batch\n  INSERT INTO t (a) VALUES (1);\n  UPDATE t SET b = ';' WHERE a = 1;\n"
      "Apply\n Batch ; SELECT * FROM t; BEGIN BATCH DELETE FROM t WHERE a = 1; APPLY BATCH;");
  ASSERT_EQ(pieces.size(), 3u);
  ExpectPiece(pieces[0], kCql,
              "begin unlogged batch\n  INSERT INTO t (a) VALUES (1);\n  UPDATE t SET b = ';' "
              "WHERE a = 1;\nApply\n Batch ;",
              1, 1);
  ExpectPiece(pieces[1], kCql, "SELECT * FROM t;", 5, 10);
  ExpectPiece(pieces[2], kCql, "BEGIN BATCH DELETE FROM t WHERE a = 1; APPLY BATCH;", 5, 27);
  // Unfinished: the batch is still pending at the end of the input.
  InputSplitter splitter;
  std::vector<ShellInput> none;
  splitter.AddLine("BEGIN BATCH INSERT INTO t (a) VALUES (1);", &none);
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(splitter.pending());
}

TEST(ShellInputSplitterTest, SemicolonsInsideStringsNamesAndCommentsDoNotEndStatements) {
  const auto pieces = Split(
      "INSERT INTO t (a, \"b;c\") VALUES ('x;''y', $$p;q$$) -- ; here\n"
      "  /* ; and\n ; there */ USING TTL 5;\n");
  ASSERT_EQ(pieces.size(), 1u);
  ExpectPiece(pieces[0], kCql,
              "INSERT INTO t (a, \"b;c\") VALUES ('x;''y', $$p;q$$) -- ; here\n"
              "  /* ; and\n ; there */ USING TTL 5;",
              1, 1);
}

TEST(ShellInputSplitterTest, StringsSpanLines) {
  const auto pieces = Split("INSERT INTO t (a) VALUES ('one\ntwo;\nthree');\n");
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].text, "INSERT INTO t (a) VALUES ('one\ntwo;\nthree');");
}

TEST(ShellInputSplitterTest, CommentsBlankLinesAndLoneSemicolonsBetweenStatementsAreSkipped) {
  const auto pieces = Split("-- intro\n\n  ;; /* a\n block */  SELECT 1;\n// end\n");
  ASSERT_EQ(pieces.size(), 1u);
  ExpectPiece(pieces[0], kCql, "SELECT 1;", 4, 12);
}

TEST(ShellInputSplitterTest, CommandsEndWithTheirLineOrASemicolon) {
  const auto pieces = Split(
      "tracing on\n"
      "  DESCRIBE TABLE logs.access16;  SELECT 1;\n"
      "Help -- comment\n"
      "exit\n");
  ASSERT_EQ(pieces.size(), 5u);
  ExpectPiece(pieces[0], kCommand, "tracing on", 1, 1);
  ExpectPiece(pieces[1], kCommand, "DESCRIBE TABLE logs.access16;", 2, 3);
  ExpectPiece(pieces[2], kCql, "SELECT 1;", 2, 34);
  ExpectPiece(pieces[3], kCommand, "Help -- comment", 3, 1);
  ExpectPiece(pieces[4], kCommand, "exit", 4, 1);
}

TEST(ShellInputSplitterTest, CommandWordsInsideStatementsOrAsPrefixesAreCql) {
  const auto pieces = Split("SELECT a FROM t\nexit;\nhelpers;\nsource_table;\n");
  ASSERT_EQ(pieces.size(), 3u);
  ExpectPiece(pieces[0], kCql, "SELECT a FROM t\nexit;", 1, 1);
  ExpectPiece(pieces[1], kCql, "helpers;", 3, 1);
  ExpectPiece(pieces[2], kCql, "source_table;", 4, 1);
}

TEST(ShellInputSplitterTest, FinishReturnsTheUnterminatedStatement) {
  InputSplitter splitter;
  std::vector<ShellInput> pieces;
  EXPECT_FALSE(splitter.pending());
  splitter.AddLine("SELECT * FROM t", &pieces);
  EXPECT_TRUE(pieces.empty());
  EXPECT_TRUE(splitter.pending());
  splitter.AddLine("  WHERE a = 'open", &pieces);
  EXPECT_TRUE(splitter.pending());
  ShellInput rest;
  ASSERT_TRUE(splitter.Finish(&rest));
  ExpectPiece(rest, kCql, "SELECT * FROM t\n  WHERE a = 'open", 1, 1);
  EXPECT_FALSE(splitter.pending());
  EXPECT_FALSE(splitter.Finish(&rest));
}

TEST(ShellInputSplitterTest, AnOpenBlockCommentIsPendingButNotAStatement) {
  InputSplitter splitter;
  std::vector<ShellInput> pieces;
  splitter.AddLine("/* still", &pieces);
  EXPECT_TRUE(splitter.pending());
  splitter.AddLine("open */", &pieces);
  EXPECT_FALSE(splitter.pending());
  ShellInput rest;
  EXPECT_FALSE(splitter.Finish(&rest));
  EXPECT_TRUE(pieces.empty());
}

TEST(ShellInputSplitterTest, AnUnterminatedQuoteEndsWithItsCommandLine) {
  const auto pieces = Split("SOURCE 'no end\nSELECT 1;\n");
  ASSERT_EQ(pieces.size(), 2u);
  ExpectPiece(pieces[0], kCommand, "SOURCE 'no end", 1, 1);
  ExpectPiece(pieces[1], kCql, "SELECT 1;", 2, 1);
}

}  // namespace
}  // namespace columnar
