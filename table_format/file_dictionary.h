// File dictionaries: per byte-string column, the values that recur across a table file, stored
// once per file; chunks of that column then hold small codes. Strings such as user agents,
// referrers, client addresses or URL paths repeat across thousands of row groups, which
// chunk-local dictionaries (and 16 KiB outer compression blocks) cannot exploit.
//
// A value enters a column's dictionary only once it has been seen in an earlier chunk of the
// file, so values that never recur (request ids, one-off trace ids) stay local to their chunk
// as exceptions and never bloat the dictionary. A chunk uses the file dictionary only when
// that is smaller than its best local encoding.
//
// Chunk body of encoding file_dictionary (n present values, from the chunk header):
//
//   u8        code encoding     encoding of the codes (int32, n values; encoding.h), or
//                               file_huffman with a table among the entries (file_huffman.h)
//   varint32  code body length
//   bytes     code body         code 0 = the value is an exception; code c > 0 = dictionary
//                               entry c - 1
//   u8        exception encoding  encoding of the exceptions (bytes)
//   bytes     exception body    the exception values in row order (as many as zero codes);
//                               runs to the end of the chunk body
//
// Dictionary block (raw content; framed with WriteBlock by the table builder):
//
//   varint32  column count
//   per column: length-prefixed column name, then a chunk (chunk.h) of its entries in code
//   order
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/column_vector.h"
#include "table_format/encoding_memo.h"
#include "table_format/encodings/file_huffman.h"
#include "table_format/file_dictionary_forms.h"
#include "table_format/local_body_forecast.h"
#include "table_format/recurrence_forecast.h"
#include "table_format/skip_backoff.h"
#include "table_format/template_stream_memos.h"
#include "table_format/types.h"

namespace columnar {

struct FileDictionaryLimits {
  size_t max_entries = 1u << 18;
  size_t max_bytes = 8u << 20;
  // Values remembered as "seen once", so a second sighting can admit them. They live in a
  // bit filter of 8 bits per remembered value (1 MiB at the default; SeenFilter): a false
  // "seen" only admits a value early.
  size_t max_remembered = 1u << 20;
};

// Value -> code of the entries admitted so far: open addressing over the values' 64-bit
// hashes, the entries compared on a hash match. A slot holds the hash and the code together,
// so that a probe of a large index (a file's dictionary outgrows the caches) costs one miss,
// and where the entry's bytes are, so that confirming a match costs one more (through the
// entries' container it cost two or three: its block, then a long string's own buffer).
class FileDictionaryIndex {
 public:
  // 0 when absent.
  uint32_t Find(uint64_t hash, const Slice& value) const;
  // `code` >= 1 is `entry`, whose bytes must stay where they are while the index holds them
  // (the elements of a std::deque<std::string> that only grows at its end do: neither the
  // strings nor their buffers move); the value must not be present.
  void Insert(uint64_t hash, uint32_t code, const Slice& entry);
  void Clear();
  // Asks the CPU to fetch the slot where a Find of `hash` starts (a hint, no effect otherwise).
  void Prefetch(uint64_t hash) const {
    if (size_ != 0) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }

 private:
  struct Slot {
    uint64_t hash;
    const char* data;  // the entry's bytes
    uint32_t size;
    uint32_t code;  // 0 = empty slot
  };
  void Grow();

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// The values a file's column has seen once: a Bloom filter blocked by cache line (every probe
// of a value in one 64-byte block, so that a lookup in the megabyte-sized filter costs one
// cache miss, not four). A false "seen" only admits a value early.
class SeenFilter {
 public:
  // A filter of `bits_per_value` bits for up to `max_values` values (allocated at the first
  // Add).
  SeenFilter(size_t max_values, size_t bits_per_value);

  bool Contains(uint64_t hash) const {
    if (words_.empty()) return false;
    const uint64_t* block = Block(hash);
    bool all = true;
    ForEachProbe(hash, [&](uint64_t word, uint64_t mask) { all &= (block[word] & mask) != 0; });
    return all;
  }
  void Add(uint64_t hash);
  // Asks the CPU to fetch the block of `hash` (a hint, no effect otherwise).
  void Prefetch(uint64_t hash) const {
    if (!words_.empty()) __builtin_prefetch(Block(hash));
  }

 private:
  // Four probes: with 8 bits per value, a false "seen" (which admits a one-off value, an id,
  // into the dictionary for nothing) is about 2% likely when the filter is full and well under
  // 1% before, against 4.5% and 2.5% with two; blocking the probes into one cache line adds a
  // little to that (values crowd some blocks more than others).
  static constexpr int kProbes = 4;
  static constexpr uint64_t kBlockBits = 512;
  static constexpr size_t kBlockWords = kBlockBits / 64;

  const uint64_t* Block(uint64_t hash) const {
    return words_.data() + first_word_ + ((hash >> 32) & (blocks_ - 1)) * kBlockWords;
  }
  // The bit positions of a value in its block: 9 bits each from the top of a remix of the
  // hash (the block is chosen by other bits of the hash itself).
  template <typename Visit>
  static void ForEachProbe(uint64_t hash, Visit visit) {
    const uint64_t mixed = hash * 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < kProbes; k++) {
      const uint64_t bit = (mixed >> (64 - 9 * (k + 1))) & (kBlockBits - 1);
      visit(bit / 64, uint64_t{1} << (bit % 64));
    }
  }

  size_t blocks_;                // a power of two
  std::vector<uint64_t> words_;  // empty until the first Add; over-allocated for alignment
  size_t first_word_ = 0;        // the first word of block 0 (64-byte aligned)
};

// A file_dictionary body worked out for one chunk, not yet written: what it would cost and
// which entries writing it would admit.
struct FileDictionaryTrial {
  std::string body;           // the file_dictionary body
  size_t admitted_bytes = 0;  // bytes of the entries it admits
  bool usable = false;        // some value has a code
  // What the chunk charges for it: the body and a share of the entries it admits (they are
  // stored once per file and serve later chunks too).
  size_t cost() const;

  ColumnVector codes{PhysicalType::kInt32};  // of every value, counted for file tables
  std::vector<uint64_t> hashes;              // of every value, remembered as seen afterwards
  // Of every value, whether it Recurs (an entry, or seen before): set by Trial, which looks
  // both up anyway, so that a writer weighing another form need not look again; empty after
  // HashValues.
  std::vector<uint8_t> recurs;
  std::deque<std::string> pending;
  std::vector<uint64_t> pending_hashes;
  bool writes_table = false;  // the codes use the file table, not yet an entry
};

// One column's dictionary while a file is written.
class FileDictionaryWriter {
 public:
  explicit FileDictionaryWriter(FileDictionaryLimits limits = FileDictionaryLimits());
  // Its index points into its entries: a copy's would point into the original's.
  FileDictionaryWriter(const FileDictionaryWriter&) = delete;
  FileDictionaryWriter& operator=(const FileDictionaryWriter&) = delete;

  // Encodes `values` (no nulls) as a file_dictionary body when that is smaller than
  // `local_size` bytes; admits the recurring values it needs then. False (nothing changed,
  // except that the values are remembered as seen) when the local encoding should be kept.
  bool TryEncode(const ColumnVector& values, size_t local_size, std::string* body);

  // The same in steps, for a writer weighing several forms of a chunk (whole values, or their
  // templates): Trial works a body out without changing the dictionary (true when usable);
  // Commit admits the entries of the trial that is written; Remember marks a trial's values
  // as seen (every trial's, written or not, so that recurring values get admitted later).
  // `form`: which form of the chunk the values are (its whole values, or the templates of a
  // template form): each form's codes and exceptions reuse their encodings from its earlier
  // trials (EncodingMemo, encoding_memo.h) rather than run the chooser on every trial.
  bool Trial(const ColumnVector& values, FileDictionaryTrial* trial,
             FileDictionaryForm form = FileDictionaryForm::kWhole);
  // `body_written`: false for a trial committed only to admit its values (its body, and so a
  // table it would use, is not written).
  void Commit(FileDictionaryTrial* trial, bool body_written = true);
  // Returns how many of the trial's distinct values recurred (had a code, or were seen before).
  RecurrenceCount Remember(const FileDictionaryTrial& trial);
  // For a chunk that leaves the dictionary out (recurrence_forecast.h): remembers the values in
  // RecurrenceForecast's sample, and returns how many of those recurred (sampled_ counts only).
  RecurrenceCount RememberSample(const ColumnVector& values);
  // What a skipped trial leaves for Remember: the values' hashes only (trial->usable false).
  void HashValues(const ColumnVector& values, FileDictionaryTrial* trial) const;

  // Whether `value` is an entry, or was seen in an earlier chunk (a trial would admit it).
  bool Recurs(const Slice& value) const;
  // The same with the value's hash (a trial's `hashes`).
  bool Recurs(const Slice& value, uint64_t hash) const;

  // Which forms of the column's chunks keep losing (file_dictionary_forms.h).
  FileDictionaryForms& forms() { return forms_; }
  // The memo of a form's trials' codes (tests, statistics).
  const EncodingMemo& trial_codes_memo(FileDictionaryForm form) const {
    return trial_memos_[static_cast<size_t>(form)].codes;
  }
  // Trials of a form whose codes went straight to the file's table (tests, statistics).
  uint64_t table_only_codes(FileDictionaryForm form) const {
    return trial_memos_[static_cast<size_t>(form)].table_only;
  }
  // Whether the column's chunks should skip building their local body (local_body_forecast.h).
  LocalBodyForecast& local_body() { return local_body_; }
  // Whether the column's chunks should leave the dictionary out, their values not recurring
  // (recurrence_forecast.h).
  RecurrenceForecast& recurrence() { return recurrence_; }
  // The memos of the parameter streams of a template form's bodies (kTemplates or kMixed;
  // template_stream_memos.h).
  TemplateStreamMemos* template_streams(FileDictionaryForm form) {
    return &template_streams_[form == FileDictionaryForm::kMixed ? 1 : 0];
  }

  // File Huffman tables (file_huffman.h) of the column's integers: the codes of the chunks
  // written with the dictionary, or an integer column's values. A new table, when one is due,
  // replaces the current one, and becomes an entry once a chunk written uses it (after the
  // entries that chunk admits); call between chunks, never between a Trial and its Commit.
  void RefreshTable();
  // Counts the values of an integer column's chunk for the next table.
  void CountIntegers(const ColumnVector& values) { table_maker_.Count(values); }
  // Appends a file_huffman body of `values` (int32/int64, no nulls) when there is a table and
  // the body is at least an eighth smaller than `local_size` (the table then becomes an entry
  // if it is not one yet); false otherwise.
  bool EncodeWithTable(const ColumnVector& values, size_t local_size, std::string* body);

  // Starts the dictionary with `entries` (another file's dictionary of the column, in code
  // order), so that chunks written against that file's dictionary keep their meaning here;
  // later entries follow them. Only before any entry; false (nothing changed) otherwise, or
  // when they exceed the limits.
  bool Seed(const ColumnVector& entries);

  size_t entry_count() const { return entries_.size(); }
  size_t entry_bytes() const { return entry_bytes_; }
  // The entries in code order.
  ColumnVector Entries() const;

 private:
  bool Seen(uint64_t hash) const;
  // Hashes every value into hashes[] and prefetches where its lookups will go.
  void PrefetchLookups(const ColumnVector& values, uint64_t* hashes) const;
  // `codes`: the trial's code of each value (null: unknown); values with a code are skipped.
  RecurrenceCount Remember(const std::vector<uint64_t>& hashes, const int32_t* codes);
  // Adds a value not seen yet to the filter, while it has room.
  void RememberSeen(uint64_t hash);
  // Per form (FileDictionaryForm), the memos of its trials' codes and exceptions, and whether
  // the file's table keeps beating the codes' memo: after SkipBackoff::kLossesBeforeSkipping
  // trials in a row in which the table's body was the smaller, the next trials encode the codes
  // with the table only, without the memo's encoding to compare (skip_backoff.h: a retry that
  // the table wins again doubles the skip; one it loses ends it).
  struct TrialMemos {
    EncodingMemo codes;
    EncodingMemo exceptions;
    SkipBackoff table_wins;
    uint64_t table_only = 0;  // trials whose codes skipped the memo
  };
  // Encodes the codes of a trial (encoding byte + body), with the file table when smaller.
  // `memos`: the trial's form's memos (null: the chooser, and always both encodings).
  Status EncodeCodes(const ColumnVector& codes, FileDictionaryTrial* trial, std::string* out,
                     TrialMemos* memos = nullptr);
  // The table's code, were it used after `pending_entries` entries of `pending_bytes` bytes
  // are admitted; 0 when there is no table or no room for it.
  uint32_t TableCode(size_t pending_entries, size_t pending_bytes) const;
  // Makes the current table an entry (once).
  void WriteTable();

  FileDictionaryLimits limits_;
  std::deque<std::string> entries_;  // code c is entries_[c - 1]
  FileDictionaryIndex codes_;
  SeenFilter seen_;  // values seen once
  size_t remembered_ = 0;
  size_t entry_bytes_ = 0;
  FileHuffmanTableMaker table_maker_;
  FileHuffmanTable table_;
  std::string table_entry_;  // empty: no table yet
  uint32_t table_code_ = 0;  // 0: not an entry (yet)
  FileDictionaryForms forms_;
  TemplateStreamMemos template_streams_[2];
  LocalBodyForecast local_body_;
  RecurrenceForecast recurrence_;
  TrialMemos trial_memos_[3];
  // Per trial, kept to reuse their memory.
  FileDictionaryIndex pending_codes_;
  FileDictionaryTrial scratch_trial_;
};

class FileDictionarySet;

// Every column's dictionary writer of one file, by column name.
class FileDictionaryWriters {
 public:
  explicit FileDictionaryWriters(FileDictionaryLimits limits = FileDictionaryLimits())
      : limits_(limits) {}

  FileDictionaryWriter* For(const std::string& column);
  bool empty() const;
  // Starts every column's dictionary with another file's (FileDictionaryWriter::Seed); only
  // while every dictionary is empty. False (nothing changed) when one cannot be seeded.
  bool Seed(const FileDictionarySet& dictionaries);
  // Total entry bytes so far (file size estimates).
  size_t entry_bytes() const;
  // The dictionary block's raw content; `options` encode the entries.
  Status Finish(const ChunkWriteOptions& options, std::string* raw) const;

 private:
  FileDictionaryLimits limits_;
  std::map<std::string, std::unique_ptr<FileDictionaryWriter>> columns_;
};

// A file's dictionaries, decoded, as a reader holds them.
class FileDictionarySet {
 public:
  static Status Decode(const Slice& raw, FileDictionarySet* out);
  // The entries of `column`, or nullptr when the file has no dictionary for it.
  const ColumnVector* Find(const std::string& column) const;
  size_t MemoryUsage() const;
  // Every column's entries, by column name.
  const std::map<std::string, ColumnVector>& columns() const { return columns_; }

 private:
  std::map<std::string, ColumnVector> columns_;
};

// A file_dictionary chunk body decoded to its codes, without building the values: code c > 0
// is entries[c - 1], code 0 the next of `exceptions` (in row order).
struct FileDictionaryCodes {
  ColumnVector codes{PhysicalType::kInt32};
  ColumnVector exceptions{PhysicalType::kBytes};
};

// Decodes a file_dictionary chunk body of `count` values to its codes, checked against the
// column's entries (every code names an entry or an exception).
Status DecodeFileDictionaryCodes(const Slice& body, size_t count, const ColumnVector& entries,
                                 FileDictionaryCodes* out);

// Decodes a file_dictionary chunk body of `count` values with the column's entries. With
// `wanted` (a bit per value, LSB-first words), values not wanted are left empty.
Status DecodeFileDictionaryBody(const Slice& body, size_t count, const ColumnVector& entries,
                                ColumnVector* out, const uint64_t* wanted = nullptr);

}  // namespace columnar
