// huffman: see huffman.h for the byte layout.
#include "table_format/encodings/huffman.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "huffman";

// Canonical codes for `lengths` (indexed like the values, ascending), each code's bits
// reversed so that its first bit comes first in the LSB-first stream.
std::vector<uint32_t> StreamCodes(const std::vector<int>& lengths) {
  const size_t k = lengths.size();
  std::vector<size_t> order(k);
  for (size_t i = 0; i < k; i++) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return lengths[a] < lengths[b]; });
  std::vector<uint32_t> codes(k);
  uint32_t code = 0;
  int length = lengths[order[0]];
  for (size_t rank = 0; rank < k; rank++) {
    const size_t i = order[rank];
    if (rank > 0) code = (code + 1) << (lengths[i] - length);
    length = lengths[i];
    uint32_t reversed = 0;
    for (int b = 0; b < length; b++) reversed |= ((code >> (length - 1 - b)) & 1u) << b;
    codes[i] = reversed;
  }
  return codes;
}

// The gap stored before symbol i > 0: its distance to its predecessor minus one, at the
// symbols' width (the wrap of uint64 equals the one at 32 bits for sign-extended int32s).
uint64_t Gap(const std::vector<int64_t>& symbols, size_t i) {
  return static_cast<uint64_t>(symbols[i]) - static_cast<uint64_t>(symbols[i - 1]) - 1;
}

// The distinct values of a column (ascending, signed reading), their counts and code lengths;
// with `row_symbols`, also each row's index among the distinct values (what the encoder
// writes), taken from the same count or sort rather than searched for row by row.
template <typename U>
struct Plan {
  using S = std::make_signed_t<U>;
  HuffmanTable table;
  std::vector<uint64_t> counts;
  bool refused = false;  // more than kMaxHuffmanSymbols distinct values

  Plan(const U* bits, size_t n, std::vector<uint32_t>* row_symbols = nullptr) {
    if (!CountSmallRange(bits, n, row_symbols)) Sort(bits, n, row_symbols);
    refused = table.symbols.size() > kMaxHuffmanSymbols;
    if (!refused && !table.symbols.empty()) table.lengths = HuffmanCodeLengths(counts);
  }

  // Values whose span (max - min) is below max(kCountedSpanMin, kCountedSpanPerRow per row)
  // are counted rather than sorted: the columns Huffman wins on (codes, statuses) span little,
  // and counting 128 values over 512 slots costs less than sorting them.
  static constexpr size_t kCountedSpanPerRow = 4;
  static constexpr size_t kCountedSpanMin = 256;

  // Counting over [min, max] when that span is small: false (nothing done) otherwise.
  bool CountSmallRange(const U* bits, size_t n, std::vector<uint32_t>* row_symbols) {
    if (n == 0) return false;
    int64_t lo = static_cast<S>(bits[0]);
    int64_t hi = lo;
    for (size_t i = 1; i < n; i++) {
      const int64_t v = static_cast<S>(bits[i]);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    if (span >= std::max(kCountedSpanMin, kCountedSpanPerRow * n)) return false;
    // slot[v - lo]: the count of v, then its symbol index.
    std::vector<uint32_t> slot(span + 1, 0);
    auto offset = [&](size_t i) { return static_cast<size_t>(static_cast<S>(bits[i]) - lo); };
    for (size_t i = 0; i < n; i++) slot[offset(i)]++;
    const size_t most = std::min<size_t>(n, span + 1);  // distinct values at most
    table.symbols.reserve(most);
    counts.reserve(most);
    for (size_t v = 0; v <= span; v++) {
      if (slot[v] == 0) continue;
      table.symbols.push_back(lo + static_cast<int64_t>(v));
      counts.push_back(slot[v]);
      slot[v] = static_cast<uint32_t>(counts.size() - 1);
    }
    if (row_symbols != nullptr) {
      row_symbols->resize(n);
      for (size_t i = 0; i < n; i++) (*row_symbols)[i] = slot[offset(i)];
    }
    return true;
  }

  void Sort(const U* bits, size_t n, std::vector<uint32_t>* row_symbols) {
    if (row_symbols == nullptr) {
      std::vector<S> sorted(n);
      for (size_t i = 0; i < n; i++) sorted[i] = static_cast<S>(bits[i]);
      std::sort(sorted.begin(), sorted.end());
      Reserve(n, [&](size_t i) { return sorted[i] != sorted[i - 1]; });
      for (size_t i = 0; i < n; i++) {
        if (i == 0 || sorted[i] != sorted[i - 1]) {
          table.symbols.push_back(sorted[i]);
          counts.push_back(0);
        }
        counts.back()++;
      }
    } else {
      // Rows sorted by value (the order among equal values does not matter).
      std::vector<std::pair<S, uint32_t>> sorted(n);
      for (size_t i = 0; i < n; i++)
        sorted[i] = {static_cast<S>(bits[i]), static_cast<uint32_t>(i)};
      std::sort(sorted.begin(), sorted.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      Reserve(n, [&](size_t i) { return sorted[i].first != sorted[i - 1].first; });
      row_symbols->resize(n);
      for (size_t i = 0; i < n; i++) {
        if (i == 0 || sorted[i].first != sorted[i - 1].first) {
          table.symbols.push_back(sorted[i].first);
          counts.push_back(0);
        }
        counts.back()++;
        (*row_symbols)[sorted[i].second] = static_cast<uint32_t>(counts.size() - 1);
      }
    }
  }

  // Room for the distinct values of n sorted values (`differs(i)`: value i differs from i - 1).
  template <typename Differs>
  void Reserve(size_t n, Differs differs) {
    size_t distinct = n > 0 ? 1 : 0;
    for (size_t i = 1; i < n; i++) distinct += differs(i) ? 1 : 0;
    table.symbols.reserve(distinct);
    counts.reserve(distinct);
  }

  uint64_t CodeBits() const {
    uint64_t total = 0;
    for (size_t i = 0; i < counts.size(); i++) total += counts[i] * table.lengths[i];
    return total;
  }
};

template <typename T>
Status EncodeTyped(const ColumnVector& values, std::string* out) {
  using U = UnsignedOf<T>;
  const size_t n = values.size();
  const U* bits = BitsOf<T>(values);
  std::vector<uint32_t> row_symbols;
  const Plan<U> plan(bits, n, &row_symbols);
  if (plan.refused) return Status::InvalidArgument(kName, "too many distinct values");
  if (plan.table.symbols.empty()) {
    PutVarint32(out, 0);
    return Status::OK();
  }
  plan.table.Append(out);
  const std::vector<uint32_t> codes = plan.table.StreamCodes();
  ShortCodeWriter writer(out, n * kMaxHuffmanCodeLength);
  for (size_t i = 0; i < n; i++) {
    const uint32_t index = row_symbols[i];
    writer.Write(codes[index], plan.table.lengths[index]);
  }
  writer.Finish();
  return Status::OK();
}

template <typename T>
Status DecodeTyped(const Slice& body, size_t count, ColumnVector* out) {
  using U = UnsignedOf<T>;
  Slice in = body;
  if (count == 0) {
    uint32_t k;
    if (!GetVarint32(&in, &k)) return EncodingCorruption(kName, "truncated symbol count");
    if (k != 0 || !in.empty()) return EncodingCorruption(kName, "symbols or codes for no values");
    return Status::OK();
  }
  HuffmanTable table;
  Status s =
      HuffmanTable::Parse(&in, sizeof(T) * 8, std::min(count, kMaxHuffmanSymbols), kName, &table);
  if (!s.ok()) return s;
  // Every value costs at least one bit: refuse counts the body cannot hold before looping.
  if (count > in.size() * 8) return EncodingCorruption(kName, "body shorter than its values");
  const HuffmanDecoder decoder(table);
  U* dst = AppendFixedSlots<T>(out, count);
  const auto* stream = reinterpret_cast<const uint8_t*>(in.data());
  const size_t total_bits = in.size() * 8;
  size_t pos = 0;
  for (size_t row = 0; row < count; row++) {
    uint32_t index;
    if (!decoder.Next(stream, total_bits, &pos, &index)) {
      return EncodingCorruption(kName,
                                pos == total_bits ? "truncated codes" : "bit pattern of no value");
    }
    dst[row] = static_cast<U>(table.symbols[index]);
  }
  // The stream must end in its last byte, padded with zero bits.
  if ((pos + 7) / 8 != in.size() || (pos % 8 != 0 && (stream[pos >> 3] >> (pos & 7)) != 0)) {
    return EncodingCorruption(kName, "trailing bytes");
  }
  return Status::OK();
}

Status Encode(const ColumnVector& values, std::string* out) {
  return VisitIntegerType(values.type(),
                          [&](auto tag) { return EncodeTyped<decltype(tag)>(values, out); });
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitIntegerType(type,
                          [&](auto tag) { return DecodeTyped<decltype(tag)>(body, count, out); });
}

}  // namespace

// Huffman code lengths: when the tree is too deep the counts are halved (rounding up) and the
// tree rebuilt, which converges to a balanced tree. Ties are broken by node number: leaves are
// nodes 0..k-1, each merged node takes the next number.
//
// The two lightest nodes are merged until one is left. Leaves are taken in (count, number)
// order; merged nodes are made in (weight, number) order too (a merged node weighs no less
// than the one made before it), so the lightest node is always at the head of one of two
// queues, and no heap is needed: the same merges as a priority queue of (weight, number).
std::vector<int> HuffmanCodeLengths(std::vector<uint64_t> counts) {
  const size_t k = counts.size();
  if (k == 1) return {1};
  std::vector<uint32_t> leaves(k);
  std::vector<uint64_t> weight(2 * k - 1);
  std::vector<uint32_t> parent(2 * k - 1, 0);
  std::vector<int> depth(2 * k - 1, 0);
  while (true) {
    for (size_t i = 0; i < k; i++) {
      leaves[i] = static_cast<uint32_t>(i);
      weight[i] = counts[i];
    }
    std::stable_sort(leaves.begin(), leaves.end(),
                     [&](uint32_t a, uint32_t b) { return counts[a] < counts[b]; });
    size_t next_leaf = 0;
    size_t next_merged = k;  // the lightest merged node not yet merged again
    size_t next = k;         // the next node number
    auto take = [&]() {
      size_t node;
      if (next_leaf < k &&
          (next_merged == next || weight[leaves[next_leaf]] <= weight[next_merged])) {
        node = leaves[next_leaf++];
      } else {
        node = next_merged++;
      }
      return node;
    };
    while (next < 2 * k - 1) {
      const size_t a = take();
      const size_t b = take();
      parent[a] = static_cast<uint32_t>(next);
      parent[b] = static_cast<uint32_t>(next);
      weight[next] = weight[a] + weight[b];
      next++;
    }
    // Internal nodes are numbered after their children: depths from the root (the last) down.
    depth[2 * k - 2] = 0;
    for (size_t node = 2 * k - 2; node-- > 0;) depth[node] = depth[parent[node]] + 1;
    std::vector<int> lengths(depth.begin(), depth.begin() + k);
    if (*std::max_element(lengths.begin(), lengths.end()) <= kMaxHuffmanCodeLength) {
      return lengths;
    }
    for (uint64_t& c : counts) c = (c + 1) / 2;
  }
}

void HuffmanTable::Append(std::string* out) const {
  const size_t k = symbols.size();
  PutVarint32(out, static_cast<uint32_t>(k));
  PutVarint64(out, ZigZagEncode(symbols[0]));
  for (size_t i = 1; i < k; i++) PutVarint64(out, Gap(symbols, i));
  for (size_t i = 0; i < k; i += 2) {
    const int high = i + 1 < k ? lengths[i + 1] : 0;
    out->push_back(static_cast<char>(lengths[i] | high << 4));
  }
}

size_t HuffmanTable::AppendedSize() const {
  size_t size = VarintLength(symbols.size()) + VarintLength(ZigZagEncode(symbols[0]));
  for (size_t i = 1; i < symbols.size(); i++) size += VarintLength(Gap(symbols, i));
  return size + (symbols.size() + 1) / 2;
}

std::vector<uint32_t> HuffmanTable::StreamCodes() const { return columnar::StreamCodes(lengths); }

Status HuffmanTable::Parse(Slice* in, int bits, size_t max_symbols, const char* encoding,
                           HuffmanTable* out) {
  uint32_t k;
  if (!GetVarint32(in, &k)) return EncodingCorruption(encoding, "truncated symbol count");
  if (k == 0 || k > max_symbols) return EncodingCorruption(encoding, "symbol count out of range");
  const __int128 max_value =
      bits == 32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
  out->symbols.resize(k);
  uint64_t first;
  if (!GetVarint64(in, &first)) return EncodingCorruption(encoding, "truncated values");
  out->symbols[0] = ZigZagDecode(first);
  if (out->symbols[0] > max_value || out->symbols[0] < -max_value - 1) {
    return EncodingCorruption(encoding, "value beyond the type's range");
  }
  for (size_t i = 1; i < k; i++) {
    uint64_t gap;
    if (!GetVarint64(in, &gap)) return EncodingCorruption(encoding, "truncated values");
    const __int128 next = static_cast<__int128>(out->symbols[i - 1]) + gap + 1;
    if (next > max_value) return EncodingCorruption(encoding, "value beyond the type's range");
    out->symbols[i] = static_cast<int64_t>(next);
  }
  const size_t length_bytes = (k + 1) / 2;
  if (in->size() < length_bytes) return EncodingCorruption(encoding, "truncated code lengths");
  out->lengths.resize(k);
  for (size_t i = 0; i < k; i++) {
    const auto byte = static_cast<uint8_t>((*in)[i / 2]);
    out->lengths[i] = i % 2 == 0 ? byte & 0x0f : byte >> 4;
    if (out->lengths[i] == 0) return EncodingCorruption(encoding, "zero code length");
  }
  if (k % 2 == 1 && (static_cast<uint8_t>((*in)[k / 2]) >> 4) != 0) {
    return EncodingCorruption(encoding, "pad nibble set");
  }
  in->remove_prefix(length_bytes);
  // Kraft's inequality, in units of 2^-kMaxHuffmanCodeLength.
  uint64_t kraft = 0;
  for (int length : out->lengths) kraft += uint64_t{1} << (kMaxHuffmanCodeLength - length);
  if (kraft > (uint64_t{1} << kMaxHuffmanCodeLength)) {
    return EncodingCorruption(encoding, "code lengths over-subscribed");
  }
  return Status::OK();
}

HuffmanDecoder::HuffmanDecoder(const HuffmanTable& table, bool with_lookup) {
  const size_t k = table.symbols.size();
  for (int length : table.lengths) counts_[length]++;
  // The values in canonical order: by length, then ascending.
  canonical_.reserve(k);
  for (int length = 1; length <= kMaxHuffmanCodeLength; length++) {
    for (size_t i = 0; i < k; i++) {
      if (table.lengths[i] == length) canonical_.push_back(static_cast<uint32_t>(i));
    }
    if (counts_[length] > 0) max_length_ = length;
  }
  if (!with_lookup) return;
  lookup_.assign(size_t{1} << kLookupBits, 0);
  const std::vector<uint32_t> codes = table.StreamCodes();
  for (size_t i = 0; i < k; i++) {
    const int length = table.lengths[i];
    if (length > kLookupBits) continue;
    // Every window that starts with this code (its bits first, anything after).
    for (uint32_t rest = 0; rest < (1u << (kLookupBits - length)); rest++) {
      lookup_[codes[i] | rest << length] = static_cast<uint16_t>(i << 4 | length);
    }
  }
}

bool HuffmanDecoder::NextBitByBit(const uint8_t* stream, size_t total_bits, size_t* pos,
                                  uint32_t* index) const {
  // Canonical decoding: at each length, codes first..first+counts-1 are that length's values.
  uint32_t code = 0;
  uint32_t first = 0;
  uint32_t base = 0;
  size_t p = *pos;
  for (int length = 1; length <= max_length_; length++) {
    if (p == total_bits) {
      *pos = p;
      return false;
    }
    code |= (stream[p >> 3] >> (p & 7)) & 1u;
    p++;
    const auto at_length = static_cast<uint32_t>(counts_[length]);
    if (code - first < at_length) {
      *index = canonical_[base + code - first];
      *pos = p;
      return true;
    }
    base += at_length;
    first = (first + at_length) << 1;
    code <<= 1;
  }
  *pos = p;
  return false;
}

template <typename U>
size_t HuffmanSize(const U* bits, size_t n) {
  const Plan<U> plan(bits, n);
  if (plan.refused) return 0;
  if (plan.table.symbols.empty()) return 1;
  return plan.table.AppendedSize() + (plan.CodeBits() + 7) / 8;
}

template size_t HuffmanSize<uint32_t>(const uint32_t* bits, size_t n);
template size_t HuffmanSize<uint64_t>(const uint64_t* bits, size_t n);

const Codec& HuffmanCodec() {
  static const Codec codec{Encoding::kHuffman, kName, &IsIntegerType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
