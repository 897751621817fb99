// Internal to the compare_kernels_<isa>.cc files: the comparison loop shared by every
// instruction set, written against a "Lanes" policy that each file supplies for 32-bit and
// 64-bit lanes:
//
//   using Lane = int32_t | int64_t;     the signed domain values are compared in
//   using Reg = <vector register>;
//   static constexpr int kLanes;       lanes per register (divides 64)
//   static Reg Broadcast(Lane key);
//   static Reg Load(const Lane* p);    loads kLanes values, mapped to their signed order key
//                                      (identity for integers, float_order.h for floats)
//   static uint64_t Eq(Reg a, Reg b);  lane masks, lane k in bit k
//   static uint64_t Gt(Reg a, Reg b);  signed a > b
//
// Every operator reduces to Eq or Gt, possibly with swapped operands, and a negation of the
// whole 64-row word.
#pragma once

#include <cstddef>
#include <cstdint>

#include "filter/compare_op.h"
#include "table_format/types.h"

namespace columnar {
namespace compare_kernel {

template <class Lanes, CompareOp kOp>
inline uint64_t CompareWord(const typename Lanes::Lane* values, typename Lanes::Reg constant) {
  uint64_t word = 0;
  for (int j = 0; j < 64; j += Lanes::kLanes) {
    const typename Lanes::Reg x = Lanes::Load(values + j);
    uint64_t mask;
    if constexpr (kOp == CompareOp::kEq || kOp == CompareOp::kNe) {
      mask = Lanes::Eq(x, constant);
    } else if constexpr (kOp == CompareOp::kGt || kOp == CompareOp::kLe) {
      mask = Lanes::Gt(x, constant);
    } else {
      mask = Lanes::Gt(constant, x);
    }
    word |= mask << j;
  }
  if constexpr (kOp == CompareOp::kNe || kOp == CompareOp::kLe || kOp == CompareOp::kGe) {
    word = ~word;
  }
  return word;
}

template <class Lanes, CompareOp kOp>
inline void CompareWords(const void* values, size_t words, int64_t constant_key, uint64_t* out) {
  using Lane = typename Lanes::Lane;
  const auto* v = static_cast<const Lane*>(values);
  const typename Lanes::Reg constant = Lanes::Broadcast(static_cast<Lane>(constant_key));
  for (size_t w = 0; w < words; w++) out[w] = CompareWord<Lanes, kOp>(v + w * 64, constant);
}

template <class Lanes>
inline void CompareWordsOp(const void* values, size_t words, CompareOp op, int64_t constant_key,
                           uint64_t* out) {
  switch (op) {
    case CompareOp::kEq:
      return CompareWords<Lanes, CompareOp::kEq>(values, words, constant_key, out);
    case CompareOp::kNe:
      return CompareWords<Lanes, CompareOp::kNe>(values, words, constant_key, out);
    case CompareOp::kLt:
      return CompareWords<Lanes, CompareOp::kLt>(values, words, constant_key, out);
    case CompareOp::kLe:
      return CompareWords<Lanes, CompareOp::kLe>(values, words, constant_key, out);
    case CompareOp::kGt:
      return CompareWords<Lanes, CompareOp::kGt>(values, words, constant_key, out);
    case CompareOp::kGe:
      return CompareWords<Lanes, CompareOp::kGe>(values, words, constant_key, out);
  }
}

// Picks the lane policy for `type`: Lanes32<false> int32, Lanes32<true> float32, Lanes64<false>
// int64, Lanes64<true> float64.
template <template <bool> class Lanes32, template <bool> class Lanes64>
inline void RunCompareKernel(PhysicalType type, const void* values, size_t words, CompareOp op,
                             int64_t constant_key, uint64_t* out) {
  switch (type) {
    case PhysicalType::kInt32:
      return CompareWordsOp<Lanes32<false>>(values, words, op, constant_key, out);
    case PhysicalType::kFloat32:
      return CompareWordsOp<Lanes32<true>>(values, words, op, constant_key, out);
    case PhysicalType::kInt64:
      return CompareWordsOp<Lanes64<false>>(values, words, op, constant_key, out);
    case PhysicalType::kFloat64:
      return CompareWordsOp<Lanes64<true>>(values, words, op, constant_key, out);
    case PhysicalType::kBytes:
      break;
  }
}

}  // namespace compare_kernel
}  // namespace columnar
