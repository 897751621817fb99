// CachePin: keeps one object alive while a reader or iterator uses it. The object either sits
// in the shared rocksdb::Cache (the pin holds a handle) or, when the read must not fill the
// cache (compaction, fill_cache=false), is owned by the pin itself.
#pragma once

#include <rocksdb/cache.h>

#include <memory>
#include <utility>

namespace columnar {

template <typename T>
class CachePin {
 public:
  CachePin() = default;
  CachePin(rocksdb::Cache* cache, rocksdb::Cache::Handle* handle)
      : cache_(cache), handle_(handle), value_(static_cast<const T*>(cache->Value(handle))) {}
  explicit CachePin(std::unique_ptr<T> owned) : owned_(std::move(owned)), value_(owned_.get()) {}
  ~CachePin() { Reset(); }

  CachePin(CachePin&& other) noexcept { *this = std::move(other); }
  CachePin& operator=(CachePin&& other) noexcept {
    if (this != &other) {
      Reset();
      cache_ = other.cache_;
      handle_ = other.handle_;
      owned_ = std::move(other.owned_);
      value_ = other.value_;
      other.cache_ = nullptr;
      other.handle_ = nullptr;
      other.value_ = nullptr;
    }
    return *this;
  }
  CachePin(const CachePin&) = delete;
  CachePin& operator=(const CachePin&) = delete;

  const T* get() const { return value_; }
  const T* operator->() const { return value_; }
  explicit operator bool() const { return value_ != nullptr; }

  void Reset() {
    if (handle_ != nullptr) cache_->Release(handle_);
    cache_ = nullptr;
    handle_ = nullptr;
    owned_.reset();
    value_ = nullptr;
  }

  // Inserts `object` into `cache` under `key` (charged `charge` bytes) and pins it there; when
  // `cache` is null or the insert fails, the pin owns the object instead.
  static CachePin Insert(rocksdb::Cache* cache, const rocksdb::Slice& key,
                         std::unique_ptr<T> object, size_t charge) {
    if (cache != nullptr) {
      rocksdb::Cache::Handle* handle = nullptr;
      T* raw = object.get();
      rocksdb::Status s = cache->Insert(key, raw, charge, &DeleteEntry, &handle);
      if (s.ok()) {
        object.release();
        return CachePin(cache, handle);
      }
    }
    return CachePin(std::move(object));
  }

  static CachePin Lookup(rocksdb::Cache* cache, const rocksdb::Slice& key) {
    if (cache == nullptr) return CachePin();
    rocksdb::Cache::Handle* handle = cache->Lookup(key);
    return handle == nullptr ? CachePin() : CachePin(cache, handle);
  }

 private:
  static void DeleteEntry(const rocksdb::Slice& /*key*/, void* value) {
    delete static_cast<T*>(value);
  }

  rocksdb::Cache* cache_ = nullptr;
  rocksdb::Cache::Handle* handle_ = nullptr;
  std::unique_ptr<T> owned_;
  const T* value_ = nullptr;
};

}  // namespace columnar
