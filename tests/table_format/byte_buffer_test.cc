// ByteBuffer: appends of every short length (each copy width and its edges) and long ones,
// across growth, against a std::string model; resize, copies and moves.
#include "table_format/byte_buffer.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>

namespace columnar {
namespace {

std::string Contents(const ByteBuffer& buffer) { return std::string(buffer.data(), buffer.size()); }

// Distinct bytes, so that a byte copied to the wrong place or a missed one shows.
std::string Pattern(size_t n, uint32_t seed) {
  std::string bytes(n, '\0');
  for (size_t i = 0; i < n; i++) bytes[i] = static_cast<char>((seed * 131 + i * 7 + 1) & 0xff);
  return bytes;
}

TEST(ByteBufferTest, AppendsOfEveryLengthMatchAString) {
  ByteBuffer buffer;
  std::string model;
  for (uint32_t round = 0; round < 3; round++) {
    for (size_t length = 0; length <= 40; length++) {
      const std::string value = Pattern(length, round * 100 + static_cast<uint32_t>(length));
      buffer.append(value.data(), value.size());
      model += value;
      ASSERT_EQ(Contents(buffer), model) << "after a value of " << length << " bytes";
      ASSERT_GE(buffer.capacity(), buffer.size());
    }
  }
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; i++) {
    const std::string value = Pattern(rng() % 300, static_cast<uint32_t>(i));
    buffer.append(value.data(), value.size());
    model += value;
  }
  EXPECT_EQ(Contents(buffer), model);
}

TEST(ByteBufferTest, AppendsDoNotWritePastTheirValue) {
  // A value appended into spare capacity leaves the bytes after it as they were (read within
  // the allocation, past the size).
  ByteBuffer buffer;
  buffer.append(40, 'x');
  ASSERT_GE(buffer.capacity(), 40u);
  for (size_t length = 1; length <= 17; length++) {
    buffer.clear();
    buffer.append(40, 'x');
    buffer.clear();
    const std::string value = Pattern(length, 3);
    buffer.append(value.data(), value.size());
    EXPECT_EQ(std::string(buffer.data(), 40), value + std::string(40 - length, 'x')) << length;
  }
}

TEST(ByteBufferTest, GrowthIsGeometric) {
  // Resizes a few bytes at a time (decoders appending chunk after chunk), and appends,
  // reallocate a logarithmic number of times.
  for (const bool by_resize : {true, false}) {
    ByteBuffer buffer;
    size_t reallocations = 0;
    size_t capacity = buffer.capacity();
    for (size_t i = 0; i < 20000; i++) {
      if (by_resize) {
        buffer.resize(buffer.size() + 3);
      } else {
        buffer.append("abc", 3);
      }
      if (buffer.capacity() != capacity) {
        reallocations++;
        capacity = buffer.capacity();
      }
    }
    EXPECT_EQ(buffer.size(), 60000u);
    EXPECT_LE(reallocations, 16u) << (by_resize ? "resize" : "append");
  }
}

TEST(ByteBufferTest, ResizeZeroFillsGrowthAndKeepsAPrefix) {
  ByteBuffer buffer;
  buffer.append("abcdef", 6);
  buffer.resize(3);
  EXPECT_EQ(Contents(buffer), "abc");
  buffer.resize(100);
  EXPECT_EQ(Contents(buffer), "abc" + std::string(97, '\0'));
  buffer.append(2, 'z');
  EXPECT_EQ(buffer.size(), 102u);
  EXPECT_EQ(buffer[101], 'z');
  const size_t capacity = buffer.capacity();
  buffer.clear();
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(buffer.capacity(), capacity) << "clear released the memory";
  buffer.reserve(capacity + 1000);
  EXPECT_GE(buffer.capacity(), capacity + 1000);
}

TEST(ByteBufferTest, CopiesAreDeepAndMovesLeaveAnEmptyBuffer) {
  ByteBuffer empty;
  ASSERT_NE(empty.data(), nullptr);
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.capacity(), 0u);

  ByteBuffer original;
  original.append("hello world", 11);
  ByteBuffer copy(original);
  copy[0] = 'j';
  EXPECT_EQ(Contents(original), "hello world");
  EXPECT_EQ(Contents(copy), "jello world");
  copy = original;
  EXPECT_EQ(Contents(copy), "hello world");
  const ByteBuffer& same = copy;
  copy = same;  // self-assignment keeps the bytes
  EXPECT_EQ(Contents(copy), "hello world");

  ByteBuffer moved(std::move(original));
  EXPECT_EQ(Contents(moved), "hello world");
  EXPECT_TRUE(original.empty());  // NOLINT(bugprone-use-after-move): a moved-from buffer is empty
  EXPECT_NE(original.data(), nullptr);
  original.append("again", 5);
  EXPECT_EQ(Contents(original), "again");
  moved = std::move(original);
  EXPECT_EQ(Contents(moved), "again");
  EXPECT_TRUE(original.empty());  // NOLINT(bugprone-use-after-move)
}

}  // namespace
}  // namespace columnar
