// CompactionInputs: the row groups a compaction's input iterators stand in, made known to the
// builder of the compaction's output. RocksDB runs a (sub)compaction's input iterators and its
// output builder in one thread and hands the builder one entry at a time, so the registry is
// per thread: an iterator created for a compaction (TableReaderCaller::kCompaction) registers
// its current whole group, and the builder, seeing an entry equal to a registered group's first
// row, may go on to copy that group's encoded bytes instead of encoding the entries again
// (columnar_table_builder.h). Nothing here decides correctness: the builder compares every
// entry with the group's decoded rows before it copies anything.
#pragma once

#include <cstddef>
#include <vector>

#include "rocksdb/slice.h"

namespace columnar {

class ColumnarTableReader;
class DecodedRowGroup;
struct RawBlock;

// One input iterator's current group. Owned by the iterator; registered while it lives.
struct CompactionInputGroup {
  const ColumnarTableReader* reader = nullptr;
  size_t group = SIZE_MAX;
  const DecodedRowGroup* rows = nullptr;  // the whole group decoded; null: none
  const RawBlock* block = nullptr;        // the iterator's block, which may hold the group
  // The group's encoded bytes (ColumnarTableReader::EncodedGroupBytes); SIZE_MAX: unknown.
  size_t bytes = SIZE_MAX;
};

class CompactionInputs {
 public:
  // The registry of the calling thread.
  static CompactionInputs& OfThisThread();

  void Register(const CompactionInputGroup* input);
  void Unregister(const CompactionInputGroup* input);
  bool Registered(const CompactionInputGroup* input) const;
  // A registered input whose current group's first row is internal key `key` and whose group
  // is not known to be smaller than `min_bytes`; null if none. The size is compared first: the
  // builder asks at every entry, and groups it would not copy need no key comparison.
  const CompactionInputGroup* GroupStartingWith(const rocksdb::Slice& key, size_t min_bytes) const;
  bool empty() const { return inputs_.empty(); }
  const std::vector<const CompactionInputGroup*>& groups() const { return inputs_; }

 private:
  std::vector<const CompactionInputGroup*> inputs_;
};

}  // namespace columnar
