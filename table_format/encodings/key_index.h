// KeyIndex: dense ids for distinct keys (0, 1, 2, ... in first-seen order) in an
// open-addressing table. Shared by the dictionary encoder and the auto chooser's distinct
// count. The caller keeps the keys themselves and says whether a candidate id holds the key
// being looked up, so the same table serves fixed-width bit patterns and byte strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace columnar {

class KeyIndex {
 public:
  static constexpr uint32_t kEmpty = UINT32_MAX;

  explicit KeyIndex(size_t expected_keys = 0) {
    // Load stays below 1/4 up to the expected count, so lookups rarely probe and the table
    // grows only past twice that.
    size_t slots = 16;
    while (slots < 4 * expected_keys) slots *= 2;
    slots_.assign(slots, Slot{0, kEmpty});
  }

  // The id of the key with hash `hash` for which `same(id)` holds; a new id (== size()
  // before the call, *added = true) if there is none.
  template <typename Same>
  uint32_t FindOrAdd(uint64_t hash, Same same, bool* added) {
    size_t slot = Mix(hash) & (slots_.size() - 1);
    while (slots_[slot].id != kEmpty) {
      if (slots_[slot].hash == hash && same(slots_[slot].id)) {
        *added = false;
        return slots_[slot].id;
      }
      slot = (slot + 1) & (slots_.size() - 1);
    }
    const auto id = static_cast<uint32_t>(size_++);
    slots_[slot] = Slot{hash, id};
    *added = true;
    if (2 * size_ > slots_.size()) Grow();
    return id;
  }

  // The id of the key with hash `hash` for which `same(id)` holds; kEmpty if there is none.
  template <typename Same>
  uint32_t Find(uint64_t hash, Same same) const {
    for (size_t slot = Mix(hash) & (slots_.size() - 1); slots_[slot].id != kEmpty;
         slot = (slot + 1) & (slots_.size() - 1)) {
      if (slots_[slot].hash == hash && same(slots_[slot].id)) return slots_[slot].id;
    }
    return kEmpty;
  }

  size_t size() const { return size_; }

  static uint64_t Mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
  }

 private:
  struct Slot {
    uint64_t hash;
    uint32_t id;
  };

  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.size() * 2, Slot{0, kEmpty});
    for (const Slot& s : old) {
      if (s.id == kEmpty) continue;
      size_t slot = Mix(s.hash) & (slots_.size() - 1);
      while (slots_[slot].id != kEmpty) slot = (slot + 1) & (slots_.size() - 1);
      slots_[slot] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// A fast hash of a byte string for KeyIndex (in memory only, never stored): whole 8-byte
// words, the last one overlapping, and short strings in one or two overlapping loads, so a
// typical column value costs a couple of multiplies instead of a byte loop.
inline uint64_t HashBytes(const char* p, size_t n) {
  constexpr uint64_t kMul = 0x9e3779b97f4a7c15ULL;
  auto load64 = [](const char* q) {
    uint64_t v;
    std::memcpy(&v, q, 8);
    return v;
  };
  auto load32 = [](const char* q) {
    uint32_t v;
    std::memcpy(&v, q, 4);
    return uint64_t{v};
  };
  uint64_t h = (n + 1) * kMul;
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) h = (h ^ load64(p + i)) * kMul ^ (h >> 29);
    h = (h ^ load64(p + n - 8)) * kMul;
  } else if (n >= 4) {
    h = (h ^ (load32(p) | load32(p + n - 4) << 32)) * kMul;
  } else if (n > 0) {
    const auto byte = [p](size_t i) { return uint64_t{static_cast<uint8_t>(p[i])}; };
    h = (h ^ (byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16)) * kMul;
  }
  return KeyIndex::Mix(h);
}

}  // namespace columnar
