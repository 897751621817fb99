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
  // Room is at least this much (so a cache below it never has room: a one-byte cache, which
  // tests use to keep nothing cached, keeps every read on the path of cold groups).
  static constexpr size_t kMinRoom = size_t{1} << 20;

  // True while the cache, at its last sample, had half its capacity free, and at least
  // kMinRoom. (A sixteenth made a cache smaller than the data, full in steady state, still
  // decode about half of its cold groups whole: 8 MiB, 300k keys, 92.9k instructions per
  // readrandom against 79.5k without the policy.) Thread-safe; a stale answer is harmless (it only
  // picks between two correct read paths).
  bool HasRoom(rocksdb::Cache* cache) const {
    if (cache == nullptr) return false;
    if (calls_.fetch_add(1, std::memory_order_relaxed) % kSampleEvery == 0) {
      const size_t capacity = cache->GetCapacity();
      const size_t room = capacity / 2 > kMinRoom ? capacity / 2 : kMinRoom;
      room_.store(cache->GetUsage() + room <= capacity, std::memory_order_relaxed);
    }
    return room_.load(std::memory_order_relaxed);
  }

 private:
  mutable std::atomic<uint32_t> calls_{0};
  mutable std::atomic<bool> room_{false};
};

}  // namespace columnar
