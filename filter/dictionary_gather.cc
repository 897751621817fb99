#include "filter/dictionary_gather.h"

namespace columnar {

namespace {

bool PresentAt(const Slice& presence, size_t row) {
  return (static_cast<uint8_t>(presence[row >> 3]) >> (row & 7)) & 1;
}

size_t CountPresent(const Slice& presence, size_t rows) {
  size_t count = 0;
  for (size_t row = 0; row < rows; row++) count += PresentAt(presence, row);
  return count;
}

Status CheckShape(size_t entries, const uint32_t* codes, size_t code_count, const Slice& presence,
                  size_t rows) {
  if (!presence.empty() && presence.size() < (rows + 7) / 8) {
    return Status::Corruption("filter: dictionary column's presence bitmap is too short");
  }
  const size_t present = presence.empty() ? rows : CountPresent(presence, rows);
  if (code_count != present) {
    return Status::Corruption("filter: dictionary column has " + std::to_string(code_count) +
                              " codes for " + std::to_string(present) + " present rows");
  }
  for (size_t k = 0; k < code_count; k++) {
    if (codes[k] >= entries) {
      return Status::Corruption("filter: dictionary code " + std::to_string(codes[k]) +
                                " is out of range (" + std::to_string(entries) + " entries)");
    }
  }
  return Status::OK();
}

}  // namespace

Status GatherDictionarySelection(const SelectionBitmap& entry_selection, bool null_result,
                                 const uint32_t* codes, size_t code_count, const Slice& presence,
                                 size_t rows, SelectionBitmap* out) {
  Status s = CheckShape(entry_selection.size(), codes, code_count, presence, rows);
  if (!s.ok()) return s;
  // No entry matches, or all do: rows differ only by nullness.
  const bool uniform = entry_selection.None() || entry_selection.All();
  const bool entry_result = entry_selection.size() > 0 && entry_selection.All();
  if (uniform && (presence.empty() || entry_result == null_result)) {
    out->Reset(rows, presence.empty() ? entry_result : null_result);
    return Status::OK();
  }
  out->Reset(rows, false);
  uint64_t* words = out->mutable_words();
  size_t next_code = 0;
  for (size_t row = 0; row < rows; row++) {
    const bool present = presence.empty() || PresentAt(presence, row);
    const bool hit = present ? entry_selection.Get(codes[next_code++]) : null_result;
    words[row >> 6] |= uint64_t{hit} << (row & 63);
  }
  return Status::OK();
}

}  // namespace columnar
