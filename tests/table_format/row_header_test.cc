// The row header (format, schema version, flags, write time, expiry) as DecodeMetadata and
// DecodeCells read it, against a byte-at-a-time reading of the layout in row_codec.h: the same
// metadata, the same length (the cells after it decode), the same rejections. The codec reads
// common headers through a word-at-a-time fast path and everything else through the general
// path; the headers here cover both sides of each of its limits (one-byte versions, varints of
// 1 to 10 bytes, 8 bytes readable at each varint, zero last bytes) and every truncation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "table_format/row_codec.h"
#include "table_format/varint.h"

namespace columnar {
namespace {

enum class Outcome { kOk, kCorruption, kNotSupported };

struct ReferenceHeader {
  Outcome outcome = Outcome::kCorruption;
  RowMetadata meta;
  size_t length = 0;
};

// A canonical varint, one byte at a time; false when truncated, over 64 bits or not minimal.
bool ReadReferenceVarint(const std::string& value, size_t* pos, uint64_t* out) {
  uint64_t result = 0;
  for (int i = 0; i < 10 && *pos < value.size(); i++) {
    const uint64_t byte = static_cast<uint8_t>(value[(*pos)++]);
    if (i == 9 && byte > 1) {
      return false;
    }
    result |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      *out = result;
      return i == 0 || byte != 0;
    }
  }
  return false;
}

ReferenceHeader ReadReferenceHeader(const std::string& value, uint32_t max_version) {
  ReferenceHeader header;
  if (!value.empty() && value[0] == 2) {
    header.outcome = Outcome::kNotSupported;
  }
  if (value.empty() || value[0] != 1) {
    return header;
  }
  size_t pos = 1;
  uint64_t version, write_time = 0, expiry = 0;
  if (!ReadReferenceVarint(value, &pos, &version) || version == 0 || version > max_version) {
    return header;
  }
  if (pos == value.size()) {
    return header;
  }
  const auto flags = static_cast<uint8_t>(value[pos++]);
  if (flags > 3 || ((flags & 1) != 0 && !ReadReferenceVarint(value, &pos, &write_time)) ||
      ((flags & 2) != 0 && !ReadReferenceVarint(value, &pos, &expiry))) {
    return header;
  }
  header.outcome = Outcome::kOk;
  header.meta.schema_version = static_cast<uint32_t>(version);
  header.meta.has_write_time = (flags & 1) != 0;
  header.meta.write_time_micros = ZigZagDecode(write_time);
  header.meta.has_expiry = (flags & 2) != 0;
  header.meta.expiry_seconds = expiry;
  header.length = pos;
  return header;
}

Outcome OutcomeOf(const Status& s) {
  if (s.ok()) {
    return Outcome::kOk;
  }
  EXPECT_TRUE(s.IsCorruption() || s.IsNotSupported()) << s.ToString();
  return s.IsNotSupported() ? Outcome::kNotSupported : Outcome::kCorruption;
}

std::string Varint(uint64_t v) {
  std::string out;
  PutVarint64(&out, v);
  return out;
}

// Varint fields: canonical ones of every length 1 to 10 (the smallest, the largest and one in
// between of each), and malformed ones (overlong, over 64 bits, unterminated).
std::vector<std::string> VarintFields() {
  std::vector<std::string> fields = {Varint(0)};
  for (int length = 1; length <= 10; length++) {
    const int bits = std::min(7 * length, 64);
    const uint64_t largest = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
    fields.push_back(Varint(uint64_t{1} << (7 * (length - 1))));  // last byte 1
    fields.push_back(Varint(largest));
    fields.push_back(Varint((uint64_t{1} << (bits - 1)) | 5));
  }
  fields.push_back(Varint(1714564800000000ull * 2));  // a write time of 2024, ZigZag
  fields.push_back(Varint(1717000000));               // an expiry of 2024
  fields.push_back(std::string("\x85\x00", 2));       // 5, not minimal
  fields.push_back(std::string("\x80\x80\x80\x80\x80\x80\x80\x00", 8));           // 0 in 8 bytes
  fields.push_back(std::string("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02", 10));  // 65 bits
  fields.push_back(std::string(11, '\x80'));                                      // never ends
  return fields;
}

TableSchema SchemaWithVersions(uint32_t versions) {
  TableSchema schema;
  EXPECT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("n", LogicalType::kBigInt)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  while (schema.version() < versions) {
    TableAlteration ttl;
    ttl.default_time_to_live = schema.version();
    TableSchema altered;
    EXPECT_TRUE(schema.Alter(ttl, &altered).ok());
    schema = altered;
  }
  return schema;
}

TEST(RowHeaderTest, DecodesAsTheLayoutSaysAtEveryLengthAndTruncation) {
  const RowCodec codec(SchemaWithVersions(130));  // versions of one and two varint bytes
  const std::vector<std::string> varints = VarintFields();
  const std::string versions[] = {
      Varint(0),   Varint(1),   Varint(2),   Varint(127),
      Varint(128), Varint(130), Varint(131), std::string("\x81\x00", 2)};
  // After the header: a row holding n = 0x0102030405060708 (9 bytes, so every varint of the
  // header has 8 bytes readable), a row whose n is null (1 byte), nothing.
  const std::string bodies[] = {std::string("\x01\x08\x07\x06\x05\x04\x03\x02\x01", 9),
                                std::string("\x00", 1), ""};
  size_t checked = 0, accepted = 0;
  auto check = [&](const std::string& value, bool whole_row) {
    const ReferenceHeader expected = ReadReferenceHeader(value, 130);
    // Followed in memory by bytes that would end a varint (a value read from a block is): a
    // decoder reading past the value would accept truncated fields.
    const std::string padded = value + std::string(16, '\x01');
    const Slice slice(padded.data(), value.size());
    RowMetadata meta;
    const Status s = codec.DecodeMetadata(slice, &meta);
    ASSERT_EQ(OutcomeOf(s), expected.outcome) << s.ToString() << " " << Slice(value).ToString(true);
    checked++;
    if (!s.ok()) {
      return;
    }
    accepted++;
    ASSERT_EQ(meta, expected.meta) << Slice(value).ToString(true);
    if (!whole_row) {
      return;
    }
    // DecodeCells starts the cells where the header ends.
    std::vector<RowCell> cells;
    const Status cells_status = codec.DecodeCells(slice, &meta, &cells);
    ASSERT_TRUE(cells_status.ok()) << cells_status.ToString() << Slice(value).ToString(true);
    ASSERT_EQ(meta, expected.meta);
    ASSERT_EQ(cells.size(), 1u);
    const std::string body = value.substr(expected.length);
    EXPECT_EQ(cells[0].present, body.size() == 9);
    if (body.size() == 9) {
      EXPECT_EQ(cells[0].fixed_bits, 0x0102030405060708ull);
    }
  };
  for (const std::string& version : versions) {
    for (int flags = 0; flags <= 4; flags++) {
      const std::vector<std::string> none = {""};
      const std::vector<std::string>& write_times = (flags & 1) != 0 ? varints : none;
      const std::vector<std::string>& expiries = (flags & 2) != 0 ? varints : none;
      for (const std::string& write_time : write_times) {
        for (const std::string& expiry : expiries) {
          std::string header = "\x01" + version;
          header += static_cast<char>(flags);
          header += write_time;
          header += expiry;
          for (const std::string& body : bodies) {
            const std::string value = header + body;
            check(value, !body.empty());
            if (HasFatalFailure()) {
              return;
            }
            std::string other_format = value;
            for (const char format : {'\x00', '\x02', '\x03'}) {
              other_format[0] = format;
              check(other_format, false);
              if (HasFatalFailure()) {
                return;
              }
            }
          }
          const std::string whole = header + bodies[0];
          for (size_t length = 0; length < whole.size(); length++) {
            check(whole.substr(0, length), false);
            if (HasFatalFailure()) {
              return;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(accepted, 10000u);
  EXPECT_GT(checked, 4 * accepted);
}

}  // namespace
}  // namespace columnar
