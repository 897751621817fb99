// Chunk decoders (table_format/chunk.h and every encoding of table_format/encodings/) on
// arbitrary bytes.
//
// Input: [type u8] [mode u8] rest
//   mode bit 0 clear: `rest` is a whole chunk (header and body), read as `type`, with the
//                     checksum verified when mode bit 1 is set.
//   mode bit 0 set:   rest = [encoding u8] [value_count u16 LE] body: `body` is wrapped in a
//                     valid header (no checksum, mode bit 2 = nulls flag), so every encoding x
//                     type decoder sees arbitrary bodies without first having to forge a
//                     header.
// Whatever decodes must hold exactly value_count values and survive a round trip through
// WriteChunk (plain and its own encoding); malformed input must be a Status error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/encoding.h"
#include "table_format/varint.h"
#include "tests/fuzz/fuzz_schema.h"

namespace columnar {
namespace {

// Entries of a file dictionary, for chunks encoded file_dictionary.
const ColumnVector& FileDictionaryEntries() {
  static const ColumnVector* entries = [] {
    auto* v = new ColumnVector(PhysicalType::kBytes);
    for (const char* s : {"", "GET", "POST", "a-much-longer-entry-of-the-dictionary", "zz"}) {
      v->AppendBytes(s);
    }
    return v;
  }();
  return *entries;
}

void CheckRoundTrip(const ColumnVector& decoded, Encoding encoding) {
  for (Encoding write_as : {Encoding::kPlain, encoding}) {
    if (write_as == Encoding::kFileDictionary) continue;  // written by the chunk layer only
    ChunkWriteOptions write;
    write.encoding = write_as;
    std::string chunk;
    if (!WriteChunk(decoded, write, &chunk).ok()) {
      FUZZ_CHECK(write_as != Encoding::kPlain);  // plain takes any values
      continue;
    }
    Slice in(chunk);
    ColumnVector again(decoded.type());
    FUZZ_CHECK(ReadChunk(&in, decoded.type(), &again).ok());
    FUZZ_CHECK(in.empty());
    FUZZ_CHECK(again.Equals(decoded));
  }
}

void DecodeChunk(const Slice& chunk, PhysicalType type, bool verify_checksum) {
  ChunkReadOptions options;
  options.verify_checksum = verify_checksum;
  if (type == PhysicalType::kBytes) options.file_dictionary = &FileDictionaryEntries();

  ChunkHeader header;
  const bool header_ok = ParseChunkHeader(chunk, &header).ok();
  Slice skip = chunk;
  FUZZ_CHECK(SkipChunk(&skip).ok() == header_ok);

  Slice in = chunk;
  ColumnVector out(type);
  if (ReadChunk(&in, type, &out, options).ok()) {
    FUZZ_CHECK(header_ok);
    FUZZ_CHECK(out.type() == type);
    FUZZ_CHECK(out.size() == header.value_count);
    FUZZ_CHECK(in.size() == chunk.size() - header.total_size());
    CheckRoundTrip(out, header.encoding);
  }

  // Only some rows wanted (file_dictionary chunks may skip the others' bytes).
  if (header_ok && header.value_count > 0 && header.value_count <= 4096) {
    std::vector<uint64_t> wanted((header.value_count + 63) / 64, 0x5555555555555555ull);
    options.wanted_rows = wanted.data();
    Slice again = chunk;
    ColumnVector partial(type);
    if (ReadChunk(&again, type, &partial, options).ok()) {
      FUZZ_CHECK(partial.size() == header.value_count);
    }
    options.wanted_rows = nullptr;
  }

  Slice dict_in = chunk;
  ColumnVector dictionary(type);
  std::vector<uint32_t> codes;
  std::string presence;
  Status s = ReadChunkDictionary(&dict_in, type, options, &dictionary, &codes, &presence);
  if (s.ok()) {
    for (uint32_t code : codes) FUZZ_CHECK(code < dictionary.size());
  }
}

}  // namespace
}  // namespace columnar

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  if (size < 2) return 0;
  const auto type = static_cast<PhysicalType>(data[0] % kNumPhysicalTypes);
  const uint8_t mode = data[1];
  Slice rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  if ((mode & 1) == 0) {
    DecodeChunk(rest, type, (mode & 2) != 0);
    return 0;
  }
  if (rest.size() < 3) return 0;
  const uint8_t encoding = static_cast<uint8_t>(rest[0]) % 15;
  const uint32_t count = static_cast<uint8_t>(rest[1]) | (static_cast<uint8_t>(rest[2]) << 8);
  rest.remove_prefix(3);
  std::string chunk;
  chunk.push_back(static_cast<char>(encoding));
  chunk.push_back(static_cast<char>((mode & 4) ? 1 : 0));  // flags: nulls bit only
  PutVarint32(&chunk, count);
  PutVarint32(&chunk, static_cast<uint32_t>(rest.size()));
  chunk.append(rest.data(), rest.size());
  DecodeChunk(chunk, type, false);
  return 0;
}
