#include "table_format/file_dictionary.h"

#include <functional>
#include <string_view>

#include "table_format/varint.h"

namespace columnar {

namespace {

// Entries a chunk admits are stored once per file and then serve every later chunk; a chunk
// is charged this fraction of their bytes when it weighs the file dictionary against its
// local encoding.
constexpr size_t kAdmissionChargeDivisor = 4;

uint64_t HashOf(const Slice& value) {
  return std::hash<std::string_view>()(std::string_view(value.data(), value.size()));
}

Status EncodeNested(const ColumnVector& values, std::string* out) {
  std::string body;
  Encoding encoding;
  Status s = EncodeWithBestEncoding(Encoding::kAuto, values, &body, &encoding);
  if (!s.ok()) return s;
  out->push_back(static_cast<char>(encoding));
  out->append(body);
  return Status::OK();
}

}  // namespace

uint32_t FileDictionaryWriter::CodeOf(const Slice& value) const {
  const auto it = codes_.find(std::string_view(value.data(), value.size()));
  return it == codes_.end() ? 0 : it->second;
}

void FileDictionaryWriter::Remember(const ColumnVector& values) {
  for (size_t i = 0; i < values.size() && seen_.size() < limits_.max_remembered; i++) {
    seen_.insert(HashOf(values.GetBytes(i)));
  }
}

bool FileDictionaryWriter::TryEncode(const ColumnVector& values, size_t local_size,
                                     std::string* body) {
  ColumnVector codes(PhysicalType::kInt32);
  ColumnVector exceptions(PhysicalType::kBytes);
  codes.Reserve(values.size());
  std::unordered_map<std::string_view, uint32_t> admitted_codes;
  std::vector<std::string_view> admitted;
  size_t admitted_bytes = 0;
  bool any_code = false;
  for (size_t i = 0; i < values.size(); i++) {
    const Slice value = values.GetBytes(i);
    const std::string_view view(value.data(), value.size());
    uint32_t code = CodeOf(value);
    if (code == 0) {
      const auto pending = admitted_codes.find(view);
      if (pending != admitted_codes.end()) {
        code = pending->second;
      } else if (seen_.count(HashOf(value)) != 0 &&
                 entries_.size() + admitted.size() < limits_.max_entries &&
                 entry_bytes_ + admitted_bytes + value.size() <= limits_.max_bytes) {
        // Seen in an earlier chunk: it recurs, so it earns a place in the dictionary.
        code = static_cast<uint32_t>(entries_.size() + admitted.size() + 1);
        admitted_codes.emplace(view, code);
        admitted.push_back(view);
        admitted_bytes += value.size();
      }
    }
    if (code == 0) exceptions.AppendBytes(value);
    any_code |= code != 0;
    codes.Append<int32_t>(static_cast<int32_t>(code));
  }

  bool use = false;
  std::string encoded;
  if (any_code) {
    std::string code_part;
    Status s = EncodeNested(codes, &code_part);
    if (s.ok()) {
      // code_part = encoding byte + body; the layout wants the body length after the byte.
      encoded.push_back(code_part[0]);
      PutVarint32(&encoded, static_cast<uint32_t>(code_part.size() - 1));
      encoded.append(code_part, 1, std::string::npos);
      s = EncodeNested(exceptions, &encoded);
    }
    use = s.ok() && encoded.size() + admitted_bytes / kAdmissionChargeDivisor < local_size;
  }
  if (use) {
    for (std::string_view value : admitted) {
      entries_.emplace_back(value);
      codes_.emplace(entries_.back(), static_cast<uint32_t>(entries_.size()));
      entry_bytes_ += value.size();
    }
    body->append(encoded);
  }
  Remember(values);
  return use;
}

ColumnVector FileDictionaryWriter::Entries() const {
  ColumnVector entries(PhysicalType::kBytes);
  entries.Reserve(entries_.size());
  for (const std::string& entry : entries_) entries.AppendBytes(entry);
  return entries;
}

FileDictionaryWriter* FileDictionaryWriters::For(const std::string& column) {
  std::unique_ptr<FileDictionaryWriter>& writer = columns_[column];
  if (writer == nullptr) writer = std::make_unique<FileDictionaryWriter>(limits_);
  return writer.get();
}

bool FileDictionaryWriters::empty() const {
  for (const auto& entry : columns_) {
    if (entry.second->entry_count() > 0) return false;
  }
  return true;
}

size_t FileDictionaryWriters::entry_bytes() const {
  size_t bytes = 0;
  for (const auto& entry : columns_) bytes += entry.second->entry_bytes();
  return bytes;
}

Status FileDictionaryWriters::Finish(const ChunkWriteOptions& options, std::string* raw) const {
  size_t used = 0;
  for (const auto& entry : columns_) used += entry.second->entry_count() > 0 ? 1 : 0;
  PutVarint32(raw, static_cast<uint32_t>(used));
  for (const auto& [name, writer] : columns_) {
    if (writer->entry_count() == 0) continue;
    PutLengthPrefixed(raw, name);
    Status s = WriteChunk(writer->Entries(), options, raw);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status FileDictionarySet::Decode(const Slice& raw, FileDictionarySet* out) {
  out->columns_.clear();
  Slice in = raw;
  uint32_t count;
  if (!GetVarint32(&in, &count) || count > in.size()) {
    return Status::Corruption("file dictionaries: bad column count");
  }
  for (uint32_t i = 0; i < count; i++) {
    Slice name;
    if (!GetLengthPrefixed(&in, &name)) return Status::Corruption("file dictionaries: truncated");
    ColumnVector entries(PhysicalType::kBytes);
    ChunkReadOptions options;
    options.verify_checksum = false;  // the block is checksummed
    Status s = ReadChunk(&in, PhysicalType::kBytes, &entries, options);
    if (!s.ok()) return s;
    if (entries.has_nulls()) return Status::Corruption("file dictionaries: null entry");
    out->columns_[name.ToString()] = std::move(entries);
  }
  if (!in.empty()) return Status::Corruption("file dictionaries: trailing bytes");
  return Status::OK();
}

const ColumnVector* FileDictionarySet::Find(const std::string& column) const {
  const auto it = columns_.find(column);
  return it == columns_.end() ? nullptr : &it->second;
}

size_t FileDictionarySet::MemoryUsage() const {
  size_t bytes = 0;
  for (const auto& entry : columns_) bytes += entry.first.size() + entry.second.MemoryUsage();
  return bytes;
}

Status DecodeFileDictionaryBody(const Slice& body, size_t count, const ColumnVector& entries,
                                ColumnVector* out) {
  Slice in = body;
  uint8_t code_encoding;
  uint32_t code_length;
  if (!GetFixed8(&in, &code_encoding) || !GetVarint32(&in, &code_length) ||
      in.size() < code_length) {
    return Status::Corruption("file_dictionary: truncated codes");
  }
  ColumnVector codes(PhysicalType::kInt32);
  Status s = DecodeValues(static_cast<Encoding>(code_encoding), PhysicalType::kInt32,
                          Slice(in.data(), code_length), count, &codes);
  if (!s.ok()) return s;
  in.remove_prefix(code_length);
  size_t exception_count = 0;
  const int32_t* code_data = codes.data<int32_t>();
  for (size_t i = 0; i < count; i++) {
    if (code_data[i] < 0 || static_cast<size_t>(code_data[i]) > entries.size()) {
      return Status::Corruption("file_dictionary: code outside the dictionary");
    }
    exception_count += code_data[i] == 0 ? 1 : 0;
  }
  uint8_t exception_encoding;
  if (!GetFixed8(&in, &exception_encoding)) {
    return Status::Corruption("file_dictionary: truncated exceptions");
  }
  ColumnVector exceptions(PhysicalType::kBytes);
  s = DecodeValues(static_cast<Encoding>(exception_encoding), PhysicalType::kBytes, in,
                   exception_count, &exceptions);
  if (!s.ok()) return s;
  out->Reset(PhysicalType::kBytes);
  out->Reserve(count);
  size_t next_exception = 0;
  for (size_t i = 0; i < count; i++) {
    out->AppendBytes(code_data[i] == 0 ? exceptions.GetBytes(next_exception++)
                                       : entries.GetBytes(static_cast<size_t>(code_data[i]) - 1));
  }
  return Status::OK();
}

}  // namespace columnar
