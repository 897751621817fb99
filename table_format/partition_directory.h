// Which row groups of a file begin in each partition, found by hashing the partition.
//
// A typed file's keys are sorted and a partition is a self-delimiting key prefix, so the groups
// whose first key lies in one partition are consecutive: a run. A seek to a key of a partition
// that begins some group then compares against that run's first keys only, instead of
// binary-searching every group's first key: on large files, every step of that search reads
// an offset and a key from memory the CPU's caches rarely hold (ColumnarTableReader::
// GroupForSeek, 6.8 of the 13.9 simulated cache misses of a cached metrics `latest` query).
// Built in memory from the index's first keys; the file format is unchanged.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "table_format/types.h"

namespace columnar {

class PartitionDirectory {
 public:
  struct Run {
    uint32_t first_group = 0;
    uint32_t groups = 0;  // at least 1
  };

  // The partition of group `group`'s first key into *partition (a slice that must stay valid
  // while the directory is built); `previous` is the previous group's (null for group 0), for
  // layouts that can answer from it. False when the key has no partition.
  using PartitionOfGroup =
      std::function<bool(size_t group, const Slice* previous, Slice* partition)>;

  // The directory of `groups` groups; null when some first key has no partition or a
  // partition's groups are not consecutive (keys out of order: a damaged file is left to the
  // reader's own checks, which find it).
  static std::unique_ptr<PartitionDirectory> Build(size_t groups,
                                                   const PartitionOfGroup& partition_of);

  // The run of groups whose first key begins with a partition hashing as `partition` does;
  // null when there is none. Another partition may share the hash: the caller checks that the
  // run's first key begins with `partition`.
  const Run* Find(const Slice& partition) const;

  size_t runs() const { return runs_; }
  size_t ApproximateMemoryUsage() const { return slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    uint64_t hash = 0;
    Run run;  // run.groups == 0: an empty slot
  };
  static uint64_t Hash(const Slice& partition);
  Slot* SlotFor(uint64_t hash);

  std::vector<Slot> slots_;  // open addressing, a power of two, at most half full
  size_t runs_ = 0;
};

}  // namespace columnar
