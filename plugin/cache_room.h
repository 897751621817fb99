// CacheRoom: whether a cache still has room to spare, sampled rather than asked on every read
// (rocksdb::Cache::GetUsage locks every shard of the cache in turn).
#pragma once

#include <rocksdb/cache.h>

#include <atomic>
#include <cstdint>

namespace columnar {

class CacheRoom {
 public:
  // The cache's usage is sampled once every this many calls.
  static constexpr uint32_t kSampleEvery = 256;

  // True while the cache, at its last sample, had at least a sixteenth of its capacity free.
  // Thread-safe; a stale answer is harmless (it only picks between two correct read paths).
  bool HasRoom(rocksdb::Cache* cache) const {
    if (cache == nullptr) return false;
    if (calls_.fetch_add(1, std::memory_order_relaxed) % kSampleEvery == 0) {
      const size_t capacity = cache->GetCapacity();
      room_.store(cache->GetUsage() + capacity / 16 <= capacity, std::memory_order_relaxed);
    }
    return room_.load(std::memory_order_relaxed);
  }

 private:
  mutable std::atomic<uint32_t> calls_{0};
  mutable std::atomic<bool> room_{false};
};

}  // namespace columnar
