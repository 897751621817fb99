// Data block framing (data_block.h): round trips with every codec, and forged headers that
// claim more raw bytes than their payload can expand to, rejected before anything is allocated.
#include "table_format/data_block.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "table_format/byte_buffer.h"
#include "table_format/checksum.h"
#include "table_format/varint.h"
#include "table_format/zstd_codec.h"

namespace columnar {
namespace {

// A stored block with `payload` and `codec`, its checksum valid.
std::string Framed(const std::string& payload, uint8_t codec) {
  std::string stored = payload;
  stored.push_back(static_cast<char>(codec));
  PutFixed32(&stored, ComputeChecksum(stored));
  return stored;
}

// A compressed payload: varint32 raw length, then `frame`.
std::string Compressed(uint32_t raw_length, const std::string& frame) {
  std::string payload;
  PutVarint32(&payload, raw_length);
  return payload + frame;
}

TEST(DataBlockTest, HighlyCompressibleBlocksRoundTripWithEveryCodec) {
  for (BlockCodec codec : {BlockCodec::kNone, BlockCodec::kLz4, BlockCodec::kZstd}) {
    for (size_t size : {0, 1, 1000, 1 << 20, 3 << 20}) {
      const std::string raw(size, '\0');  // the best case of both compressors
      BlockCompressor compressor;
      compressor.codec = codec;
      std::string stored;
      ASSERT_TRUE(WriteBlock(raw, compressor, &stored).ok());
      std::string buffer;
      Slice read;
      const Status s = ReadBlock(stored, nullptr, true, &buffer, &read);
      ASSERT_TRUE(s.ok()) << static_cast<int>(codec) << " " << size << ": " << s.ToString();
      EXPECT_EQ(read.ToString(), raw);
    }
  }
}

// The overload that decompresses into a plain buffer (no zero fill) reads what the std::string
// one reads, for every codec and for bytes the compressors cannot shrink as well as for ones
// they can; an uncompressed block is a slice of the stored bytes and leaves the buffer unset.
TEST(DataBlockTest, UnclearedBufferOverloadReadsTheSameBytes) {
  std::string random_bytes(70000, '\0');
  uint64_t x = 88172645463325252ULL;
  for (char& c : random_bytes) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x % 7 == 0 ? 'a' : x);
  }
  for (BlockCodec codec : {BlockCodec::kNone, BlockCodec::kLz4, BlockCodec::kZstd}) {
    for (size_t size : {0, 1, 1000, 16384, 70000}) {
      const std::string raw = random_bytes.substr(0, size);
      BlockCompressor compressor;
      compressor.codec = codec;
      std::string stored;
      ASSERT_TRUE(WriteBlock(raw, compressor, &stored).ok());
      std::unique_ptr<char[]> buffer;
      Slice read;
      const Status s = ReadBlock(stored, nullptr, true, &buffer, &read);
      ASSERT_TRUE(s.ok()) << static_cast<int>(codec) << " " << size << ": " << s.ToString();
      EXPECT_EQ(read.ToString(), raw) << static_cast<int>(codec) << " " << size;
      const bool inside_stored = read.data() >= stored.data() &&
                                 read.data() + read.size() <= stored.data() + stored.size();
      // Decompressed into the buffer, or (stored uncompressed) a slice of the stored bytes.
      if (size > 0) {
        EXPECT_TRUE(read.data() == buffer.get() || inside_stored);
      }
      if (codec == BlockCodec::kNone && size > 0) {
        EXPECT_TRUE(inside_stored);
      }
      // A damaged copy is refused the same way by both overloads.
      std::string damaged = stored;
      damaged[damaged.size() / 2] ^= 0x10;
      std::string string_buffer;
      EXPECT_EQ(ReadBlock(damaged, nullptr, true, &buffer, &read).code(),
                ReadBlock(damaged, nullptr, true, &string_buffer, &read).code());
    }
  }
}

// A compressor writes its payload in place, in a ByteBuffer grown by its bound: blocks written
// one after another into one buffer, large and small, half of their bytes random (some stored
// raw), each read back from where it was appended; the bytes before each are left as they
// were, the std::string overload writes the same bytes, and a block the codec shrinks is stored
// as small as the codec made it.
TEST(DataBlockTest, BlocksAppendedOneAfterAnotherReadBackWhateverTheirSizes) {
  uint64_t x = 2463534242ULL;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (BlockCodec codec : {BlockCodec::kLz4, BlockCodec::kZstd}) {
    BlockCompressor compressor;
    compressor.codec = codec;
    ByteBuffer stored;
    stored.append("prefix", 6);
    std::vector<std::string> raws;
    std::vector<size_t> starts;
    for (size_t size : {1000, 3 << 20, 16384, 2 << 20, 10, 70000, 1, 4000}) {
      std::string raw(size, '\0');
      const bool random = size != 4000;  // random halves; one block of bytes lz4 cannot shrink
      for (size_t i = 0; i < size; i++) {
        raw[i] = static_cast<char>(i % 2 == 0 || !random ? next() : i / 64);
      }
      starts.push_back(stored.size());
      ASSERT_TRUE(WriteBlock(raw, compressor, &stored).ok());
      std::string as_string;
      ASSERT_TRUE(WriteBlock(raw, compressor, &as_string).ok());
      EXPECT_EQ(Slice(stored.data() + starts.back(), stored.size() - starts.back()).ToString(),
                as_string);
      raws.push_back(std::move(raw));
    }
    // A block the codec shrinks is stored compressed, at the length the codec wrote.
    const std::string zeros(16384, '\0');
    starts.push_back(stored.size());
    ASSERT_TRUE(WriteBlock(zeros, compressor, &stored).ok());
    EXPECT_LT(stored.size() - starts.back(), zeros.size() / 20) << static_cast<int>(codec);
    raws.push_back(zeros);
    starts.push_back(stored.size());
    EXPECT_EQ(Slice(stored.data(), 6).ToString(), "prefix");
    for (size_t b = 0; b < raws.size(); b++) {
      const Slice block(stored.data() + starts[b], starts[b + 1] - starts[b]);
      std::string buffer;
      Slice read;
      const Status s = ReadBlock(block, nullptr, true, &buffer, &read);
      ASSERT_TRUE(s.ok()) << static_cast<int>(codec) << " block " << b << ": " << s.ToString();
      EXPECT_EQ(read.ToString(), raws[b]) << static_cast<int>(codec) << " block " << b;
    }
  }
}

// Found by file_parts_fuzzer as a slow unit (about a second per input): 49 bytes whose raw
// length says 1 GiB - 1 and whose codec byte is unknown. The reader sized its buffer to the
// raw length before it looked at the codec.
TEST(DataBlockTest, FuzzerSlowUnitIsRejectedWithoutAllocating) {
  const unsigned char unit[] = {0xff, 0xff, 0xff, 0xff, 0x03, 0x01, 0x05, 0x7c, 0xff, 0xff,
                                0x01, 0x04, 0x02, 0x04, 0x88, 0xff, 0x15, 0xff, 0xff, 0xff,
                                0xff, 0xff, 0xff, 0x01, 0x05, 0x03, 0x7c, 0x01, 0x04, 0x02,
                                0x04, 0x88, 0xff, 0x15, 0x04, 0x57, 0xd7, 0xff, 0x04, 0x00,
                                0x10, 0x04, 0x57, 0xd7, 0xff, 0x04, 0x00, 0x10, 0x6e};
  const Slice stored(reinterpret_cast<const char*>(unit), sizeof(unit));
  for (bool verify : {false, true}) {
    std::string buffer;
    Slice raw;
    EXPECT_TRUE(ReadBlock(stored, nullptr, verify, &buffer, &raw).IsCorruption());
    EXPECT_LT(buffer.capacity(), 1u << 20) << "verify " << verify;
    std::unique_ptr<char[]> plain_buffer;
    EXPECT_TRUE(ReadBlock(stored, nullptr, verify, &plain_buffer, &raw).IsCorruption());
    EXPECT_EQ(plain_buffer, nullptr) << "verify " << verify;
  }
}

TEST(DataBlockTest, RawLengthBeyondThePayloadsReachIsCorruption) {
  // Each codec with a raw length of 1 GiB and a payload of a few bytes (a zstd frame header
  // that claims the same size, so only the bound on expansion can catch it).
  const std::string zstd_frame_header =
      std::string("\x28\xb5\x2f\xfd\xe0", 5) + std::string("\x00\x00\x00\x40\x00\x00\x00\x00", 8);
  for (uint8_t codec : {1, 2, 3, 9}) {
    const std::string frame = codec == 1 ? std::string(12, '\x1f') : zstd_frame_header;
    const std::string stored = Framed(Compressed(kMaxBlockRawBytes, frame), codec);
    std::string buffer;
    Slice raw;
    EXPECT_TRUE(ReadBlock(stored, nullptr, true, &buffer, &raw).IsCorruption()) << int{codec};
    EXPECT_LT(buffer.capacity(), 1u << 20) << "codec " << int{codec};
  }
}

}  // namespace
}  // namespace columnar
