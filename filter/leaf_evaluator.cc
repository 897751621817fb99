#include "filter/leaf_evaluator.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace columnar {

namespace {

// Calls fn(row) for every row selected in `care`.
template <typename Fn>
void ForEachCareRow(const SelectionBitmap& care, Fn fn) {
  const uint64_t* words = care.words();
  for (size_t w = 0; w < care.word_count(); w++) {
    for (uint64_t word = words[w]; word != 0; word &= word - 1) {
      fn(w * 64 + static_cast<size_t>(__builtin_ctzll(word)));
    }
  }
}

// *out = the present rows, or the null rows when `nulls` is set.
void PresenceRows(const ColumnVector& column, bool nulls, SelectionBitmap* out) {
  const std::vector<uint64_t>& presence = column.presence();
  if (presence.empty()) {
    out->Reset(column.size(), !nulls);
    return;
  }
  uint64_t* words = out->mutable_words();
  for (size_t w = 0; w < out->word_count(); w++) {
    const uint64_t present = w < presence.size() ? presence[w] : 0;
    words[w] = nulls ? ~present : present;
  }
  out->ClearTail();
}

void MaskNulls(const ColumnVector& column, SelectionBitmap* out) {
  const std::vector<uint64_t>& presence = column.presence();
  if (presence.empty()) return;
  uint64_t* words = out->mutable_words();
  for (size_t w = 0; w < out->word_count(); w++) {
    words[w] &= w < presence.size() ? presence[w] : 0;
  }
}

void CompareFixedColumn(const ColumnVector& column, CompareOp op, const Datum& constant,
                        SimdLevel level, SelectionBitmap* out) {
  CompareFixedValues(column.type(), column.fixed_bytes(), column.size(), op, constant.bits,
                     out->mutable_words(), level);
}

void InFixedByPasses(const BoundPredicate& leaf, const ColumnVector& column, SimdLevel level,
                     SelectionBitmap* out) {
  SelectionBitmap pass(column.size());
  for (size_t k = 0; k < leaf.in_datums.size(); k++) {
    CompareFixedColumn(column, CompareOp::kEq, leaf.in_datums[k], level, k == 0 ? out : &pass);
    if (k > 0) out->Or(pass);
  }
}

void InFixedBySearch(const BoundPredicate& leaf, const ColumnVector& column,
                     const SelectionBitmap& care, SelectionBitmap* out) {
  const PhysicalType type = column.type();
  const size_t width = FixedWidth(type);
  // in_datums ascend in CQL order, so their order keys ascend too.
  std::vector<uint64_t> keys;
  keys.reserve(leaf.in_datums.size());
  for (const Datum& d : leaf.in_datums) keys.push_back(FixedOrderKey(type, d.bits));
  ForEachCareRow(care, [&](size_t row) {
    uint64_t bits = 0;
    std::memcpy(&bits, column.fixed_bytes() + row * width, width);
    if (std::binary_search(keys.begin(), keys.end(), FixedOrderKey(type, bits)))
      out->Set(row, true);
  });
}

void CompareBytesColumn(const ColumnVector& column, CompareOp op, const Slice& constant,
                        const SelectionBitmap& care, SelectionBitmap* out) {
  if (op == CompareOp::kEq || op == CompareOp::kNe) {
    const bool want_equal = op == CompareOp::kEq;
    ForEachCareRow(care, [&](size_t row) {
      const Slice v = column.GetBytes(row);
      const bool equal = v.size() == constant.size() &&
                         (v.size() == 0 || std::memcmp(v.data(), constant.data(), v.size()) == 0);
      if (equal == want_equal) out->Set(row, true);
    });
    return;
  }
  ForEachCareRow(care, [&](size_t row) {
    if (OrderSatisfies(op, CompareBytes(column.GetBytes(row), constant))) out->Set(row, true);
  });
}

void InBytesColumn(const BoundPredicate& leaf, const ColumnVector& column,
                   const SelectionBitmap& care, SelectionBitmap* out) {
  const auto less = [](const Datum& d, const Slice& v) { return CompareBytes(d.bytes, v) < 0; };
  ForEachCareRow(care, [&](size_t row) {
    const Slice v = column.GetBytes(row);
    auto it = std::lower_bound(leaf.in_datums.begin(), leaf.in_datums.end(), v, less);
    if (it != leaf.in_datums.end() && CompareBytes(it->bytes, v) == 0) out->Set(row, true);
  });
}

void EvaluateIn(const BoundPredicate& leaf, const ColumnVector& column, const SelectionBitmap& care,
                SimdLevel level, SelectionBitmap* out) {
  if (column.type() == PhysicalType::kBytes) {
    InBytesColumn(leaf, column, care, out);
  } else if (leaf.in_datums.size() <= kMaxInListKernelPasses) {
    InFixedByPasses(leaf, column, level, out);
  } else {
    InFixedBySearch(leaf, column, care, out);
  }
}

}  // namespace

void EvaluateLeaf(const BoundPredicate& leaf, const ColumnVector& column,
                  const SelectionBitmap& care, SimdLevel level, SelectionBitmap* out) {
  out->Reset(column.size(), false);
  switch (leaf.kind) {
    case BoundPredicate::Kind::kIsNull:
      return PresenceRows(column, /*nulls=*/true, out);
    case BoundPredicate::Kind::kIsNotNull:
      return PresenceRows(column, /*nulls=*/false, out);
    case BoundPredicate::Kind::kComparison:
      if (column.type() == PhysicalType::kBytes) {
        CompareBytesColumn(column, leaf.op, leaf.constant.bytes, care, out);
      } else {
        CompareFixedColumn(column, leaf.op, leaf.constant, level, out);
      }
      break;
    case BoundPredicate::Kind::kIn:
      EvaluateIn(leaf, column, care, level, out);
      break;
    case BoundPredicate::Kind::kAnd:
    case BoundPredicate::Kind::kOr:
      return;
  }
  MaskNulls(column, out);
}

}  // namespace columnar
