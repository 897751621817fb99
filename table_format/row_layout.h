// RowLayout: how the entries of a row group become columns and back. The generic layout
// (generic_layout.h) stores opaque key suffixes and values; the typed layout (typed_layout.h)
// splits keys and values along a table schema. Both share the row group framing, the
// partition handling and the key/trailer columns, so readers and builders never care which
// one a file uses beyond creating it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/column_stats.h"
#include "table_format/encoding_memo.h"
#include "table_format/entry.h"
#include "table_format/row_group.h"
#include "table_format/types.h"

namespace columnar {

// A decoded row group, immutable once built: safe to share between threads (it lives in the
// reader's cache). Keys are materialised as full internal keys (user key + 8-byte trailer).
class DecodedRowGroup {
 public:
  virtual ~DecodedRowGroup() = default;

  size_t row_count() const { return key_offsets_.empty() ? 0 : key_offsets_.size() - 1; }
  Slice internal_key(size_t row) const {
    return Slice(keys_.data() + key_offsets_[row], key_offsets_[row + 1] - key_offsets_[row]);
  }
  Slice user_key(size_t row) const {
    Slice key = internal_key(row);
    key.remove_suffix(8);
    return key;
  }
  uint64_t trailer(size_t row) const;

  // The value of `row`. The bytes live as long as the group: RocksDB's backward iteration and
  // merge handling pin values instead of copying them.
  virtual Slice value(size_t row) const = 0;

  // Approximate heap bytes held, for cache charging.
  virtual size_t MemoryUsage() const;

  // Gives every row sequence number `sequence`, keeping its value type: how an ingested file's
  // global sequence number applies. Call before the group is shared.
  void AssignSequence(uint64_t sequence);

  // Search prefixes, for point reads of user keys in bytewise order: the bytes every row's
  // user key shares with row 0's, and per row the 8 bytes after them as a big-endian word
  // (zero-padded), in one contiguous array. A lookup's binary search then compares words
  // instead of reaching into keys_ for every probe (each probe a likely cache miss once
  // decoded groups outgrow the CPU caches). Call before the group is shared, and only when
  // the rows are in bytewise order of their user keys.
  void BuildSearchPrefixes();
  bool has_search_prefixes() const { return !search_words_.empty(); }
  // Narrows [*begin, *end) (initially every row) to the rows whose user key may equal
  // `user_key`: rows before *begin have smaller user keys, rows from *end on larger ones.
  void NarrowBySearchPrefix(const Slice& user_key, size_t* begin, size_t* end) const;

 protected:
  std::string keys_;
  // Row i's key is keys_[key_offsets_[i], key_offsets_[i + 1]): a 0, then each row's end; empty
  // for a group of no rows (so a group allocates no offsets before it knows how many).
  std::vector<uint32_t> key_offsets_;

 private:
  size_t shared_prefix_ = 0;            // bytes shared by every row's user key
  std::vector<uint64_t> search_words_;  // per row; empty without search prefixes
};

// The keys of a parsed row group for a point read: its user-key columns decoded, each user
// key assembled only when asked for, and trailers read only for the rows asked for, so a
// lookup that compares a handful of keys builds no others (nor reads any value). Rows are in
// internal-key order: user key ascending, then trailer descending. Lives no longer than the
// RowGroupView it came from.
class GroupKeys {
 public:
  virtual ~GroupKeys() = default;
  virtual size_t row_count() const = 0;
  // The user key of `row`, assembled where needed in a buffer of the keys' own: valid until
  // the next call (one buffer for a point read's search, not one per caller).
  virtual Slice UserKey(size_t row) const = 0;
  // The first row whose user key is >= `user_key` in bytewise order into *row, for rows in
  // bytewise order of their user keys, when the keys find it without assembling any (false
  // otherwise: callers then search with UserKey).
  virtual bool BytewiseLowerBound(const Slice& /*user_key*/, size_t* /*row*/) const {
    return false;
  }
  // The trailers (sequence << 8 | type) of rows [begin, end): *out points at end - begin of
  // them, held by the keys and valid until the next call (a point read's lookup allocates
  // nothing of its own for them).
  virtual Status Trailers(size_t begin, size_t end, const uint64_t** out) const = 0;
};

// Per-column write settings a layout asks for; implemented by the table builder from its
// options (column_encodings / column_compression).
class ColumnWriteSettings {
 public:
  virtual ~ColumnWriteSettings() = default;
  // Settings for the column named `column` (a layout-defined name such as "key_suffix", or a
  // schema column name) of physical type `type`.
  virtual ChunkWriteOptions For(const std::string& column, PhysicalType type) const = 0;
};

// Sees the typed columns of each row group a layout writes, so the builder can keep zone maps
// and file statistics without decoding anything again.
class ColumnObserver {
 public:
  virtual ~ColumnObserver() = default;
  // Called once per row group, before its columns.
  virtual void BeginRowGroup(size_t rows) = 0;
  // Schema column `column_id` (clustering or regular): one value per row, null where the row
  // has none (including rows that are not typed rows of the schema).
  virtual void OnColumn(uint32_t column_id, const ColumnVector& values) = 0;
  // Every row's expiry in seconds since the epoch, null where a row has none.
  virtual void OnExpiry(const ColumnVector& expiry_seconds) = 0;
  // How many rows are typed rows of the schema (the others are kept opaque).
  virtual void OnTypedRows(size_t typed_rows) = 0;
  // After the group's columns: a value of fixed-width column `column_id` in this group that
  // every reader of the file will know without its chunk (*anchor: its bit pattern,
  // zero-extended; ChunkWriteOptions::anchor), or false.
  virtual bool Anchor(uint32_t /*column_id*/, uint64_t* /*anchor*/) const { return false; }
};

// What a layout needs while writing one row group.
class FileDictionaryWriters;

// What a layout keeps between the row groups of one file (its column buffers, say), owned by
// the file's writer, which writes one group at a time.
class RowGroupWriteScratch {
 public:
  virtual ~RowGroupWriteScratch() = default;
};

struct RowGroupWriteContext {
  const ColumnWriteSettings* settings = nullptr;
  ColumnStats* stats = nullptr;        // optional: per-column sizes and encodings
  ColumnObserver* observer = nullptr;  // optional: typed column values
  // Optional: the file's dictionaries, which byte-string columns may use (file_dictionary.h).
  FileDictionaryWriters* dictionaries = nullptr;
  // Optional: the file's remembered encoding choices per slot (encoding_memo.h).
  EncodingMemos* memos = nullptr;
  // Optional: where the layout keeps its scratch from one row group of the file to the next.
  std::unique_ptr<RowGroupWriteScratch>* scratch = nullptr;
  // Optional: the same entries as another file of the same settings encoded them (a
  // compaction's input group, passed through unchanged). A layout that can tell the bytes
  // decode alike in this file (their anchors known to its zone maps; the caller has checked
  // the entries, the settings and the file dictionaries) writes them as they are, still
  // showing the columns to `observer`, and sets *verbatim_written; otherwise it encodes the
  // entries as usual. Layouts that cannot tell ignore it.
  const RowGroupView* verbatim = nullptr;
  bool* verbatim_written = nullptr;
  // Optional with `verbatim`: its rows as decoded for the copy (RowLayout::DecodeRowGroupForCopy,
  // the entries given). A layout may show the observer the columns that decode kept rather
  // than split the entries again.
  const DecodedRowGroup* verbatim_rows = nullptr;
  // Optional: the layout id the file's root records (RowLayout::Id() to begin with). A layout
  // raises it when a group needs a later id, one that readers without the group's feature
  // refuse (TypedLayout::kIdWithCellExceptions).
  uint32_t* file_layout_id = nullptr;
};

class RowLayout {
 public:
  virtual ~RowLayout() = default;

  virtual const char* Name() const = 0;
  // Recorded in each file's root block (file_root.h): 0 generic, 1 typed, 2 typed with cell
  // exceptions (RowGroupWriteContext::file_layout_id).
  virtual uint32_t Id() const = 0;

  // The partition `user_key` belongs to (a prefix of it), for partition filters; false when
  // the layout has no partition for this key. Must be a pure function of the key.
  virtual bool PartitionOf(const Slice& user_key, Slice* partition) const = 0;
  // PartitionOf for a key that may be in the partition of an earlier one: `previous` (may be
  // null) is a partition PartitionOf returned. Layouts whose partitions are self-delimiting
  // answer from the prefix; the answer must be PartitionOf's.
  virtual bool NextPartitionOf(const Slice& user_key, const Slice* /*previous*/,
                               Slice* partition) const {
    return PartitionOf(user_key, partition);
  }

  // Encodes `count` entries (in internal-key order) as one row group, appended to *out.
  virtual Status WriteRowGroup(const Entry* entries, size_t count,
                               const RowGroupWriteContext& context, std::string* out) const = 0;

  // Decodes a parsed row group. `first_internal_key` is the group's first key from the index.
  virtual Status DecodeRowGroup(const RowGroupView& view, const Slice& first_internal_key,
                                std::unique_ptr<DecodedRowGroup>* out) const = 0;

  // DecodeRowGroup of a group a writer may copy verbatim (a compaction's input): the layout may
  // keep with the rows what the copy needs (RowGroupWriteContext::verbatim_rows).
  virtual Status DecodeRowGroupForCopy(const RowGroupView& view, const Slice& first_internal_key,
                                       std::unique_ptr<DecodedRowGroup>* out) const {
    return DecodeRowGroup(view, first_internal_key, out);
  }

  // Point reads: the key columns of a parsed row group only (checked against
  // `first_internal_key` like DecodeRowGroup checks them). NotSupported when the layout reads
  // groups whole only; callers then use DecodeRowGroup. Keys already in *out (from any earlier
  // call, whatever it returned) are reused with their buffers, so a thread reading one group
  // after another allocates them once; after an error *out is unusable until the next call.
  virtual Status DecodeKeys(const RowGroupView& /*view*/, const Slice& /*first_internal_key*/,
                            std::unique_ptr<GroupKeys>* /*out*/) const {
    return Status::NotSupported("row layout: no key-only decoding");
  }
  // Rows [begin, end) of a parsed group, keys and values, as a decoded group of end - begin
  // rows (row i of *out is row begin + i of the group). `keys` came from DecodeKeys(view).
  virtual Status DecodeRows(const RowGroupView& /*view*/, const GroupKeys& /*keys*/,
                            size_t /*begin*/, size_t /*end*/,
                            std::unique_ptr<DecodedRowGroup>* /*out*/) const {
    return Status::NotSupported("row layout: no key-only decoding");
  }
};

}  // namespace columnar
