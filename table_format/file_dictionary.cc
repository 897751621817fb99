#include "table_format/file_dictionary.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "table_format/encodings/key_index.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

// Entries a chunk admits are stored once per file and then serve every later chunk; a chunk
// is charged this fraction of their bytes when it weighs the file dictionary against its
// local encoding.
constexpr size_t kAdmissionChargeDivisor = 4;

// An integer chunk takes the file's Huffman table only when that saves at least this fraction
// of its local body.
constexpr size_t kTableMinSavingDivisor = 8;

uint64_t HashOf(const Slice& value) { return HashBytes(value.data(), value.size()); }

// `memo`: the column's memo of these codes or exceptions (their form's), reused when there are
// values (an empty column would make it forget its choice).
Status EncodeNested(const ColumnVector& values, EncodingMemo* memo, std::string* out) {
  std::string body;
  Encoding encoding;
  Status s = memo != nullptr && !values.empty()
                 ? memo->Encode(values, &body, &encoding)
                 : EncodeWithBestEncoding(Encoding::kAuto, values, &body, &encoding);
  if (!s.ok()) return s;
  out->push_back(static_cast<char>(encoding));
  out->append(body);
  return Status::OK();
}

}  // namespace

uint32_t FileDictionaryIndex::Find(uint64_t hash, const Slice& value) const {
  if (size_ == 0) return 0;
  const size_t mask = slots_.size() - 1;
  for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const Slot& s = slots_[slot];
    if (s.code == 0) return 0;
    if (s.hash == hash && Slice(s.data, s.size) == value) return s.code;
  }
}

void FileDictionaryIndex::Insert(uint64_t hash, uint32_t code, const Slice& entry) {
  if ((size_ + 1) * 2 > slots_.size()) Grow();
  const size_t mask = slots_.size() - 1;
  size_t slot = hash & mask;
  while (slots_[slot].code != 0) slot = (slot + 1) & mask;
  slots_[slot] = Slot{hash, entry.data(), static_cast<uint32_t>(entry.size()), code};
  size_++;
}

void FileDictionaryIndex::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(std::max<size_t>(64, old.size() * 2), Slot{0, nullptr, 0, 0});
  size_ = 0;
  for (const Slot& s : old) {
    if (s.code != 0) Insert(s.hash, s.code, Slice(s.data, s.size));
  }
}

void FileDictionaryIndex::Clear() {
  if (size_ == 0) return;
  std::fill(slots_.begin(), slots_.end(), Slot{0, nullptr, 0, 0});
  size_ = 0;
}

SeenFilter::SeenFilter(size_t max_values, size_t bits_per_value) {
  blocks_ = 1;
  while (blocks_ * kBlockBits < max_values * bits_per_value) blocks_ *= 2;
}

void SeenFilter::Add(uint64_t hash) {
  if (words_.empty()) {
    // Over-allocated by a block, so that blocks start on a 64-byte boundary.
    words_.assign(blocks_ * kBlockWords + kBlockWords, 0);
    const auto address = reinterpret_cast<uintptr_t>(words_.data());
    first_word_ = (64 - address % 64) % 64 / sizeof(uint64_t);
  }
  auto* block = const_cast<uint64_t*>(Block(hash));
  ForEachProbe(hash, [&](uint64_t word, uint64_t mask) { block[word] |= mask; });
}

FileDictionaryWriter::FileDictionaryWriter(FileDictionaryLimits limits)
    : limits_(limits), seen_(limits.max_remembered, /*bits_per_value=*/8) {}

bool FileDictionaryWriter::Seen(uint64_t hash) const { return seen_.Contains(hash); }

RecurrenceCount FileDictionaryWriter::Remember(const std::vector<uint64_t>& hashes,
                                               const int32_t* codes) {
  RecurrenceCount count;
  for (size_t i = 0; i < hashes.size(); i++) {
    // A hash equal to the previous one was just found seen or remembered (runs of a value).
    if (i > 0 && hashes[i] == hashes[i - 1]) continue;
    const bool sampled = RecurrenceForecast::InSample(hashes[i]);
    count.distinct++;
    count.sampled_distinct += sampled ? 1 : 0;
    // A value with a code is an entry, or was seen before its trial admitted it: it is in the
    // filter already. (Its trial or HashValues asked for the filter's line: the probe hits.)
    if ((codes != nullptr && codes[i] != 0) || Seen(hashes[i])) {
      count.recurring++;
      count.sampled_recurring += sampled ? 1 : 0;
    } else {
      RememberSeen(hashes[i]);
    }
  }
  return count;
}

RecurrenceCount FileDictionaryWriter::RememberSample(const ColumnVector& values) {
  RecurrenceCount count;
  for (size_t i = 0; i < values.size(); i++) {
    const Slice value = values.GetBytes(i);
    if (i > 0 && value == values.GetBytes(i - 1)) continue;
    const uint64_t hash = HashOf(value);
    if (!RecurrenceForecast::InSample(hash)) continue;
    count.sampled_distinct++;
    if (Recurs(value, hash)) {
      count.sampled_recurring++;
    } else {
      RememberSeen(hash);
    }
  }
  return count;
}

void FileDictionaryWriter::RememberSeen(uint64_t hash) {
  if (remembered_ >= limits_.max_remembered) return;
  seen_.Add(hash);
  remembered_++;
}

bool FileDictionaryWriter::Recurs(const Slice& value) const { return Recurs(value, HashOf(value)); }

bool FileDictionaryWriter::Recurs(const Slice& value, uint64_t hash) const {
  return codes_.Find(hash, value) != 0 || Seen(hash);
}

void FileDictionaryWriter::HashValues(const ColumnVector& values,
                                      FileDictionaryTrial* trial) const {
  trial->body.clear();
  trial->admitted_bytes = 0;
  trial->usable = false;
  trial->pending.clear();
  trial->pending_hashes.clear();
  trial->writes_table = false;
  trial->codes.Reset(PhysicalType::kInt32);
  trial->recurs.clear();
  trial->hashes.resize(values.size());
  PrefetchLookups(values, trial->hashes.data());
}

void FileDictionaryWriter::PrefetchLookups(const ColumnVector& values, uint64_t* hashes) const {
  // All the values' lookups are independent: their misses overlap when every one is asked for
  // before the first is needed (a chunk's 128 values at most some 16 KiB of cache lines).
  for (size_t i = 0; i < values.size(); i++) {
    const Slice value = values.GetBytes(i);
    if (i > 0 && value == values.GetBytes(i - 1)) {  // a run: the same hash, lines asked for
      hashes[i] = hashes[i - 1];
      continue;
    }
    hashes[i] = HashOf(value);
    codes_.Prefetch(hashes[i]);
    seen_.Prefetch(hashes[i]);
  }
}

bool FileDictionaryWriter::Trial(const ColumnVector& values, FileDictionaryTrial* trial,
                                 FileDictionaryForm form) {
  TrialMemos& memos = trial_memos_[static_cast<size_t>(form)];
  ColumnVector& codes = trial->codes;
  codes.Reset(PhysicalType::kInt32);
  ColumnVector exceptions(PhysicalType::kBytes);
  codes.Reserve(values.size());
  trial->body.clear();
  trial->admitted_bytes = 0;
  trial->usable = false;
  trial->hashes.resize(values.size());
  trial->recurs.resize(values.size());
  trial->pending.clear();
  trial->pending_hashes.clear();
  trial->writes_table = false;
  pending_codes_.Clear();
  PrefetchLookups(values, trial->hashes.data());
  bool any_code = false;
  for (size_t i = 0; i < values.size(); i++) {
    const Slice value = values.GetBytes(i);
    if (i > 0 && trial->hashes[i] == trial->hashes[i - 1] && value == values.GetBytes(i - 1)) {
      // A run of a value: the same hash and code (admitting the first row admitted the value;
      // a first row without a code found nothing that a second look would).
      const int32_t code = codes.Get<int32_t>(i - 1);
      trial->recurs[i] = trial->recurs[i - 1];
      if (code == 0) exceptions.AppendBytes(value);
      codes.Append<int32_t>(code);
      continue;
    }
    const uint64_t hash = trial->hashes[i];
    uint32_t code = codes_.Find(hash, value);
    // A pending value was seen (that is how it became pending).
    bool recurs = true;
    if (code == 0) {
      const uint32_t pending = pending_codes_.Find(hash, value);
      if (pending != 0) {
        code = static_cast<uint32_t>(entries_.size()) + pending;
      } else {
        recurs = Seen(hash);
        if (recurs && entries_.size() + trial->pending.size() < limits_.max_entries &&
            entry_bytes_ + trial->admitted_bytes + value.size() <= limits_.max_bytes) {
          // Seen in an earlier chunk: it recurs, so it earns a place in the dictionary.
          trial->pending.emplace_back(value.data(), value.size());
          trial->pending_hashes.push_back(hash);
          pending_codes_.Insert(hash, static_cast<uint32_t>(trial->pending.size()),
                                trial->pending.back());
          code = static_cast<uint32_t>(entries_.size() + trial->pending.size());
          trial->admitted_bytes += value.size();
        }
      }
    }
    trial->recurs[i] = recurs;
    if (code == 0) exceptions.AppendBytes(value);
    any_code |= code != 0;
    codes.Append<int32_t>(static_cast<int32_t>(code));
  }
  if (!any_code) return false;
  std::string code_part;
  Status s = EncodeCodes(codes, trial, &code_part, &memos);
  if (s.ok()) {
    // code_part = encoding byte + body; the layout wants the body length after the byte.
    trial->body.push_back(code_part[0]);
    PutVarint32(&trial->body, static_cast<uint32_t>(code_part.size() - 1));
    trial->body.append(code_part, 1, std::string::npos);
    s = EncodeNested(exceptions, &memos.exceptions, &trial->body);
  }
  trial->usable = s.ok();
  return trial->usable;
}

size_t FileDictionaryTrial::cost() const {
  return body.size() + admitted_bytes / kAdmissionChargeDivisor;
}

Status FileDictionaryWriter::EncodeCodes(const ColumnVector& codes, FileDictionaryTrial* trial,
                                         std::string* out, TrialMemos* memos) {
  const size_t start = out->size();
  // A table not yet written would follow the entries this trial admits.
  const uint32_t code = TableCode(trial->pending.size(), trial->admitted_bytes);
  if (code != 0 && memos != nullptr && memos->table_wins.Skip()) {
    // The table beat the memo's encoding in the last trials of this form: the table alone.
    memos->table_only++;
    out->push_back(static_cast<char>(Encoding::kFileHuffman));
    table_.Encode(code, codes, out);
    trial->writes_table = table_code_ == 0;
    return Status::OK();
  }
  Status s = EncodeNested(codes, memos != nullptr ? &memos->codes : nullptr, out);
  if (!s.ok()) return s;
  if (code == 0) return Status::OK();
  std::string shared;
  table_.Encode(code, codes, &shared);
  const bool table_smaller = shared.size() < out->size() - start - 1;
  if (memos != nullptr) memos->table_wins.Record(table_smaller);
  if (table_smaller) {
    out->resize(start);
    out->push_back(static_cast<char>(Encoding::kFileHuffman));
    out->append(shared);
    trial->writes_table = table_code_ == 0;
  }
  return Status::OK();
}

uint32_t FileDictionaryWriter::TableCode(size_t pending_entries, size_t pending_bytes) const {
  if (table_entry_.empty()) return 0;
  if (table_code_ != 0) return table_code_;
  if (entries_.size() + pending_entries + 1 > limits_.max_entries ||
      entry_bytes_ + pending_bytes + table_entry_.size() > limits_.max_bytes) {
    return 0;
  }
  return static_cast<uint32_t>(entries_.size() + pending_entries + 1);
}

void FileDictionaryWriter::RefreshTable() {
  FileHuffmanTable table;
  std::string entry;
  if (!table_maker_.TakeDueTable(&table, &entry)) return;
  // The table becomes an entry only when a chunk uses it (WriteTable): a column whose chunks
  // all keep their local encodings stores none.
  table_ = std::move(table);
  table_entry_ = std::move(entry);
  table_code_ = codes_.Find(HashOf(table_entry_), table_entry_);
}

void FileDictionaryWriter::WriteTable() {
  if (table_code_ != 0) return;
  const uint64_t hash = HashOf(table_entry_);
  // The same bytes admitted meanwhile as a value keep their code; this entry gets the next one,
  // which the chunk's body already names.
  const bool indexed = codes_.Find(hash, table_entry_) != 0;
  entry_bytes_ += table_entry_.size();
  entries_.push_back(table_entry_);
  table_code_ = static_cast<uint32_t>(entries_.size());
  if (!indexed) codes_.Insert(hash, table_code_, entries_.back());
}

bool FileDictionaryWriter::EncodeWithTable(const ColumnVector& values, size_t local_size,
                                           std::string* body) {
  const uint32_t code = TableCode(0, 0);
  if (code == 0) return false;
  const size_t start = body->size();
  table_.Encode(code, values, body);
  // Only when it saves an eighth: a long Huffman code (log-normal latencies, sizes) decodes
  // slower than the Rice code it would replace, for a few percent of bytes.
  if (body->size() - start < local_size - local_size / kTableMinSavingDivisor) {
    WriteTable();
    return true;
  }
  body->resize(start);
  return false;
}

void FileDictionaryWriter::Commit(FileDictionaryTrial* trial, bool body_written) {
  table_maker_.Count(trial->codes);
  // Pending codes follow the entries in admission order, then a table the body uses.
  for (size_t j = 0; j < trial->pending.size(); j++) {
    entry_bytes_ += trial->pending[j].size();
    entries_.push_back(std::move(trial->pending[j]));
    codes_.Insert(trial->pending_hashes[j], static_cast<uint32_t>(entries_.size()),
                  entries_.back());
  }
  if (trial->writes_table && body_written) WriteTable();
  trial->pending.clear();
  trial->pending_hashes.clear();
}

RecurrenceCount FileDictionaryWriter::Remember(const FileDictionaryTrial& trial) {
  // A trial that ran has every value's code (HashValues leaves none).
  const bool coded = trial.codes.size() == trial.hashes.size();
  return Remember(trial.hashes, coded ? trial.codes.data<int32_t>() : nullptr);
}

bool FileDictionaryWriter::TryEncode(const ColumnVector& values, size_t local_size,
                                     std::string* body) {
  FileDictionaryTrial& trial = scratch_trial_;
  const bool use = Trial(values, &trial) && trial.cost() < local_size;
  if (use) {
    Commit(&trial);
    body->append(trial.body);
  }
  Remember(trial);
  return use;
}

bool FileDictionaryWriter::Seed(const ColumnVector& entries) {
  if (!entries_.empty() || entries.type() != PhysicalType::kBytes ||
      entries.size() > limits_.max_entries) {
    return false;
  }
  size_t bytes = 0;
  for (size_t i = 0; i < entries.size(); i++) bytes += entries.GetBytes(i).size();
  if (bytes > limits_.max_bytes) return false;
  for (size_t i = 0; i < entries.size(); i++) {
    const Slice entry = entries.GetBytes(i);
    const uint64_t hash = HashOf(entry);
    // Codes follow the given order even if an entry repeats (a table equal to a value): the
    // index keeps the first.
    const bool indexed = codes_.Find(hash, entry) != 0;
    entries_.emplace_back(entry.data(), entry.size());
    if (!indexed) codes_.Insert(hash, static_cast<uint32_t>(entries_.size()), entries_.back());
  }
  entry_bytes_ = bytes;
  return true;
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

bool FileDictionaryWriters::Seed(const FileDictionarySet& dictionaries) {
  if (!empty()) return false;
  for (const auto& [name, entries] : dictionaries.columns()) {
    if (!For(name)->Seed(entries)) {
      columns_.clear();  // none seeded rather than some
      return false;
    }
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

Status DecodeFileDictionaryCodes(const Slice& body, size_t count, const ColumnVector& entries,
                                 FileDictionaryCodes* out) {
  Slice in = body;
  uint8_t code_encoding;
  uint32_t code_length;
  if (!GetFixed8(&in, &code_encoding) || !GetVarint32(&in, &code_length) ||
      in.size() < code_length) {
    return Status::Corruption("file_dictionary: truncated codes");
  }
  ColumnVector& codes = out->codes;
  codes.Reset(PhysicalType::kInt32);
  const Slice code_body(in.data(), code_length);
  Status s = static_cast<Encoding>(code_encoding) == Encoding::kFileHuffman
                 ? DecodeFileHuffmanBody(code_body, count, entries, PhysicalType::kInt32, &codes)
                 : DecodeValues(static_cast<Encoding>(code_encoding), PhysicalType::kInt32,
                                code_body, count, &codes);
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
  out->exceptions.Reset(PhysicalType::kBytes);
  return DecodeValues(static_cast<Encoding>(exception_encoding), PhysicalType::kBytes, in,
                      exception_count, &out->exceptions);
}

Status DecodeFileDictionaryBody(const Slice& body, size_t count, const ColumnVector& entries,
                                ColumnVector* out, const uint64_t* wanted) {
  FileDictionaryCodes decoded;
  Status s = DecodeFileDictionaryCodes(body, count, entries, &decoded);
  if (!s.ok()) return s;
  const int32_t* code_data = decoded.codes.data<int32_t>();
  const ColumnVector& exceptions = decoded.exceptions;
  // Two passes over the rows (an unwanted row is empty): their total size, then one
  // reserve-and-fill copy (appending them one by one grew the buffer a few times a chunk,
  // copying it each time).
  const auto for_each_value = [&](auto&& visit) {
    size_t next_exception = 0;
    for (size_t i = 0; i < count; i++) {
      const bool exception = code_data[i] == 0;
      const Slice value = exception ? exceptions.GetBytes(next_exception++)
                                    : entries.GetBytes(static_cast<size_t>(code_data[i]) - 1);
      const bool is_wanted = wanted == nullptr || ((wanted[i / 64] >> (i % 64)) & 1) != 0;
      visit(is_wanted ? value : Slice());
    }
  };
  uint64_t total_bytes = 0;
  for_each_value([&](const Slice& value) { total_bytes += value.size(); });
  if (total_bytes > UINT32_MAX) return Status::Corruption("file_dictionary: chunk over 4 GiB");
  out->Reset(PhysicalType::kBytes);
  ByteStringWriter writer = out->AppendBytesWriter(count, total_bytes);
  ByteStringCursor cursor = writer.cursor();
  for_each_value([&](const Slice& value) { cursor.Append(value.data(), value.size()); });
  return Status::OK();
}

}  // namespace columnar
