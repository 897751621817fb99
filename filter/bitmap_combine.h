// AND / OR of children's selection bitmaps, evaluating each child only where it can still
// change the answer: under AND on the rows every earlier child kept, under OR on the rows no
// earlier child selected. Once no such row is left the remaining children are skipped (and
// whatever columns only they read are never fetched).
//
// Contract shared by every evaluation step: eval(child, care, &bits) must make bits exact on
// the rows selected in `care`; rows outside it may come out either way. The combined result
// is then exact on `care` and clear elsewhere.
#pragma once

#include <vector>

#include "filter/selection_bitmap.h"
#include "table_format/types.h"

namespace columnar {

template <typename Child, typename EvalFn>
Status CombineChildren(bool is_and, const std::vector<Child>& children, const SelectionBitmap& care,
                       EvalFn eval, SelectionBitmap* out) {
  SelectionBitmap child_bits;
  if (is_and) {
    *out = care;
    for (const Child& child : children) {
      if (out->None()) break;
      Status s = eval(child, *out, &child_bits);
      if (!s.ok()) return s;
      out->And(child_bits);
    }
    return Status::OK();
  }
  out->Reset(care.size(), false);
  SelectionBitmap undecided = care;
  for (const Child& child : children) {
    if (undecided.None()) break;
    Status s = eval(child, undecided, &child_bits);
    if (!s.ok()) return s;
    child_bits.And(undecided);
    out->Or(child_bits);
    undecided.AndNot(child_bits);
  }
  return Status::OK();
}

}  // namespace columnar
