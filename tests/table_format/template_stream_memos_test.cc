// TemplateStreamMemos (table_format/template_stream_memos.h): a string column's template bodies
// reuse their parameter streams' encodings from chunk to chunk and read back exactly; only the
// body of the column's own values uses the column's memos.
#include "table_format/template_stream_memos.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "table_format/chunk.h"
#include "table_format/encoding.h"
#include "table_format/encoding_memo.h"

namespace columnar {
namespace {

// Paths with two numeric parameters, different in every chunk (`seed`).
ColumnVector Paths(uint64_t seed) {
  std::mt19937_64 rng(seed);
  ColumnVector values(PhysicalType::kBytes);
  for (int i = 0; i < 128; i++) {
    values.AppendBytes("/api/v2/users/" + std::to_string(100000 + rng() % 900000) + "/orders/" +
                       std::to_string(rng() % 50) + "/items");
  }
  return values;
}

// Writes 30 chunks of Paths through `memo`: each a template body that reads back exactly.
void WritePathChunksThrough(EncodingMemo* memo) {
  for (uint64_t c = 0; c < 30; c++) {
    const ColumnVector values = Paths(c);
    ChunkWriteOptions options;
    options.memo = memo;
    std::string chunk;
    Encoding chosen;
    ASSERT_TRUE(WriteChunk(values, options, &chunk, &chosen).ok());
    ASSERT_EQ(chosen, Encoding::kTemplate) << c;
    Slice in(chunk);
    ColumnVector back(PhysicalType::kBytes);
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &back).ok()) << c;
    ASSERT_TRUE(back.Equals(values)) << c;
  }
}

TEST(TemplateStreamMemosTest, ChunksReuseTheStreamsEncodingsAndReadBack) {
  EncodingMemo memo;
  ASSERT_NO_FATAL_FAILURE(WritePathChunksThrough(&memo));
  const TemplateStreamMemos* streams = memo.template_streams();
  // Two streams per chunk; the chooser ran for them at most every kReusedChunks + 1 chunks
  // (more often only when a stream's size per value grew).
  EXPECT_EQ(streams->chooser_runs() + streams->reused_chunks(), 60u);
  EXPECT_GE(streams->reused_chunks(), 30u);
}

TEST(TemplateStreamMemosTest, OnlyTheScopesOwnValuesUseTheMemos) {
  TemplateStreamMemos memos;
  const ColumnVector column = Paths(1001);
  const ColumnVector other = Paths(1002);
  TemplateStreamScope scope(&memos, &column);
  EXPECT_EQ(TemplateStreamScope::For(other), nullptr);
  EXPECT_EQ(TemplateStreamScope::For(column), &memos);
  // A template body of other values (a chooser's nested trial) leaves the memos untouched.
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kTemplate, other, &body).ok());
  EXPECT_EQ(memos.chooser_runs() + memos.reused_chunks(), 0u);
  body.clear();
  ASSERT_TRUE(EncodeValues(Encoding::kTemplate, column, &body).ok());
  EXPECT_EQ(memos.chooser_runs(), 2u);
  {
    // An inner scope without memos hides the outer one.
    TemplateStreamScope hidden(nullptr, &column);
    EXPECT_EQ(TemplateStreamScope::For(column), nullptr);
  }
  EXPECT_EQ(TemplateStreamScope::For(column), &memos);
}

TEST(TemplateStreamMemosTest, TemplatesReuseTheirEncodingAndReadBack) {
  EncodingMemo memo;
  ASSERT_NO_FATAL_FAILURE(WritePathChunksThrough(&memo));
  // The templates' chooser ran at most every kReusedChunks + 1 chunks; the stream counts stay
  // the streams' own.
  const EncodingMemo* templates = memo.template_streams()->Templates();
  EXPECT_EQ(templates->chooser_runs() + templates->reused_chunks(), 30u);
  EXPECT_GE(templates->reused_chunks(), 20u);
  EXPECT_EQ(memo.template_streams()->chooser_runs() + memo.template_streams()->reused_chunks(),
            60u);
}

TEST(TemplateStreamMemosTest, AMemosChooserWeighsOnlyItsCandidates) {
  // Templates hold digits ("v2"): an auto chooser could pick template for them, which a
  // template body must never hold. The templates' memo weighs every bytes encoding but it.
  TemplateStreamMemos memos;
  ColumnVector templates(PhysicalType::kBytes);
  for (int i = 0; i < 128; i++) templates.AppendBytes("/api/v" + std::to_string(i % 7) + "/x");
  for (int c = 0; c < 20; c++) {
    std::string body;
    Encoding chosen;
    ASSERT_TRUE(memos.Templates()->Encode(templates, &body, &chosen).ok());
    EXPECT_NE(chosen, Encoding::kTemplate);
  }
  EncodingMemo plain_only({Encoding::kPlain});
  for (int c = 0; c < 20; c++) {
    std::string body;
    Encoding chosen;
    ASSERT_TRUE(plain_only.Encode(templates, &body, &chosen).ok());
    EXPECT_EQ(chosen, Encoding::kPlain);
  }
}

}  // namespace
}  // namespace columnar
