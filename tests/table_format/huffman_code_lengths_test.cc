// HuffmanCodeLengths builds its tree with two queues (leaves sorted, merged nodes in the order
// they are made) instead of a priority queue: the lengths must be the ones the priority queue
// of (weight, node number) gave, ties included, since they are written into every huffman and
// file_huffman body. The reference below is that priority-queue construction.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"
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

}  // namespace
}  // namespace columnar
