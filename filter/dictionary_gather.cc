#include "filter/dictionary_gather.h"

#include <cstdint>
#include <string>

namespace columnar {

namespace {

bool PresentAt(const Slice& presence, size_t row) {
  return (static_cast<uint8_t>(presence[row >> 3]) >> (row & 7)) & 1;
}

size_t CountPresent(const Slice& presence, size_t rows) {
  size_t count = 0;
  for (size_t byte = 0; byte < rows / 8; byte++) {
    count += static_cast<size_t>(__builtin_popcount(static_cast<uint8_t>(presence[byte])));
  }
  for (size_t row = rows / 8 * 8; row < rows; row++) count += PresentAt(presence, row);
  return count;
}

// Codes compared as int32 values (valid ones are below the dictionary size, far below 2^31).
void CompareCodes(const uint32_t* codes, size_t count, CompareOp op, size_t code, SimdLevel level,
                  SelectionBitmap* out) {
  CompareFixedValues(PhysicalType::kInt32, codes, count, op, code, out->mutable_words(), level);
}

// Whether every code is below `entries`, in two SIMD passes: codes of 2^31 and more read as
// negative int32 values.
bool CodesInRange(const uint32_t* codes, size_t count, size_t entries, SimdLevel level) {
  if (entries > INT32_MAX) return true;
  SelectionBitmap bad(count);
  CompareCodes(codes, count, CompareOp::kLt, 0, level, &bad);
  if (!bad.None()) return false;
  CompareCodes(codes, count, CompareOp::kGe, entries, level, &bad);
  return bad.None();
}

Status CheckShape(size_t entries, const uint32_t* codes, size_t code_count, const Slice& presence,
                  size_t rows, SimdLevel level) {
  if (!presence.empty() && presence.size() < (rows + 7) / 8) {
    return Status::Corruption("filter: dictionary column's presence bitmap is too short");
  }
  const size_t present = presence.empty() ? rows : CountPresent(presence, rows);
  if (code_count != present) {
    return Status::Corruption("filter: dictionary column has " + std::to_string(code_count) +
                              " codes for " + std::to_string(present) + " present rows");
  }
  if (!CodesInRange(codes, code_count, entries, level)) {
    return Status::Corruption("filter: dictionary code out of range (" + std::to_string(entries) +
                              " entries)");
  }
  return Status::OK();
}

// The set bits of `bits` form one run [*begin, *end) (false when there are none, or gaps).
bool AsOneRun(const SelectionBitmap& bits, size_t* begin, size_t* end) {
  const uint64_t* words = bits.words();
  size_t w = 0;
  while (w < bits.word_count() && words[w] == 0) w++;
  if (w == bits.word_count()) return false;
  *begin = w * 64 + static_cast<size_t>(__builtin_ctzll(words[w]));
  const size_t count = bits.Count();
  *end = *begin + count;
  // `count` bits, none below *begin: a run exactly when none is at *end or above.
  const size_t last_word = (*end - 1) / 64;
  const size_t last_bit = (*end - 1) % 64;
  if (last_word >= bits.word_count()) return false;
  if (last_bit < 63 && (words[last_word] >> (last_bit + 1)) != 0) return false;
  for (size_t k = last_word + 1; k < bits.word_count(); k++) {
    if (words[k] != 0) return false;
  }
  return true;
}

// The selected entries as one run [*begin, *end), or, with *negate, all but such a run.
bool AsCodeRun(const SelectionBitmap& entries, size_t* begin, size_t* end, bool* negate) {
  *negate = false;
  if (AsOneRun(entries, begin, end)) return true;
  SelectionBitmap complement(entries.size(), true);
  complement.AndNot(entries);
  *negate = true;
  return AsOneRun(complement, begin, end);
}

// dense bit k = entry codes[k] selected, through one or two SIMD passes over the codes when
// the selection is a run of codes, a lookup per code otherwise.
void MatchCodes(const SelectionBitmap& entries, const uint32_t* codes, size_t count,
                SimdLevel level, SelectionBitmap* dense) {
  dense->Reset(count, false);
  size_t begin;
  size_t end;
  bool negate;
  if (!AsCodeRun(entries, &begin, &end, &negate)) {
    uint64_t* words = dense->mutable_words();
    for (size_t k = 0; k < count; k++) {
      words[k >> 6] |= uint64_t{entries.Get(codes[k])} << (k & 63);
    }
    return;
  }
  if (end - begin == 1) {
    CompareCodes(codes, count, CompareOp::kEq, begin, level, dense);
  } else {
    dense->Reset(count, true);
    SelectionBitmap pass(count);
    if (begin > 0) {
      CompareCodes(codes, count, CompareOp::kGe, begin, level, &pass);
      dense->And(pass);
    }
    if (end < entries.size()) {
      CompareCodes(codes, count, CompareOp::kLt, end, level, &pass);
      dense->And(pass);
    }
  }
  if (negate) {
    for (size_t w = 0; w < dense->word_count(); w++) dense->mutable_words()[w] ^= ~uint64_t{0};
    dense->ClearTail();
  }
}

// Spreads dense bit k over the k-th present row; null rows take null_result.
void SpreadOverRows(const SelectionBitmap& dense, bool null_result, const Slice& presence,
                    size_t rows, SelectionBitmap* out) {
  out->Reset(rows, false);
  uint64_t* words = out->mutable_words();
  size_t next = 0;
  for (size_t row = 0; row < rows; row++) {
    const bool hit = PresentAt(presence, row) ? dense.Get(next++) : null_result;
    words[row >> 6] |= uint64_t{hit} << (row & 63);
  }
}

}  // namespace

Status GatherDictionarySelection(const SelectionBitmap& entry_selection, bool null_result,
                                 const uint32_t* codes, size_t code_count, const Slice& presence,
                                 size_t rows, SimdLevel level, SelectionBitmap* out) {
  Status s = CheckShape(entry_selection.size(), codes, code_count, presence, rows, level);
  if (!s.ok()) return s;
  // No entry matches, or all do: rows differ only by nullness.
  const bool uniform = entry_selection.None() || entry_selection.All();
  const bool entry_result = entry_selection.size() > 0 && entry_selection.All();
  if (uniform && (presence.empty() || entry_result == null_result)) {
    out->Reset(rows, presence.empty() ? entry_result : null_result);
    return Status::OK();
  }
  if (presence.empty()) {
    MatchCodes(entry_selection, codes, code_count, level, out);
    return Status::OK();
  }
  SelectionBitmap dense;
  MatchCodes(entry_selection, codes, code_count, level, &dense);
  SpreadOverRows(dense, null_result, presence, rows, out);
  return Status::OK();
}

}  // namespace columnar
