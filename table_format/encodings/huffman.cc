// huffman: see huffman.h for the byte layout.
#include "table_format/encodings/huffman.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "huffman";

// Huffman code lengths for `counts` (each >= 1), none longer than kMaxHuffmanCodeLength: when
// the tree is too deep the counts are halved (rounding up) and the tree rebuilt, which
// converges to a balanced tree. Ties are broken by node number, so the lengths depend on the
// counts only.
std::vector<int> CodeLengths(std::vector<uint64_t> counts) {
  const size_t k = counts.size();
  if (k == 1) return {1};
  while (true) {
    std::vector<size_t> parent(2 * k - 1, 0);
    using Node = std::pair<uint64_t, size_t>;  // (weight, node number)
    std::priority_queue<Node, std::vector<Node>, std::greater<Node>> queue;
    for (size_t i = 0; i < k; i++) queue.push({counts[i], i});
    size_t next = k;
    while (queue.size() > 1) {
      const Node a = queue.top();
      queue.pop();
      const Node b = queue.top();
      queue.pop();
      parent[a.second] = next;
      parent[b.second] = next;
      queue.push({a.first + b.first, next});
      next++;
    }
    // Internal nodes are numbered after their children: depths from the root (the last) down.
    std::vector<int> depth(2 * k - 1, 0);
    for (size_t node = 2 * k - 2; node-- > 0;) depth[node] = depth[parent[node]] + 1;
    std::vector<int> lengths(depth.begin(), depth.begin() + k);
    if (*std::max_element(lengths.begin(), lengths.end()) <= kMaxHuffmanCodeLength) {
      return lengths;
    }
    for (uint64_t& c : counts) c = (c + 1) / 2;
  }
}

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

// The distinct values of a column (ascending, signed reading), their counts and code lengths.
template <typename U>
struct Plan {
  using S = std::make_signed_t<U>;
  std::vector<S> symbols;
  std::vector<uint64_t> counts;
  std::vector<int> lengths;
  bool refused = false;  // more than kMaxHuffmanSymbols distinct values

  Plan(const U* bits, size_t n) {
    std::vector<S> sorted(n);
    for (size_t i = 0; i < n; i++) sorted[i] = static_cast<S>(bits[i]);
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < n; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        symbols.push_back(sorted[i]);
        counts.push_back(0);
      }
      counts.back()++;
    }
    refused = symbols.size() > kMaxHuffmanSymbols;
    if (!refused && !symbols.empty()) lengths = CodeLengths(counts);
  }

  // Bytes of everything before the code stream.
  size_t HeaderSize() const {
    size_t size = VarintLength(symbols.size());
    for (size_t i = 0; i < symbols.size(); i++) {
      size += i == 0 ? VarintLength(ZigZagEncode(static_cast<int64_t>(symbols[0])))
                     : VarintLength(Gap(i));
    }
    return size + (symbols.size() + 1) / 2;
  }
  uint64_t Gap(size_t i) const {
    return static_cast<uint64_t>(static_cast<U>(symbols[i]) - static_cast<U>(symbols[i - 1])) - 1;
  }
  uint64_t CodeBits() const {
    uint64_t total = 0;
    for (size_t i = 0; i < symbols.size(); i++) total += counts[i] * lengths[i];
    return total;
  }
};

template <typename T>
Status EncodeTyped(const ColumnVector& values, std::string* out) {
  using U = UnsignedOf<T>;
  const size_t n = values.size();
  const U* bits = BitsOf<T>(values);
  const Plan<U> plan(bits, n);
  if (plan.refused) return Status::InvalidArgument(kName, "too many distinct values");
  const size_t k = plan.symbols.size();
  PutVarint32(out, static_cast<uint32_t>(k));
  if (k == 0) return Status::OK();
  PutSignedVarint(out, static_cast<U>(plan.symbols[0]));
  for (size_t i = 1; i < k; i++) PutVarint64(out, plan.Gap(i));
  for (size_t i = 0; i < k; i += 2) {
    const int high = i + 1 < k ? plan.lengths[i + 1] : 0;
    out->push_back(static_cast<char>(plan.lengths[i] | high << 4));
  }
  const std::vector<uint32_t> codes = StreamCodes(plan.lengths);
  BitWriter writer(out);
  for (size_t i = 0; i < n; i++) {
    const auto symbol = static_cast<std::make_signed_t<U>>(bits[i]);
    const size_t index =
        std::lower_bound(plan.symbols.begin(), plan.symbols.end(), symbol) - plan.symbols.begin();
    writer.Write(codes[index], plan.lengths[index]);
  }
  writer.Finish();
  return Status::OK();
}

template <typename T>
Status DecodeTyped(const Slice& body, size_t count, ColumnVector* out) {
  using U = UnsignedOf<T>;
  using S = std::make_signed_t<U>;
  Slice in = body;
  uint32_t k;
  if (!GetVarint32(&in, &k)) return EncodingCorruption(kName, "truncated symbol count");
  if (count == 0) {
    if (k != 0 || !in.empty()) return EncodingCorruption(kName, "symbols or codes for no values");
    return Status::OK();
  }
  if (k == 0 || k > count || k > kMaxHuffmanSymbols) {
    return EncodingCorruption(kName, "symbol count out of range");
  }
  std::vector<U> symbols(k);
  if (!GetSignedVarint(&in, &symbols[0])) return EncodingCorruption(kName, "truncated values");
  for (size_t i = 1; i < k; i++) {
    uint64_t gap;
    if (!GetVarint64(&in, &gap)) return EncodingCorruption(kName, "truncated values");
    const auto next = static_cast<__int128>(static_cast<S>(symbols[i - 1])) + gap + 1;
    if (next > std::numeric_limits<S>::max()) {
      return EncodingCorruption(kName, "value beyond the type's range");
    }
    symbols[i] = static_cast<U>(static_cast<S>(next));
  }
  const size_t length_bytes = (k + 1) / 2;
  if (in.size() < length_bytes) return EncodingCorruption(kName, "truncated code lengths");
  std::vector<int> lengths(k);
  for (size_t i = 0; i < k; i++) {
    const auto byte = static_cast<uint8_t>(in[i / 2]);
    lengths[i] = i % 2 == 0 ? byte & 0x0f : byte >> 4;
    if (lengths[i] == 0) return EncodingCorruption(kName, "zero code length");
  }
  if (k % 2 == 1 && (static_cast<uint8_t>(in[k / 2]) >> 4) != 0) {
    return EncodingCorruption(kName, "pad nibble set");
  }
  in.remove_prefix(length_bytes);
  // Kraft's inequality, in units of 2^-kMaxHuffmanCodeLength.
  uint64_t kraft = 0;
  int counts[kMaxHuffmanCodeLength + 1] = {};
  for (int length : lengths) {
    kraft += uint64_t{1} << (kMaxHuffmanCodeLength - length);
    counts[length]++;
  }
  if (kraft > (uint64_t{1} << kMaxHuffmanCodeLength)) {
    return EncodingCorruption(kName, "code lengths over-subscribed");
  }
  // Every value costs at least one bit: refuse counts the body cannot hold before looping.
  if (count > in.size() * 8) return EncodingCorruption(kName, "body shorter than its values");
  // The values in canonical order: by length, then ascending.
  std::vector<U> canonical;
  canonical.reserve(k);
  int max_length = 0;
  for (int length = 1; length <= kMaxHuffmanCodeLength; length++) {
    for (size_t i = 0; i < k; i++) {
      if (lengths[i] == length) canonical.push_back(symbols[i]);
    }
    if (counts[length] > 0) max_length = length;
  }
  U* dst = AppendFixedSlots<T>(out, count);
  const auto* stream = reinterpret_cast<const uint8_t*>(in.data());
  const size_t total_bits = in.size() * 8;
  size_t pos = 0;
  for (size_t row = 0; row < count; row++) {
    // Canonical decoding: at each length, codes first..first+counts-1 are that length's values.
    uint32_t code = 0;
    uint32_t first = 0;
    uint32_t index = 0;
    bool found = false;
    for (int length = 1; length <= max_length; length++) {
      if (pos == total_bits) return EncodingCorruption(kName, "truncated codes");
      code |= (stream[pos >> 3] >> (pos & 7)) & 1u;
      pos++;
      const auto at_length = static_cast<uint32_t>(counts[length]);
      if (code - first < at_length) {
        dst[row] = canonical[index + code - first];
        found = true;
        break;
      }
      index += at_length;
      first = (first + at_length) << 1;
      code <<= 1;
    }
    if (!found) return EncodingCorruption(kName, "bit pattern of no value");
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

template <typename U>
size_t HuffmanSize(const U* bits, size_t n) {
  const Plan<U> plan(bits, n);
  if (plan.refused) return 0;
  if (plan.symbols.empty()) return 1;
  return plan.HeaderSize() + (plan.CodeBits() + 7) / 8;
}

template size_t HuffmanSize<uint32_t>(const uint32_t* bits, size_t n);
template size_t HuffmanSize<uint64_t>(const uint64_t* bits, size_t n);

const Codec& HuffmanCodec() {
  static const Codec codec{Encoding::kHuffman, kName, &IsIntegerType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
