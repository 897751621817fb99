// The scalar comparison loop, and the choice among it and the SIMD kernels.
#include "filter/compare_kernels.h"

#include <cstring>

#include "filter/compare_kernel_arch.h"
#include "table_format/encodings/float_order.h"
#include "table_format/value.h"

namespace columnar {

namespace {

// An unsigned key whose order is the CQL order of the value with these bits.
template <PhysicalType kType>
inline uint64_t ScalarOrderKey(uint64_t bits) {
  if constexpr (kType == PhysicalType::kInt32) return static_cast<uint32_t>(bits) ^ 0x80000000u;
  if constexpr (kType == PhysicalType::kInt64) return bits ^ (uint64_t{1} << 63);
  if constexpr (kType == PhysicalType::kFloat32) return FloatOrderKey(static_cast<uint32_t>(bits));
  return DoubleOrderKey(bits);
}

template <CompareOp kOp>
inline bool KeySatisfies(uint64_t key, uint64_t constant) {
  if constexpr (kOp == CompareOp::kEq) return key == constant;
  if constexpr (kOp == CompareOp::kNe) return key != constant;
  if constexpr (kOp == CompareOp::kLt) return key < constant;
  if constexpr (kOp == CompareOp::kLe) return key <= constant;
  if constexpr (kOp == CompareOp::kGt) return key > constant;
  return key >= constant;
}

// Rows [begin, n) with begin a multiple of 64; writes the words they cover.
template <PhysicalType kType, CompareOp kOp>
void ScalarRows(const void* values, size_t begin, size_t n, uint64_t constant_bits, uint64_t* out) {
  constexpr size_t kWidth = FixedWidth(kType);
  const auto* bytes = static_cast<const char*>(values);
  const uint64_t constant = ScalarOrderKey<kType>(constant_bits);
  for (size_t w = begin / 64; w * 64 < n; w++) {
    const size_t end = n < w * 64 + 64 ? n : w * 64 + 64;
    uint64_t word = 0;
    for (size_t i = w * 64; i < end; i++) {
      uint64_t bits = 0;
      std::memcpy(&bits, bytes + i * kWidth, kWidth);
      word |= uint64_t{KeySatisfies<kOp>(ScalarOrderKey<kType>(bits), constant)} << (i - w * 64);
    }
    out[w] = word;
  }
}

template <PhysicalType kType>
void ScalarRowsOp(const void* values, size_t begin, size_t n, CompareOp op, uint64_t constant_bits,
                  uint64_t* out) {
  switch (op) {
    case CompareOp::kEq:
      return ScalarRows<kType, CompareOp::kEq>(values, begin, n, constant_bits, out);
    case CompareOp::kNe:
      return ScalarRows<kType, CompareOp::kNe>(values, begin, n, constant_bits, out);
    case CompareOp::kLt:
      return ScalarRows<kType, CompareOp::kLt>(values, begin, n, constant_bits, out);
    case CompareOp::kLe:
      return ScalarRows<kType, CompareOp::kLe>(values, begin, n, constant_bits, out);
    case CompareOp::kGt:
      return ScalarRows<kType, CompareOp::kGt>(values, begin, n, constant_bits, out);
    case CompareOp::kGe:
      return ScalarRows<kType, CompareOp::kGe>(values, begin, n, constant_bits, out);
  }
}

void CompareScalar(PhysicalType type, const void* values, size_t begin, size_t n, CompareOp op,
                   uint64_t constant_bits, uint64_t* out) {
  switch (type) {
    case PhysicalType::kInt32:
      return ScalarRowsOp<PhysicalType::kInt32>(values, begin, n, op, constant_bits, out);
    case PhysicalType::kInt64:
      return ScalarRowsOp<PhysicalType::kInt64>(values, begin, n, op, constant_bits, out);
    case PhysicalType::kFloat32:
      return ScalarRowsOp<PhysicalType::kFloat32>(values, begin, n, op, constant_bits, out);
    case PhysicalType::kFloat64:
      return ScalarRowsOp<PhysicalType::kFloat64>(values, begin, n, op, constant_bits, out);
    case PhysicalType::kBytes:
      break;
  }
}

// Full 64-row words through the SIMD kernel of `level` (not kScalar).
void CompareSimdWords(SimdLevel level, PhysicalType type, const void* values, size_t words,
                      CompareOp op, int64_t key, uint64_t* out) {
  switch (level) {
    case SimdLevel::kSse2:
      return CompareKernel{}(xsimd::sse2{}, type, values, words, op, key, out);
    case SimdLevel::kAvx2:
      return CompareKernel{}(xsimd::avx2{}, type, values, words, op, key, out);
    case SimdLevel::kAvx512:
      return CompareKernel{}(xsimd::avx512bw{}, type, values, words, op, key, out);
    case SimdLevel::kScalar:
    case SimdLevel::kBest:
      break;
  }
  static auto best =
      xsimd::dispatch<xsimd::arch_list<xsimd::avx512bw, xsimd::avx2, xsimd::sse2>>(CompareKernel{});
  best(type, values, words, op, key, out);
}

}  // namespace

const char* SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kScalar:
      return "scalar";
    case SimdLevel::kSse2:
      return "sse2";
    case SimdLevel::kAvx2:
      return "avx2";
    case SimdLevel::kAvx512:
      return "avx512";
    case SimdLevel::kBest:
      return "best";
  }
  return "?";
}

bool SimdLevelAvailable(SimdLevel level) {
  const auto available = xsimd::available_architectures();
  switch (level) {
    case SimdLevel::kSse2:
      return available.sse2;
    case SimdLevel::kAvx2:
      return available.avx2;
    case SimdLevel::kAvx512:
      return available.avx512bw;
    case SimdLevel::kScalar:
    case SimdLevel::kBest:
      return true;
  }
  return false;
}

int64_t CompareKernelKey(PhysicalType type, uint64_t constant_bits) {
  switch (type) {
    case PhysicalType::kInt32:
      return static_cast<int32_t>(static_cast<uint32_t>(constant_bits));
    case PhysicalType::kFloat32:
      return static_cast<int32_t>(OrderedImage(static_cast<uint32_t>(constant_bits)));
    case PhysicalType::kInt64:
      return static_cast<int64_t>(constant_bits);
    case PhysicalType::kFloat64:
      return static_cast<int64_t>(OrderedImage(constant_bits));
    case PhysicalType::kBytes:
      break;
  }
  return 0;
}

void CompareFixedValues(PhysicalType type, const void* values, size_t n, CompareOp op,
                        uint64_t constant_bits, uint64_t* out, SimdLevel level) {
  const size_t full_words = level == SimdLevel::kScalar ? 0 : n / 64;
  if (full_words > 0) {
    CompareSimdWords(level, type, values, full_words, op, CompareKernelKey(type, constant_bits),
                     out);
  }
  CompareScalar(type, values, full_words * 64, n, op, constant_bits, out);
}

}  // namespace columnar
