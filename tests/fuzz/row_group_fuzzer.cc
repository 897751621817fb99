// Row groups (table_format/row_group.h) decoded by the typed layout (typed_layout.h, with the
// shared fuzz schema) and the generic layout (generic_layout.h) from arbitrary bytes.
//
// Input: [layout u8] [first_key_length u8] [first internal key] [row group bytes]
//   layout bit 0: typed (set) or generic; bit 1: the generic layout has a 3-byte prefix
//   extractor; bit 2: decode through TypedLayout::DecodeSelected (every other row passing,
//   some columns projected away).
// A group that decodes must hold view.row_count() rows starting with the first key, and (when
// its keys are in internal-key order, the writer's precondition) write back to a group that
// decodes to the same entries; a typed group's copy must show an observer what splitting its
// entries shows.
#include <rocksdb/slice_transform.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "table_format/generic_layout.h"
#include "table_format/row_group.h"
#include "table_format/typed_layout.h"
#include "table_format/varint.h"
#include "tests/fuzz/fuzz_schema.h"
#include "tests/table_format/recording_observer.h"

namespace columnar {
namespace {

class DefaultSettings : public ColumnWriteSettings {
 public:
  ChunkWriteOptions For(const std::string&, PhysicalType) const override {
    return ChunkWriteOptions();
  }
};

const RowLayout& Layout(uint8_t selector) {
  // A reader of files with cell exceptions (layout id 2) reads every typed group.
  static const TypedLayout typed(fuzz::FuzzSchema(), nullptr, TypedLayout::kIdWithCellExceptions);
  static const GenericLayout generic(nullptr);
  static const GenericLayout generic_prefixed(
      std::shared_ptr<const rocksdb::SliceTransform>(rocksdb::NewFixedPrefixTransform(3)));
  if (selector & 1) return typed;
  return (selector & 2) ? static_cast<const RowLayout&>(generic_prefixed) : generic;
}

// Internal-key order: user key ascending, then trailer (sequence, type) descending.
bool InInternalKeyOrder(const DecodedRowGroup& group) {
  for (size_t row = 1; row < group.row_count(); row++) {
    const int c = group.user_key(row - 1).compare(group.user_key(row));
    if (c > 0 || (c == 0 && group.trailer(row - 1) <= group.trailer(row))) return false;
  }
  return true;
}

// The group's rows as a writer's entries (slices into `group`).
std::vector<Entry> EntriesOf(const DecodedRowGroup& group) {
  std::vector<Entry> entries(group.row_count());
  for (size_t row = 0; row < group.row_count(); row++) {
    entries[row].user_key = group.user_key(row);
    entries[row].sequence = group.trailer(row) >> 8;
    entries[row].value_type = static_cast<uint8_t>(group.trailer(row) & 0xff);
    entries[row].value = group.value(row);
  }
  return entries;
}

void CheckRewrite(const RowLayout& layout, const DecodedRowGroup& group) {
  if (!InInternalKeyOrder(group)) return;
  std::vector<Entry> entries = EntriesOf(group);
  DefaultSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  std::string written;
  FUZZ_CHECK(layout.WriteRowGroup(entries.data(), entries.size(), context, &written).ok());
  RowGroupView view;
  FUZZ_CHECK(view.Parse(written).ok());
  std::unique_ptr<DecodedRowGroup> again;
  FUZZ_CHECK(layout.DecodeRowGroup(view, group.internal_key(0), &again).ok());
  FUZZ_CHECK(again->row_count() == group.row_count());
  for (size_t row = 0; row < group.row_count(); row++) {
    FUZZ_CHECK(again->internal_key(row) == group.internal_key(row));
    FUZZ_CHECK(again->value(row) == group.value(row));
  }
}

// A typed group decoded for a copy holds the same rows, and a copy of it (offered with those
// rows) shows an observer what splitting its entries shows.
void CheckCopyReport(const TypedLayout& layout, const RowGroupView& view, const Slice& first_key,
                     const DecodedRowGroup& group) {
  std::unique_ptr<DecodedRowGroup> for_copy;
  FUZZ_CHECK(layout.DecodeRowGroupForCopy(view, first_key, &for_copy).ok());
  FUZZ_CHECK(for_copy->row_count() == group.row_count());
  for (size_t row = 0; row < group.row_count(); row++) {
    FUZZ_CHECK(for_copy->internal_key(row) == group.internal_key(row));
    FUZZ_CHECK(for_copy->value(row) == group.value(row));
  }
  if (!InInternalKeyOrder(group)) return;
  std::vector<Entry> entries = EntriesOf(group);
  DefaultSettings settings;
  testing_util::RecordingObserver split, copied;
  RowGroupWriteContext context;
  context.settings = &settings;
  context.observer = &split;
  std::string written;
  FUZZ_CHECK(layout.WriteRowGroup(entries.data(), entries.size(), context, &written).ok());
  bool verbatim_written = false;
  context.observer = &copied;
  context.verbatim = &view;
  context.verbatim_written = &verbatim_written;
  context.verbatim_rows = for_copy.get();
  written.clear();
  FUZZ_CHECK(layout.WriteRowGroup(entries.data(), entries.size(), context, &written).ok());
  FUZZ_CHECK(copied.record == split.record);
}

void DecodeSlots(const RowGroupView& view) {
  for (uint32_t slot : view.slots()) {
    for (int t = 0; t < kNumPhysicalTypes; t++) {
      ColumnVector out;
      if (view.DecodeSlot(slot, static_cast<PhysicalType>(t), &out, /*verify_checksum=*/true)
              .ok()) {
        FUZZ_CHECK(out.size() == view.row_count());
      }
    }
  }
}

}  // namespace
}  // namespace columnar

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  if (size < 2) return 0;
  const uint8_t selector = data[0];
  const size_t key_length = data[1];
  if (size - 2 < key_length) return 0;
  const Slice first_key(reinterpret_cast<const char*>(data) + 2, key_length);
  const Slice bytes(reinterpret_cast<const char*>(data) + 2 + key_length, size - 2 - key_length);

  RowGroupView view;
  if (!view.Parse(bytes).ok()) return 0;
  FUZZ_CHECK(view.row_count() >= 1);
  // A header may declare up to kMaxRowGroupRows (1M) rows without a single chunk (absent slots
  // mean defaults), and decoding is linear in that count: about a second per input under the
  // sanitizers. Legal, but it would starve the fuzzer; real groups hold rows_per_group rows.
  if (view.row_count() > (1u << 16)) return 0;
  FUZZ_CHECK(view.size() <= bytes.size());
  DecodeSlots(view);

  const RowLayout& layout = Layout(selector);
  std::unique_ptr<DecodedRowGroup> group;
  if (layout.DecodeRowGroup(view, first_key, &group).ok()) {
    FUZZ_CHECK(group->row_count() == view.row_count());
    FUZZ_CHECK(group->internal_key(0) == first_key);
    for (size_t row = 0; row < group->row_count(); row++) {
      FUZZ_CHECK(group->internal_key(row).size() >= 8);
      (void)group->value(row);
    }
    CheckRewrite(layout, *group);
    if (selector & 1) {
      CheckCopyReport(static_cast<const TypedLayout&>(layout), view, first_key, *group);
    }
  }

  if ((selector & 1) && (selector & 4)) {
    const auto& typed = static_cast<const TypedLayout&>(layout);
    std::vector<uint64_t> passing((view.row_count() + 63) / 64, 0xAAAAAAAAAAAAAAAAull);
    TypedLayout::RowSelection selection;
    selection.passing = passing.data();
    selection.keep_columns.assign(typed.schema().next_column_id(), false);
    for (size_t id = 0; id < selection.keep_columns.size(); id += 2) {
      selection.keep_columns[id] = true;
    }
    selection.now_seconds = 1700000000;
    selection.placeholder = Slice("\x01\x03\x00", 3);
    std::unique_ptr<DecodedRowGroup> selected;
    TypedLayout::SelectionCounts counts;
    if (typed.DecodeSelected(view, first_key, selection, &selected, &counts).ok()) {
      FUZZ_CHECK(selected->row_count() <= view.row_count());
    }
  }
  return 0;
}
