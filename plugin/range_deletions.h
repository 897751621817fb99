// Range tombstones of a ColumnarTable file. The builder stores them as RocksDB hands them over
// (start internal key, end user key) in a meta block; the reader fragments them once at open,
// with RocksDB's own fragmenter, and serves iterators over that list.
//
// Raw block content: varint32 count, then count x (length-prefixed start internal key,
// length-prefixed end user key).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/range_tombstone_fragmenter.h"
#include "table/internal_iterator.h"

namespace columnar {

using RangeDeletion = std::pair<std::string, std::string>;  // start internal key, end user key

void EncodeRangeDeletions(const std::vector<RangeDeletion>& deletions, std::string* raw);
rocksdb::Status DecodeRangeDeletions(const rocksdb::Slice& raw,
                                     std::vector<RangeDeletion>* deletions);

// Builds the fragmented list. With a global sequence number (ingested files), every
// tombstone takes it, as the file's point keys do.
std::shared_ptr<const rocksdb::FragmentedRangeTombstoneList> FragmentRangeDeletions(
    std::vector<RangeDeletion> deletions, const rocksdb::InternalKeyComparator& comparator,
    rocksdb::SequenceNumber global_seqno);

}  // namespace columnar
