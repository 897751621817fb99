// HuffmanCodeLengths builds its tree with two queues (leaves sorted, merged nodes in the order
// they are made) instead of a priority queue: the lengths must be the ones the priority queue
// of (weight, node number) gave, ties included, since they are written into every huffman and
// file_huffman body. The reference below is that priority-queue construction. The encoder's
// whole body is also checked against its definition (HuffmanBodyTest).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"
#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/huffman.h"

namespace columnar {
namespace {

std::vector<int> ReferenceCodeLengths(std::vector<uint64_t> counts) {
  const size_t k = counts.size();
  if (k == 1) return {1};
  while (true) {
    std::vector<size_t> parent(2 * k - 1, 0);
    using Node = std::pair<uint64_t, size_t>;  // (weight, node number)
    std::priority_queue<Node, std::vector<Node>, std::greater<Node>> queue;
    for (size_t i = 0; i < k; i++) queue.push({counts[i], i});
    size_t next = k;
    while (queue.size() > 1) {
      const Node a = queue.top();
      queue.pop();
      const Node b = queue.top();
      queue.pop();
      parent[a.second] = next;
      parent[b.second] = next;
      queue.push({a.first + b.first, next});
      next++;
    }
    std::vector<int> depth(2 * k - 1, 0);
    for (size_t node = 2 * k - 2; node-- > 0;) depth[node] = depth[parent[node]] + 1;
    std::vector<int> lengths(depth.begin(), depth.begin() + k);
    int longest = 0;
    for (int length : lengths) longest = std::max(longest, length);
    if (longest <= kMaxHuffmanCodeLength) return lengths;
    for (uint64_t& c : counts) c = (c + 1) / 2;
  }
}

TEST(HuffmanCodeLengthsTest, SameLengthsAsAPriorityQueueTiesIncluded) {
  std::mt19937_64 rng(15);
  for (int round = 0; round < 3000; round++) {
    const size_t k = 1 + rng() % (round < 2000 ? 40 : 600);
    // Narrow count ranges make ties between leaves, and between leaves and merged nodes.
    const uint64_t range = round % 3 == 0 ? 2 : (round % 3 == 1 ? 8 : 1000);
    std::vector<uint64_t> counts(k);
    for (uint64_t& c : counts) c = 1 + rng() % range;
    ASSERT_EQ(HuffmanCodeLengths(counts), ReferenceCodeLengths(counts)) << "round " << round;
  }
}

TEST(HuffmanCodeLengthsTest, DeepTreesAreFlattenedAsBefore) {
  // Fibonacci counts make the deepest trees: past kMaxHuffmanCodeLength the counts are halved.
  std::vector<uint64_t> counts = {1, 1};
  while (counts.size() < 40)
    counts.push_back(counts[counts.size() - 1] + counts[counts.size() - 2]);
  const std::vector<int> lengths = HuffmanCodeLengths(counts);
  EXPECT_EQ(lengths, ReferenceCodeLengths(counts));
  for (int length : lengths) EXPECT_LE(length, kMaxHuffmanCodeLength);
  EXPECT_EQ(HuffmanCodeLengths({7}), std::vector<int>({1}));
  EXPECT_EQ(HuffmanCodeLengths({3, 3}), ReferenceCodeLengths({3, 3}));
}

TEST(HuffmanCodeLengthsTest, EveryRowGetsItsOwnValuesCode) {
  // The encoder takes each row's symbol from its sort of the rows: rows in every order
  // (equal values apart, descending, interleaved) decode to themselves.
  std::mt19937_64 rng(16);
  for (int round = 0; round < 200; round++) {
    ColumnVector values(PhysicalType::kInt64);
    const size_t n = 1 + rng() % 300;
    const uint64_t distinct = 1 + rng() % 50;
    for (size_t i = 0; i < n; i++) {
      values.Append<int64_t>(static_cast<int64_t>(rng() % distinct) - 20);
    }
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kHuffman, values, &body).ok());
    ColumnVector decoded(PhysicalType::kInt64);
    ASSERT_TRUE(DecodeValues(Encoding::kHuffman, PhysicalType::kInt64, body, n, &decoded).ok());
    ASSERT_TRUE(decoded.Equals(values)) << "round " << round;
  }
}

// The huffman body from its definition: the distinct values in ascending order with their
// counts (a std::map), code lengths from HuffmanCodeLengths, then every row's canonical code.
template <typename T>
std::string ReferenceBody(const std::vector<T>& rows) {
  std::map<T, uint64_t> counts;
  for (T v : rows) counts[v]++;
  HuffmanTable table;
  std::vector<uint64_t> weights;
  std::map<T, size_t> index;
  for (const auto& [value, count] : counts) {
    index[value] = table.symbols.size();
    table.symbols.push_back(value);
    weights.push_back(count);
  }
  table.lengths = HuffmanCodeLengths(weights);
  std::string body;
  table.Append(&body);
  const std::vector<uint32_t> codes = table.StreamCodes();
  BitWriter writer(&body);
  for (T v : rows) writer.Write(codes[index[v]], table.lengths[index[v]]);
  writer.Finish();
  return body;
}

// The encoder counts values spanning little and sorts the others: both give the body of the
// definition, at spans on both sides of the switch, negative values and both widths included.
TEST(HuffmanBodyTest, SameBytesAsTheDefinitionWhetherCountedOrSorted) {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 600; round++) {
    const size_t n = 1 + rng() % 300;
    const uint64_t spans[] = {1, 30, 4 * n - 1, 4 * n + 1, 1000, uint64_t{1} << 31};
    const uint64_t span = spans[round % 6];
    const size_t distinct = 1 + rng() % 40;
    const int64_t base = static_cast<int64_t>(rng() % 2000) - 1000 - (round % 2 ? 0 : INT32_MAX);
    std::vector<int64_t> pool(distinct);
    for (int64_t& v : pool) v = base + static_cast<int64_t>(rng() % span);
    std::vector<int64_t> rows64(n);
    std::vector<int32_t> rows32(n);
    ColumnVector column64(PhysicalType::kInt64);
    ColumnVector column32(PhysicalType::kInt32);
    for (size_t i = 0; i < n; i++) {
      // Skewed: the first values of the pool are the most frequent.
      rows64[i] = pool[std::min<size_t>(rng() % distinct, rng() % distinct)];
      rows32[i] = static_cast<int32_t>(rows64[i] % 100000);
      column64.Append<int64_t>(rows64[i]);
      column32.Append<int32_t>(rows32[i]);
    }
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kHuffman, column64, &body).ok());
    ASSERT_EQ(body, ReferenceBody(rows64)) << "round " << round << " span " << span;
    body.clear();
    ASSERT_TRUE(EncodeValues(Encoding::kHuffman, column32, &body).ok());
    ASSERT_EQ(body, ReferenceBody(rows32)) << "round " << round << " span " << span;
  }
}

}  // namespace
}  // namespace columnar
