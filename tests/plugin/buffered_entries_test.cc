// BufferedEntries (plugin/buffered_entries.h): entries appended and dropped from the front in
// random runs read back as a plain list of them does, whenever the buffer moves its bytes down.
#include "plugin/buffered_entries.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <string>

namespace columnar {
namespace {

struct ModelEntry {
  std::string key;
  std::string value;
  uint64_t sequence;
  uint8_t type;
};

void ExpectSame(const std::deque<ModelEntry>& model, const BufferedEntries& buffer) {
  ASSERT_EQ(buffer.size(), model.size());
  size_t bytes = 0;
  for (size_t i = 0; i < model.size(); i++) {
    const BufferedEntries::Entry& entry = buffer[i];
    ASSERT_EQ(buffer.Key(entry).ToString(), model[i].key) << i;
    ASSERT_EQ(buffer.Value(entry).ToString(), model[i].value) << i;
    ASSERT_EQ(entry.sequence, model[i].sequence) << i;
    ASSERT_EQ(entry.value_type, model[i].type) << i;
    bytes += model[i].key.size() + model[i].value.size();
  }
  EXPECT_EQ(buffer.bytes(), bytes);
  if (!model.empty()) {
    EXPECT_EQ(buffer.Key(buffer.back()).ToString(), model.back().key);
    // The bytes of any run of entries: its keys and values.
    const size_t first = model.size() / 3;
    const size_t end = model.size() - model.size() / 4;
    size_t between = 0;
    for (size_t i = first; i < end; i++) between += model[i].key.size() + model[i].value.size();
    if (first < end) EXPECT_EQ(buffer.BytesBetween(first, end), between);
    EXPECT_EQ(buffer.BytesBetween(0, model.size()), bytes);
  }
}

// With bytes moved down at every drop that outweighs the rest (0), after a few kB, and never in
// these runs (the default).
TEST(BufferedEntriesTest, AppendsAndFrontDropsReadBackAsAList) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 30; round++) {
    const size_t min_moved = round % 3 == 0   ? 0
                             : round % 3 == 1 ? 5000
                                              : BufferedEntries::kMinMovedBytes;
    BufferedEntries buffer(min_moved);
    std::deque<ModelEntry> model;
    uint64_t sequence = 0;
    for (int step = 0; step < 400; step++) {
      if (rng() % 3 != 0 || model.empty()) {
        const size_t appended = 1 + rng() % 20;
        for (size_t a = 0; a < appended; a++) {
          ModelEntry entry;
          entry.key = "k" + std::to_string(sequence);
          entry.value = std::string(rng() % 200, static_cast<char>('a' + sequence % 26));
          entry.sequence = sequence++;
          entry.type = static_cast<uint8_t>(rng() % 8);
          ASSERT_TRUE(buffer.Append(entry.key, entry.value, entry.sequence, entry.type));
          model.push_back(std::move(entry));
        }
      } else {
        // Mostly a few entries, sometimes nearly all, sometimes more than there are.
        const size_t r = rng() % 10;
        const size_t count = r < 6   ? 1 + rng() % 5
                             : r < 9 ? model.size() - std::min<size_t>(model.size(), rng() % 3)
                                     : model.size() + 1;
        buffer.DropFront(count);
        model.erase(model.begin(),
                    model.begin() + static_cast<std::ptrdiff_t>(std::min(count, model.size())));
      }
      ExpectSame(model, buffer);
      if (HasFatalFailure()) return;
    }
    buffer.Clear();
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.bytes(), 0u);
  }
}

}  // namespace
}  // namespace columnar
