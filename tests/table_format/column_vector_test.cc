#include "table_format/column_vector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "table_format/varint.h"

namespace columnar {
namespace {

TEST(VarintTest, RoundTripsBoundaries) {
  const uint64_t values[] = {0,         1, 127, 128, 16383, 16384, UINT32_MAX, uint64_t{1} << 35,
                             UINT64_MAX};
  std::string buf;
  for (uint64_t v : values) PutVarint64(&buf, v);
  Slice in(buf);
  for (uint64_t v : values) {
    uint64_t got;
    ASSERT_TRUE(GetVarint64(&in, &got));
    EXPECT_EQ(got, v);
  }
  EXPECT_TRUE(in.empty());
}

TEST(VarintTest, RejectsTruncatedAndOverlong) {
  std::string buf;
  PutVarint64(&buf, UINT64_MAX);
  for (size_t len = 0; len < buf.size(); len++) {
    Slice in(buf.data(), len);
    uint64_t v;
    EXPECT_FALSE(GetVarint64(&in, &v)) << len;
    EXPECT_EQ(in.size(), len);  // not advanced
  }
  const std::string overlong(11, '\xff');
  Slice in(overlong);
  uint64_t v;
  EXPECT_FALSE(GetVarint64(&in, &v));
  std::string too_big;
  PutVarint64(&too_big, uint64_t{UINT32_MAX} + 1);
  Slice in32(too_big);
  uint32_t v32;
  EXPECT_FALSE(GetVarint32(&in32, &v32));
}

// The decoder a byte at a time, as GetVarint64 was before its word and one-byte paths.
bool ReferenceVarint(const std::string& bytes, uint64_t* v, size_t* used) {
  uint64_t result = 0;
  for (size_t i = 0; i < bytes.size() && i < 10; i++) {
    const uint64_t byte = static_cast<uint8_t>(bytes[i]);
    if (i == 9 && byte > 1) return false;
    result |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      *v = result;
      *used = i + 1;
      return true;
    }
  }
  return false;
}

// Every varint length (1 to 10 bytes, minimal or padded with 0x80 continuation bytes), followed
// by 0 to 9 bytes of other data (so the word path, which reads 8 bytes, and the loop both run),
// decodes as the byte-at-a-time reference does; VarintLength and GetCanonicalVarint64 agree
// with what PutVarint64 writes.
TEST(VarintTest, FastPathsAgreeWithByteAtATime) {
  std::mt19937_64 rng(5);
  for (int bits = 0; bits <= 64; bits++) {
    for (int trial = 0; trial < 20; trial++) {
      uint64_t v = bits == 0 ? 0 : (rng() >> (64 - bits)) | (uint64_t{1} << (bits - 1));
      std::string minimal;
      PutVarint64(&minimal, v);
      ASSERT_EQ(static_cast<size_t>(VarintLength(v)), minimal.size()) << v;
      // Padded forms: the same value with extra zero groups (not canonical), up to 10 bytes.
      for (size_t pad = 0; minimal.size() + pad <= 10; pad++) {
        std::string form = minimal;
        if (pad > 0) {
          form.back() = static_cast<char>(form.back() | 0x80);
          form.append(pad - 1, '\x80');
          form.push_back('\0');
        }
        for (size_t tail = 0; tail < 10; tail++) {
          std::string bytes = form;
          for (size_t t = 0; t < tail; t++) bytes.push_back(static_cast<char>(rng()));
          uint64_t want = 0, got = 0;
          size_t used = 0;
          const bool ok = ReferenceVarint(bytes, &want, &used);
          Slice in(bytes);
          ASSERT_EQ(GetVarint64(&in, &got), ok) << v << " pad " << pad << " tail " << tail;
          if (!ok) continue;
          ASSERT_EQ(got, want);
          ASSERT_EQ(in.size(), bytes.size() - used);
          Slice canonical(bytes);
          ASSERT_EQ(GetCanonicalVarint64(&canonical, &got), pad == 0)
              << v << " pad " << pad << " tail " << tail;
        }
      }
    }
  }
}

TEST(VarintTest, ZigZag) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max()}) {
    EXPECT_EQ(ZigZagDecode(ZigZagEncode(v)), v);
  }
  EXPECT_EQ(ZigZagEncode(-1), 1u);
  EXPECT_EQ(ZigZagEncode(1), 2u);
}

// AppendNulls(n) leaves the column exactly as n x AppendNull would: values, nulls, presence
// words, from an empty column, an all-present one and one with nulls, fixed-width and bytes.
TEST(ColumnVectorTest, AppendNullsIsRepeatedAppendNull) {
  for (PhysicalType type : {PhysicalType::kInt64, PhysicalType::kInt32, PhysicalType::kBytes}) {
    for (size_t before : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{100}}) {
      for (bool with_null : {false, true}) {
        for (size_t n : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{200}}) {
          ColumnVector bulk(type);
          ColumnVector single(type);
          for (size_t i = 0; i < before; i++) {
            for (ColumnVector* c : {&bulk, &single}) {
              if (with_null && i % 7 == 3) {
                c->AppendNull();
              } else if (type == PhysicalType::kBytes) {
                c->AppendBytes(std::string(i % 5, 'x'));
              } else if (type == PhysicalType::kInt32) {
                c->Append<int32_t>(static_cast<int32_t>(i));
              } else {
                c->Append<int64_t>(static_cast<int64_t>(i) * 3);
              }
            }
          }
          bulk.AppendNulls(n);
          for (size_t i = 0; i < n; i++) single.AppendNull();
          ASSERT_TRUE(bulk.Equals(single)) << before << " " << n;
          ASSERT_EQ(bulk.presence(), single.presence()) << before << " " << n;
          // And appending after it behaves the same.
          for (ColumnVector* c : {&bulk, &single}) {
            if (type == PhysicalType::kBytes) {
              c->AppendBytes("after");
            } else if (type == PhysicalType::kInt32) {
              c->Append<int32_t>(7);
            } else {
              c->Append<int64_t>(7);
            }
          }
          ASSERT_TRUE(bulk.Equals(single));
          ASSERT_EQ(bulk.presence(), single.presence());
        }
      }
    }
  }
}

// AppendRows(other, rows, n) leaves the column exactly as AppendFrom(other, row) for each row
// would: values, nulls and presence words, for every type, source and target with and without
// nulls, strings short and long (the block copies' both paths), rows repeated, reversed and
// none; and the column goes on alike.
TEST(ColumnVectorTest, AppendRowsIsRepeatedAppendFrom) {
  std::mt19937_64 rng(29);
  const auto fill = [&](PhysicalType type, size_t rows, bool with_nulls, ColumnVector* column) {
    for (size_t i = 0; i < rows; i++) {
      if (with_nulls && rng() % 4 == 0) {
        column->AppendNull();
      } else if (type == PhysicalType::kBytes) {
        column->AppendBytes(std::string(rng() % 70, static_cast<char>('a' + rng() % 26)));
      } else if (type == PhysicalType::kInt32) {
        column->Append<int32_t>(static_cast<int32_t>(rng()));
      } else if (type == PhysicalType::kFloat64) {
        column->Append<double>(static_cast<double>(rng() % 1000) / 7);
      } else {
        column->Append<int64_t>(static_cast<int64_t>(rng()));
      }
    }
  };
  for (PhysicalType type :
       {PhysicalType::kInt64, PhysicalType::kInt32, PhysicalType::kFloat64, PhysicalType::kBytes}) {
    for (int round = 0; round < 40; round++) {
      ColumnVector source(type);
      fill(type, 1 + rng() % 200, round % 2 == 1, &source);
      ColumnVector bulk(type);
      fill(type, rng() % 100, round % 4 >= 2, &bulk);
      ColumnVector single = bulk;
      std::vector<uint32_t> rows(rng() % 150);
      for (uint32_t& row : rows) row = static_cast<uint32_t>(rng() % source.size());
      if (round % 3 == 0) std::sort(rows.rbegin(), rows.rend());
      bulk.AppendRows(source, rows.data(), rows.size());
      for (uint32_t row : rows) single.AppendFrom(source, row);
      ASSERT_TRUE(bulk.Equals(single)) << round;
      ASSERT_EQ(bulk.presence(), single.presence()) << round;
      ColumnVector after(type);
      fill(type, 3, true, &after);
      for (size_t row = 0; row < after.size(); row++) {
        bulk.AppendFrom(after, row);
        single.AppendFrom(after, row);
      }
      ASSERT_TRUE(bulk.Equals(single)) << round;
      ASSERT_EQ(bulk.presence(), single.presence()) << round;
    }
  }
}

// PopBack takes the last row back: a column with rows appended and popped at random equals
// one that only got the rows kept, and goes on equal (its bitmap too) as rows are appended.
TEST(ColumnVectorTest, PopBackIsAsIfTheRowWasNeverAppended) {
  std::mt19937_64 rng(17);
  for (PhysicalType type : {PhysicalType::kInt64, PhysicalType::kInt32, PhysicalType::kBytes}) {
    for (int round = 0; round < 50; round++) {
      ColumnVector popped(type);
      ColumnVector kept(type);
      std::vector<bool> null_rows;  // the rows of `popped`
      const int null_one_in = 1 + static_cast<int>(rng() % 4);
      auto append = [&](ColumnVector* c, uint64_t v, bool null) {
        if (null) {
          c->AppendNull();
        } else if (type == PhysicalType::kBytes) {
          c->AppendBytes(std::string(v % 7, static_cast<char>('a' + v % 3)));
        } else if (type == PhysicalType::kInt32) {
          c->Append<int32_t>(static_cast<int32_t>(v));
        } else {
          c->Append<int64_t>(static_cast<int64_t>(v));
        }
      };
      std::vector<std::pair<uint64_t, bool>> rows;  // kept rows, as appended
      for (int step = 0; step < 400; step++) {
        if (!rows.empty() && rng() % 3 == 0) {
          popped.PopBack();
          rows.pop_back();
          continue;
        }
        const uint64_t v = rng();
        const bool null = rng() % null_one_in == 0 && null_one_in > 1;
        append(&popped, v, null);
        rows.emplace_back(v, null);
      }
      for (const auto& [v, null] : rows) append(&kept, v, null);
      ASSERT_TRUE(popped.Equals(kept)) << round;
      ASSERT_EQ(popped.null_count(), kept.null_count());
      if (type == PhysicalType::kBytes) {
        ASSERT_EQ(popped.bytes_data(), kept.bytes_data());
      }
      // Rows appended after the pops land where the kept column's do.
      for (int i = 0; i < 130; i++) {
        const bool null = i % 5 == 1;
        append(&popped, static_cast<uint64_t>(i), null);
        append(&kept, static_cast<uint64_t>(i), null);
      }
      ASSERT_TRUE(popped.Equals(kept)) << round;
      if (kept.has_nulls()) {
        ASSERT_EQ(popped.presence().size(), kept.presence().size());
      }
    }
  }
}

TEST(ColumnVectorTest, FixedWidthWithNulls) {
  ColumnVector v(PhysicalType::kInt64);
  v.Append<int64_t>(5);
  v.Append<int64_t>(-7);
  v.AppendNull();
  v.Append<int64_t>(std::numeric_limits<int64_t>::min());
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v.null_count(), 1u);
  EXPECT_FALSE(v.IsNull(0));
  EXPECT_TRUE(v.IsNull(2));
  EXPECT_EQ(v.Get<int64_t>(1), -7);
  EXPECT_EQ(v.Get<int64_t>(2), 0);
  EXPECT_EQ(v.Get<int64_t>(3), std::numeric_limits<int64_t>::min());
  ColumnVector copy = v;
  EXPECT_TRUE(copy.Equals(v));
  copy.SetNull(0);
  EXPECT_FALSE(copy.Equals(v));
}

TEST(ColumnVectorTest, FloatsKeepTheirBits) {
  ColumnVector v(PhysicalType::kFloat64);
  const uint64_t nan_payload = 0x7ff0000000000123ull;  // signalling NaN with a payload
  double nan;
  std::memcpy(&nan, &nan_payload, 8);
  v.Append<double>(nan);
  v.Append<double>(-0.0);
  ColumnVector moved = std::move(v);
  uint64_t bits;
  double got = moved.Get<double>(0);
  std::memcpy(&bits, &got, 8);
  EXPECT_EQ(bits, nan_payload);
  EXPECT_TRUE(std::signbit(moved.Get<double>(1)));
}

TEST(ColumnVectorTest, BytesWithNulBytesAndNulls) {
  ColumnVector v(PhysicalType::kBytes);
  const std::string binary("a\0b\0", 4);
  v.AppendBytes(binary);
  v.AppendNull();
  v.AppendBytes("");
  v.AppendBytes(std::string(100000, 'x'));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v.GetBytes(0).ToString(), binary);
  EXPECT_TRUE(v.IsNull(1));
  EXPECT_EQ(v.GetBytes(1).size(), 0u);
  EXPECT_FALSE(v.IsNull(2));
  EXPECT_EQ(v.GetBytes(3).size(), 100000u);
}

TEST(ColumnVectorTest, ResizeFixedZeroFillsAndKeepsPresence) {
  ColumnVector v(PhysicalType::kInt32);
  v.AppendNull();
  v.ResizeFixed(130);
  EXPECT_EQ(v.size(), 130u);
  EXPECT_TRUE(v.IsNull(0));
  EXPECT_FALSE(v.IsNull(129));
  EXPECT_EQ(v.Get<int32_t>(129), 0);
  v.ResizeFixed(1);
  EXPECT_EQ(v.null_count(), 1u);
}

TEST(ColumnVectorTest, BulkByteStringAppends) {
  ColumnVector v(PhysicalType::kBytes);
  v.AppendBytes("head");
  v.AppendNull();  // a presence bitmap exists: bulk appends must mark their rows present
  std::string expected_data;
  std::vector<std::string> strings;
  for (size_t len = 0; len <= 40; len++) {
    std::string s(len, '\0');
    for (size_t i = 0; i < len; i++) s[i] = static_cast<char>('a' + (len + i) % 26);
    strings.push_back(s);
  }
  size_t total = 0;
  for (const std::string& s : strings) total += s.size();
  {
    ByteStringWriter writer = v.AppendBytesWriter(strings.size(), total);
    ByteStringCursor cursor = writer.cursor();
    for (const std::string& s : strings) {
      // Exact-size heap copies: CopyBytes must not read outside them (ASan).
      std::vector<char> exact(s.begin(), s.end());
      cursor.Append(exact.data(), exact.size());
    }
  }
  const uint32_t lengths[] = {3, 0, 2};
  v.AppendConcatenatedBytes(lengths, 3, "abcde");
  ASSERT_EQ(v.size(), 2 + strings.size() + 3);
  EXPECT_EQ(v.GetBytes(0).ToString(), "head");
  EXPECT_TRUE(v.IsNull(1));
  for (size_t i = 0; i < strings.size(); i++) {
    EXPECT_FALSE(v.IsNull(2 + i));
    EXPECT_EQ(v.GetBytes(2 + i).ToString(), strings[i]) << i;
  }
  EXPECT_EQ(v.GetBytes(2 + strings.size()).ToString(), "abc");
  EXPECT_EQ(v.GetBytes(3 + strings.size()).ToString(), "");
  EXPECT_EQ(v.GetBytes(4 + strings.size()).ToString(), "de");
  EXPECT_EQ(v.null_count(), 1u);
}

// An empty byte-string column holds no offsets until its first string (a new column, one
// reset, or one moved from allocates nothing: point reads make and move several a read), and
// reads as one with the single offset 0; from there every kind of first append must lay the
// offsets out as in a column that always had them.
TEST(ColumnVectorTest, EmptyByteStringColumnsAllocateNothingAndStartAnyAppend) {
  ColumnVector used(PhysicalType::kBytes);
  used.AppendBytes("abc");
  ColumnVector taken = std::move(used);
  ColumnVector reset(PhysicalType::kBytes);
  reset.Reserve(0);
  reset.Reset(PhysicalType::kBytes);
  ColumnVector fresh(PhysicalType::kBytes);
  EXPECT_EQ(fresh.MemoryUsage(), ColumnVector(PhysicalType::kInt64).MemoryUsage());
  EXPECT_EQ(used.MemoryUsage(), fresh.MemoryUsage());
  for (ColumnVector* empty : {&fresh, &used, &reset}) {
    EXPECT_EQ(empty->size(), 0u);
    EXPECT_EQ(empty->offsets()[0], 0u);
    EXPECT_TRUE(empty->bytes_data().empty());
  }
  EXPECT_EQ(taken.GetBytes(0).ToString(), "abc");

  // The first append of each kind, then one string: the rows each must leave (null rows as
  // nullptr).
  struct FirstAppend {
    void (*append)(ColumnVector*);
    std::vector<const char*> rows;
  };
  const FirstAppend firsts[] = {
      {[](ColumnVector* v) { v->AppendBytes("xy"); }, {"xy"}},
      {[](ColumnVector* v) { v->AppendNull(); }, {nullptr}},
      {[](ColumnVector* v) { v->AppendNulls(2); }, {nullptr, nullptr}},
      {[](ColumnVector* v) {
         ByteStringWriter writer = v->AppendBytesWriter(2, 3);
         ByteStringCursor cursor = writer.cursor();
         cursor.Append("x", 1);
         cursor.Append("yz", 2);
       },
       {"x", "yz"}},
      {[](ColumnVector* v) {
         const uint32_t lengths[] = {0, 2};
         v->AppendConcatenatedBytes(lengths, 2, "pq");
       },
       {"", "pq"}},
  };
  for (size_t kind = 0; kind < std::size(firsts); kind++) {
    ColumnVector moved_from(PhysicalType::kBytes);
    moved_from.AppendBytes("old");
    ColumnVector sink = std::move(moved_from);
    for (ColumnVector* v : {&moved_from, &fresh, &reset}) {
      v->Reset(PhysicalType::kBytes);
      firsts[kind].append(v);
      v->AppendBytes("last");
      std::vector<const char*> rows = firsts[kind].rows;
      rows.push_back("last");
      ASSERT_EQ(v->size(), rows.size()) << kind;
      EXPECT_EQ(v->offsets()[0], 0u) << kind;
      std::string bytes;
      for (size_t row = 0; row < rows.size(); row++) {
        EXPECT_EQ(v->IsNull(row), rows[row] == nullptr) << kind << " " << row;
        const std::string want = rows[row] == nullptr ? "" : rows[row];
        EXPECT_EQ(v->GetBytes(row).ToString(), want) << kind << " " << row;
        bytes += want;
        EXPECT_EQ(v->offsets()[row + 1], bytes.size()) << kind << " " << row;
      }
      while (v->size() > 0) v->PopBack();
      EXPECT_EQ(v->offsets()[0], 0u) << kind;
      EXPECT_TRUE(v->bytes_data().empty()) << kind;
    }
  }
}

TEST(ColumnVectorTest, BlockCopiesLeaveOnlyTheAnnouncedBytes) {
  // Whole-block copies of short strings write past them; what stays must be exactly the
  // strings, and the spare bytes must be gone once the writer is.
  const char block[ByteStringCursor::kBlock + 1] = "xyz-and-then-some-garbage";
  ColumnVector v(PhysicalType::kBytes);
  {
    ByteStringWriter writer = v.AppendBytesWriter(3, 7);
    ByteStringCursor cursor = writer.cursor();
    cursor.Append(block, 3, ByteStringCursor::kBlock);
    cursor.Append(block + 1, 2, ByteStringCursor::kBlock);
    char* last = cursor.Next(2);
    ByteStringCursor::CopyBlock(last, block, 2, ByteStringCursor::kBlock);
  }
  EXPECT_EQ(v.bytes_data(), "xyzyzxy");
  EXPECT_EQ(v.GetBytes(1).ToString(), "yz");
  EXPECT_EQ(v.GetBytes(2).ToString(), "xy");
}

}  // namespace
}  // namespace columnar
