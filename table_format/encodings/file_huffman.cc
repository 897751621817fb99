// file_huffman: see file_huffman.h for the byte layouts.
#include "table_format/encodings/file_huffman.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "file_huffman";
constexpr uint8_t kTableKind = 1;

bool Supports(PhysicalType type) { return IsIntegerType(type); }

Status RefuseEncode(const ColumnVector& /*values*/, std::string* /*out*/) {
  return Status::InvalidArgument("file_huffman: needs the file's dictionary");
}

Status RefuseDecode(PhysicalType /*type*/, const Slice& /*body*/, size_t /*count*/,
                    ColumnVector* /*out*/) {
  return Status::Corruption("file_huffman: chunk read without the file's dictionary");
}

}  // namespace

bool FileHuffmanTable::Build(std::vector<std::pair<int64_t, uint64_t>> counts,
                             uint64_t escape_count, FileHuffmanTable* out) {
  if (counts.empty()) return false;
  // The most frequent first (ties by value, so the table depends on the counts only).
  std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  uint64_t escape = std::max<uint64_t>(escape_count, 1);
  if (counts.size() > kMaxFileHuffmanSymbols) {
    for (size_t i = kMaxFileHuffmanSymbols; i < counts.size(); i++) escape += counts[i].second;
    counts.resize(kMaxFileHuffmanSymbols);
  }
  std::sort(counts.begin(), counts.end());
  if (counts.back().first == std::numeric_limits<int64_t>::max()) return false;
  counts.emplace_back(counts.back().first + 1, escape);
  std::vector<uint64_t> weights;
  out->table_.symbols.clear();
  for (const auto& [value, count] : counts) {
    out->table_.symbols.push_back(value);
    weights.push_back(count);
  }
  out->table_.lengths = HuffmanCodeLengths(weights);
  out->Prepare();
  return true;
}

Status FileHuffmanTable::Parse(const Slice& entry, FileHuffmanTable* out) {
  Slice in = entry;
  uint8_t kind;
  if (!GetFixed8(&in, &kind) || kind != kTableKind) {
    return EncodingCorruption(kName, "table entry is not a Huffman table");
  }
  Status s = HuffmanTable::Parse(&in, 64, kMaxFileHuffmanSymbols + 1, kName, &out->table_);
  if (!s.ok()) return s;
  if (out->table_.symbols.size() < 2 || !in.empty()) {
    return EncodingCorruption(kName, "malformed table entry");
  }
  out->decoder_ = std::make_shared<HuffmanDecoder>(out->table_, /*with_lookup=*/true);
  return Status::OK();  // no encoder state: readers only decode
}

void FileHuffmanTable::Prepare() {
  codes_ = table_.StreamCodes();
  index_ = IntegerIds();
  bool added;
  for (size_t i = 0; i + 1 < table_.symbols.size(); i++) {
    index_.FindOrAdd(table_.symbols[i], &added);  // symbols are distinct: id i
  }
}

std::string FileHuffmanTable::Serialize() const {
  std::string entry(1, static_cast<char>(kTableKind));
  table_.Append(&entry);
  return entry;
}

void FileHuffmanTable::Encode(uint32_t table_code, const ColumnVector& values,
                              std::string* out) const {
  PutVarint32(out, table_code);
  VisitIntegerType(values.type(), [&](auto tag) {
    using T = decltype(tag);
    const T* data = values.data<T>();
    const size_t n = values.size();
    const uint32_t escape = static_cast<uint32_t>(table_.symbols.size() - 1);
    // A thread's scratch: the body is encoded for every trial of a chunk's codes.
    thread_local std::vector<uint32_t> indices;
    indices.resize(n);
    bool any_escape = false;
    for (size_t i = 0; i < n; i++) {
      if (i > 0 && data[i] == data[i - 1]) {  // runs of a code
        indices[i] = indices[i - 1];
        continue;
      }
      const uint32_t index = index_.Find(static_cast<int64_t>(data[i]));
      indices[i] = index == IntegerIds::kNone ? escape : index;
      any_escape |= indices[i] == escape;
    }
    ShortCodeWriter writer(out, n * kMaxHuffmanCodeLength);
    for (size_t i = 0; i < n; i++) writer.Write(codes_[indices[i]], table_.lengths[indices[i]]);
    writer.Finish();
    if (!any_escape) return;
    for (size_t i = 0; i < n; i++) {
      if (indices[i] == escape) PutSignedVarint(out, static_cast<UnsignedOf<T>>(data[i]));
    }
  });
}

Status FileHuffmanTable::Decode(const Slice& stream_and_escapes, size_t count, PhysicalType type,
                                ColumnVector* out) const {
  return VisitIntegerType(type, [&](auto tag) -> Status {
    using T = decltype(tag);
    using U = UnsignedOf<T>;
    // Real symbols are ascending: the first and the one before the escape bound them all.
    const size_t k = table_.symbols.size();
    if (table_.symbols[0] < std::numeric_limits<T>::min() ||
        table_.symbols[k - 2] > std::numeric_limits<T>::max()) {
      return EncodingCorruption(kName, "table value beyond the column type");
    }
    const auto* stream = reinterpret_cast<const uint8_t*>(stream_and_escapes.data());
    const size_t total_bits = stream_and_escapes.size() * 8;
    // Every value costs at least one bit: refuse counts the body cannot hold before looping.
    if (count > total_bits) return EncodingCorruption(kName, "body shorter than its values");
    if (decoder_ == nullptr) return EncodingCorruption(kName, "table not parsed");
    const HuffmanDecoder& decoder = *decoder_;
    const uint32_t escape = static_cast<uint32_t>(table_.symbols.size() - 1);
    U* dst = AppendFixedSlots<T>(out, count);
    std::vector<uint32_t> escaped;
    size_t pos = 0;
    for (size_t row = 0; row < count; row++) {
      uint32_t index;
      if (!decoder.Next(stream, total_bits, &pos, &index)) {
        return EncodingCorruption(kName, "bit pattern of no value");
      }
      if (index == escape) {
        escaped.push_back(static_cast<uint32_t>(row));
        continue;
      }
      dst[row] = static_cast<U>(static_cast<T>(table_.symbols[index]));
    }
    const size_t stream_bytes = (pos + 7) / 8;
    if (pos % 8 != 0 && (stream[pos >> 3] >> (pos & 7)) != 0) {
      return EncodingCorruption(kName, "padding bits set");
    }
    Slice escapes(stream_and_escapes.data() + stream_bytes,
                  stream_and_escapes.size() - stream_bytes);
    for (uint32_t row : escaped) {
      if (!GetSignedVarint(&escapes, &dst[row])) {
        return EncodingCorruption(kName, "truncated escapes");
      }
    }
    if (!escapes.empty()) return EncodingCorruption(kName, "trailing bytes");
    return Status::OK();
  });
}

void FileHuffmanTableMaker::Count(const ColumnVector& values) {
  VisitIntegerType(values.type(), [&](auto tag) {
    using T = decltype(tag);
    const T* data = values.data<T>();
    for (size_t i = 0; i < values.size(); i++) {
      const auto value = static_cast<int64_t>(data[i]);
      if (values_.size() < kMaxCountedSymbols) {
        bool added;
        const uint32_t id = ids_.FindOrAdd(value, &added);
        if (added) {
          values_.push_back(value);
          counts_.push_back(1);
        } else {
          counts_[id]++;
        }
        continue;
      }
      const uint32_t id = ids_.Find(value);
      if (id != IntegerIds::kNone) {
        counts_[id]++;
      } else {
        uncounted_++;
      }
    }
  });
  chunks_++;
}

bool FileHuffmanTableMaker::TakeDueTable(FileHuffmanTable* table, std::string* entry) {
  if (chunks_ < next_table_at_) return false;
  next_table_at_ *= 4;
  // The escape is weighted like the values seen once (Good-Turing: the chance that the next
  // value is new), plus those not counted.
  uint64_t once = 0;
  std::vector<std::pair<int64_t, uint64_t>> counts(values_.size());
  for (size_t id = 0; id < values_.size(); id++) counts[id] = {values_[id], counts_[id]};
  for (const auto& entry_count : counts) once += entry_count.second == 1 ? 1 : 0;
  if (!FileHuffmanTable::Build(std::move(counts), once + uncounted_, table)) return false;
  *entry = table->Serialize();
  return true;
}

namespace {

// The tables this thread parsed: a table entry is parsed once per file and column, not once
// per chunk (a scan reads a dozen columns with a few tables each). Found by the entry's
// address, then its bytes compared whole, so a table freed and another made at the same
// address are never confused.
struct ParsedTable {
  std::string entry;
  FileHuffmanTable table;
};
constexpr size_t kMaxParsedTables = 1024;

Status ParseCached(const Slice& entry, const FileHuffmanTable** table) {
  thread_local std::unordered_map<const char*, ParsedTable> cache;
  auto it = cache.find(entry.data());
  if (it != cache.end() && Slice(it->second.entry) == entry) {
    *table = &it->second.table;
    return Status::OK();
  }
  ParsedTable parsed;
  Status s = FileHuffmanTable::Parse(entry, &parsed.table);
  if (!s.ok()) return s;
  parsed.entry.assign(entry.data(), entry.size());
  if (it == cache.end() && cache.size() >= kMaxParsedTables) cache.clear();
  ParsedTable& slot = cache[entry.data()];
  slot = std::move(parsed);
  *table = &slot.table;
  return Status::OK();
}

}  // namespace

Status DecodeFileHuffmanBody(const Slice& body, size_t count, const ColumnVector& entries,
                             PhysicalType type, ColumnVector* out) {
  Slice in = body;
  uint32_t table_code;
  if (!GetVarint32(&in, &table_code)) return EncodingCorruption(kName, "truncated table code");
  if (table_code == 0 || table_code > entries.size()) {
    return EncodingCorruption(kName, "table code outside the dictionary");
  }
  const FileHuffmanTable* table = nullptr;
  Status s = ParseCached(entries.GetBytes(table_code - 1), &table);
  if (!s.ok()) return s;
  return table->Decode(in, count, type, out);
}

const Codec& FileHuffmanCodec() {
  static const Codec codec{Encoding::kFileHuffman, kName, Supports, RefuseEncode, RefuseDecode};
  return codec;
}

}  // namespace columnar
