#include "table_format/partition_directory.h"

#include <string_view>

namespace columnar {

uint64_t PartitionDirectory::Hash(const Slice& partition) {
  return std::hash<std::string_view>()(std::string_view(partition.data(), partition.size()));
}

PartitionDirectory::Slot* PartitionDirectory::SlotFor(uint64_t hash) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    if (slots_[i].run.groups == 0 || slots_[i].hash == hash) {
      return &slots_[i];
    }
  }
}

std::unique_ptr<PartitionDirectory> PartitionDirectory::Build(
    size_t groups, const PartitionOfGroup& partition_of) {
  if (groups == 0 || groups > UINT32_MAX) {
    return nullptr;
  }
  // The runs first (one per partition), then the table sized for them.
  std::vector<std::pair<uint64_t, Run>> runs;
  Slice previous;
  for (size_t g = 0; g < groups; g++) {
    Slice partition;
    if (!partition_of(g, g == 0 ? nullptr : &previous, &partition)) {
      return nullptr;
    }
    if (g > 0 && partition == previous) {
      runs.back().second.groups++;
    } else {
      runs.push_back({Hash(partition), Run{static_cast<uint32_t>(g), 1}});
    }
    previous = partition;
  }
  auto directory = std::unique_ptr<PartitionDirectory>(new PartitionDirectory());
  size_t capacity = 16;
  while (capacity < 2 * runs.size()) {
    capacity *= 2;
  }
  directory->slots_.resize(capacity);
  for (const auto& [hash, run] : runs) {
    Slot* slot = directory->SlotFor(hash);
    // Two runs with one hash: the same partition twice (keys out of order), or two partitions
    // whose hashes collide. Either way a lookup could not tell which run is meant.
    if (slot->run.groups != 0) {
      return nullptr;
    }
    slot->hash = hash;
    slot->run = run;
  }
  directory->runs_ = runs.size();
  return directory;
}

const PartitionDirectory::Run* PartitionDirectory::Find(const Slice& partition) const {
  const uint64_t hash = Hash(partition);
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.run.groups == 0) {
      return nullptr;
    }
    if (slot.hash == hash) {
      return &slot.run;
    }
  }
}

}  // namespace columnar
