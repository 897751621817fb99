// template: see template.h for the tokens, the template strings and the byte layout.
#include "table_format/encodings/template.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "table_format/encoding_memo.h"
#include "table_format/encodings/chooser.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/hex_digits.h"
#include "table_format/encodings/key_index.h"
#include "table_format/file_dictionary.h"
#include "table_format/template_stream_memos.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "template";
constexpr char kEscape = '\0';
constexpr char kDecimalSlot = 'd';
constexpr char kHexSlot = 'x';
constexpr char kPaddedDecimalSlot = 'z';
// A digit run of at least this many digits that is not a decimal parameter by itself (a
// leading zero, or letters in front of it: "u0312345", "INV2024001") still becomes one.
constexpr size_t kMinSuffixDigits = 4;
constexpr size_t kMaxDecimalDigits = 19;  // every such number is below 10^19 < 2^64
constexpr uint64_t kDecimalLimit = 10'000'000'000'000'000'000ull;
constexpr size_t kMinHexDigits = 8;
constexpr size_t kMaxHexSlotDigits = 16;

// Character classes by table: splitting looks at every byte of every value.
// kLowerHexClass: a digit or a lower-case hex letter.
enum CharClass : uint8_t { kDigitClass = 1, kAlnumClass = 2, kLowerHexClass = 4 };

constexpr std::array<uint8_t, 256> MakeCharClasses() {
  std::array<uint8_t, 256> classes{};
  for (int c = '0'; c <= '9'; c++) classes[c] = kDigitClass | kAlnumClass | kLowerHexClass;
  for (int c = 'a'; c <= 'z'; c++) {
    classes[c] = kAlnumClass | (c <= 'f' ? kLowerHexClass : 0);
  }
  for (int c = 'A'; c <= 'Z'; c++) classes[c] = kAlnumClass;
  return classes;
}
constexpr std::array<uint8_t, 256> kCharClasses = MakeCharClasses();

bool HasClass(char c, CharClass cls) { return (kCharClasses[static_cast<uint8_t>(c)] & cls) != 0; }
bool IsDigit(char c) { return HasClass(c, kDigitClass); }
bool IsAlnum(char c) { return HasClass(c, kAlnumClass); }

// Writes the literal bytes p[0, n) at `out` with every 0x00 escaped; returns the end.
char* PutLiteral(const char* p, size_t n, char* out) {
  const char* end = p + n;
  while (p < end) {
    const void* escape = std::memchr(p, kEscape, static_cast<size_t>(end - p));
    const char* stop = escape == nullptr ? end : static_cast<const char*>(escape) + 1;
    std::memcpy(out, p, static_cast<size_t>(stop - p));
    out += stop - p;
    if (escape != nullptr) *out++ = kEscape;
    p = stop;
  }
  return out;
}

// The most bytes the template of an n-byte value takes: every literal byte may be an escaped
// 0x00 (two bytes), and a slot replaces at least one digit by at most three bytes.
size_t MaxTemplateLength(size_t n) { return 2 * n + 2 * kMaxTemplateSlots; }

uint64_t ParseHex(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v = v << 4 | HexDigitValue(static_cast<uint8_t>(p[i]));
  return v;
}

// Splits one value: writes its template at `out` (room for MaxTemplateLength(value.size())
// bytes) and its parameters to params[0, *param_count); returns the template's length. Writes
// through a pointer rather than appending to a string: this runs on every byte of every
// string value a file dictionary weighs as templates.
size_t SplitOne(const Slice& value, char* out, uint64_t* params, size_t* param_count) {
  const char* p = value.data();
  const size_t n = value.size();
  char* o = out;
  size_t count = 0;
  size_t literal_start = 0;
  size_t i = 0;
  while (i < n) {
    if (!IsAlnum(p[i])) {
      i++;
      continue;
    }
    // The run's classes: those all its bytes have, and those any has (one table load a byte).
    size_t end = i;
    uint8_t all = 0xff;
    uint8_t any = 0;
    while (end < n) {
      const uint8_t cls = kCharClasses[static_cast<uint8_t>(p[end])];
      if ((cls & kAlnumClass) == 0) break;
      all &= cls;
      any |= cls;
      end++;
    }
    const bool digits_only = (all & kDigitClass) != 0;
    const bool lower_hex = (all & kLowerHexClass) != 0;
    const bool has_digit = (any & kDigitClass) != 0;
    const size_t length = end - i;
    const size_t room = kMaxTemplateSlots - count;
    const bool decimal =
        digits_only && length <= kMaxDecimalDigits && (length == 1 || p[i] != '0') && room >= 1;
    const size_t hex_slots = (length + kMaxHexSlotDigits - 1) / kMaxHexSlotDigits;
    const bool hex =
        !digits_only && lower_hex && has_digit && length >= kMinHexDigits && room >= hex_slots;
    // Otherwise the run's trailing digits, when there are enough of them: the letters before
    // them stay literal; a leading zero makes the slot fixed-width so that it is kept.
    size_t suffix = end;
    if (!decimal && !hex && has_digit) {
      while (suffix > i && IsDigit(p[suffix - 1])) suffix--;
    }
    const size_t suffix_length = end - suffix;
    const bool digit_suffix = !decimal && !hex && suffix_length >= kMinSuffixDigits &&
                              suffix_length <= kMaxDecimalDigits && room >= 1;
    if (decimal || hex || digit_suffix) {
      const size_t start = digit_suffix ? suffix : i;
      o = PutLiteral(p + literal_start, start - literal_start, o);
      if (decimal || digit_suffix) {
        uint64_t v = 0;
        for (size_t k = start; k < end; k++) v = v * 10 + static_cast<uint64_t>(p[k] - '0');
        *o++ = kEscape;
        if (p[start] == '0' && end - start > 1) {
          *o++ = kPaddedDecimalSlot;
          *o++ = static_cast<char>(end - start);
        } else {
          *o++ = kDecimalSlot;
        }
        params[count++] = v;
      } else {
        for (size_t at = i; at < end; at += kMaxHexSlotDigits) {
          const size_t digits = std::min(kMaxHexSlotDigits, end - at);
          *o++ = kEscape;
          *o++ = kHexSlot;
          *o++ = static_cast<char>(digits);
          params[count++] = ParseHex(p + at, digits);
        }
      }
      literal_start = end;
    }
    i = end;
  }
  o = PutLiteral(p + literal_start, n - literal_start, o);
  *param_count = count;
  return static_cast<size_t>(o - out);
}

// A value kept whole: its template is the value itself, escaped.
void AppendLiteral(const Slice& value, std::string* out) {
  const size_t start = out->size();
  out->resize(start + MaxTemplateLength(value.size()));
  char* end = PutLiteral(value.data(), value.size(), &(*out)[start]);
  out->resize(static_cast<size_t>(end - out->data()));
}

// One parameter slot of a template: how its value is written back.
struct TemplateSlot {
  char kind;       // kDecimalSlot, kHexSlot or kPaddedDecimalSlot
  uint8_t digits;  // hex and padded decimal: the exact digit count
};

// The distinct templates of one chunk, each parsed once: literal pieces around parameter slots.
// Every template's pieces and slots go into arrays shared by the chunk, so decoding a chunk
// allocates a few times, not a few times per template (compaction decodes every chunk).
class ParsedTemplates {
 public:
  struct Template {
    uint32_t first_slot = 0;  // slot_count slots from slots()[first_slot]
    uint32_t slot_count = 0;
    uint32_t first_piece = 0;   // with literals: slot_count + 1 piece sizes from here
    size_t literal_offset = 0;  // with literals: the pieces' bytes, one after another
    size_t literal_bytes = 0;   // over all pieces
    bool has_literals = false;
  };

  // Parses `text` into *out. `literals`: also keep its literal pieces (false: only check the
  // template and list its slots, for templates of rows nobody reads). Literal bytes are copied
  // a run at a time, up to the next escape.
  Status Parse(const Slice& text, bool literals, Template* out);

  const TemplateSlot* slots(const Template& t) const { return slots_.data() + t.first_slot; }
  const uint32_t* piece_sizes(const Template& t) const {
    return piece_sizes_.data() + t.first_piece;
  }
  const char* literals(const Template& t) const { return bytes_.data() + t.literal_offset; }

 private:
  std::vector<TemplateSlot> slots_;
  std::vector<uint32_t> piece_sizes_;
  std::string bytes_;
};

Status ParsedTemplates::Parse(const Slice& text, bool literals, Template* out) {
  *out = Template();
  out->first_slot = static_cast<uint32_t>(slots_.size());
  out->first_piece = static_cast<uint32_t>(piece_sizes_.size());
  out->literal_offset = bytes_.size();
  out->has_literals = literals;
  size_t piece_start = bytes_.size();
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const void* escape = std::memchr(p + i, kEscape, n - i);
    const size_t stop =
        escape == nullptr ? n : static_cast<size_t>(static_cast<const char*>(escape) - p);
    if (literals) bytes_.append(p + i, stop - i);
    out->literal_bytes += stop - i;
    if (stop == n) break;
    i = stop + 1;
    if (i == n) return EncodingCorruption(kName, "truncated escape in a template");
    if (p[i] == kEscape) {
      if (literals) bytes_.push_back(kEscape);
      out->literal_bytes++;
      i++;
      continue;
    }
    TemplateSlot slot{p[i], 0};
    if (slot.kind == kHexSlot || slot.kind == kPaddedDecimalSlot) {
      if (++i == n) return EncodingCorruption(kName, "truncated slot width in a template");
      slot.digits = static_cast<uint8_t>(p[i]);
      const size_t widest = slot.kind == kHexSlot ? kMaxHexSlotDigits : kMaxDecimalDigits;
      if (slot.digits < (slot.kind == kHexSlot ? 1 : 2) || slot.digits > widest) {
        return EncodingCorruption(kName, "bad slot width in a template");
      }
    } else if (slot.kind != kDecimalSlot) {
      return EncodingCorruption(kName, "unknown escape in a template");
    }
    if (out->slot_count == kMaxTemplateSlots) {
      return EncodingCorruption(kName, "too many slots in a template");
    }
    slots_.push_back(slot);
    out->slot_count++;
    if (literals) {
      piece_sizes_.push_back(static_cast<uint32_t>(bytes_.size() - piece_start));
      piece_start = bytes_.size();
    }
    i++;
  }
  if (literals) piece_sizes_.push_back(static_cast<uint32_t>(bytes_.size() - piece_start));
  return Status::OK();
}

// The decimal digits of v (at least one).
size_t DecimalDigits(uint64_t v) {
  size_t digits = 1;
  while (v >= 10) {
    v /= 10;
    digits++;
  }
  return digits;
}

// The length of parameter `v` as text in `slot`; 0 when it is out of the slot's range.
size_t ParameterLength(uint64_t v, const TemplateSlot& slot) {
  if (slot.kind == kHexSlot) {
    return slot.digits < kMaxHexSlotDigits && (v >> (4 * slot.digits)) != 0 ? 0 : slot.digits;
  }
  if (v >= kDecimalLimit) return 0;
  const size_t digits = DecimalDigits(v);
  if (slot.kind == kPaddedDecimalSlot) return digits > slot.digits ? 0 : slot.digits;
  return digits;
}

// Writes parameter `v` as text of exactly `length` bytes (its ParameterLength) at `out`.
void PutParameter(uint64_t v, const TemplateSlot& slot, size_t length, char* out) {
  if (slot.kind == kHexSlot) {
    static constexpr char kDigits[] = "0123456789abcdef";
    for (size_t k = length; k-- > 0;) {
      out[k] = kDigits[v & 15];
      v >>= 4;
    }
    return;
  }
  // Decimal digits from the last; a padded slot's leading positions get zeros.
  size_t k = length;
  do {
    out[--k] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (k > 0) out[--k] = '0';
}

// `memo`: the column's memo of this stream (template_stream_memos.h), or null for the chooser.
Status EncodeStream(const ColumnVector& stream, EncodingMemo* memo, std::string* out) {
  std::string body;
  Encoding encoding;
  Status s = memo != nullptr ? memo->Encode(stream, &body, &encoding)
                             : EncodeWithBestEncoding(Encoding::kAuto, stream, &body, &encoding);
  if (!s.ok()) return s;
  out->push_back(static_cast<char>(encoding));
  PutLengthPrefixed(out, body);
  return Status::OK();
}

// The stream count and every parameter stream, as in the byte layout.
Status PutStreams(const TemplateSplit& split, TemplateStreamMemos* memos, std::string* out) {
  PutVarint32(out, static_cast<uint32_t>(split.streams.size()));
  for (size_t k = 0; k < split.streams.size(); k++) {
    Status s = EncodeStream(split.streams[k], memos != nullptr ? memos->Stream(k) : nullptr, out);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

bool Supports(PhysicalType type) { return type == PhysicalType::kBytes; }

// The rows of a chunk by value, for SplitAll: a row equal to an earlier one takes that row's
// template and parameters instead of being split again (string columns repeat their values
// within a chunk: user agents, referrers, addresses; splitting looks at every byte). Open
// addressing over the values' hashes, the values compared on a hash match.
class EarlierRows {
 public:
  explicit EarlierRows(size_t n) {
    size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    rows_.assign(capacity, kEmpty);
    hashes_.resize(capacity);
  }
  // The first row holding values[row], or `row` itself when it is the first (then recorded);
  // `hash`: the value's HashBytes.
  uint32_t FindOrAdd(const ColumnVector& values, uint32_t row, uint64_t hash) {
    const Slice value = values.GetBytes(row);
    const size_t mask = rows_.size() - 1;
    for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      if (rows_[slot] == kEmpty) {
        rows_[slot] = row;
        hashes_[slot] = hash;
        return row;
      }
      if (hashes_[slot] == hash && values.GetBytes(rows_[slot]) == value) return rows_[slot];
    }
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  std::vector<uint32_t> rows_;
  std::vector<uint64_t> hashes_;
};

// The splits of values seen in earlier chunks, for SplitAll: user agents, referrers, addresses
// and the paths without ids recur from chunk to chunk of a column (and from flush to
// compaction), and splitting looks at every byte. One per thread, shared by every column the
// thread writes; a split is a function of the value alone, so what the cache holds changes
// only the work, never a template or a parameter.
//
// Direct-mapped by the value's hash, the values compared on a hash match. A miss replaces the
// slot's entry unless that entry was used since it was stored or last spared: then it is
// spared once (a value seen once, such as a path with an id, does not evict a recurring one
// unless the slot keeps missing). Values longer than kMaxValueBytes are not kept.
// kSlots: 8192 slots (about 1.7 MB per thread that splits, plus the values and templates kept)
// serve client addresses (50,000 in access16, Zipf-distributed) about as well as paths; 2048
// missed on most addresses (8192 spare 0.7% of access16's build instructions, 16384 0.2% more).
class SplitCache {
 public:
  static constexpr size_t kSlots = 8192;
  static constexpr size_t kMaxValueBytes = 256;

  // Copies the split of `value` (hash `hash`) into `tmpl` and `params` when held: the
  // template's length, *count its parameters; else SIZE_MAX.
  size_t Find(uint64_t hash, const Slice& value, char* tmpl, uint64_t* params, size_t* count) {
    Entry& e = slots_[Slot(hash)];
    if (!e.valid || e.hash != hash || Slice(e.value) != value) return SIZE_MAX;
    e.used = true;
    std::memcpy(tmpl, e.tmpl.data(), e.tmpl.size());
    std::copy_n(e.params, e.count, params);
    *count = e.count;
    return e.tmpl.size();
  }

  // Asks the CPU to fetch the slot a Find of `hash` reads (the cache is megabytes: a chunk's
  // lookups, asked for together, overlap their misses).
  void Prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[Slot(hash)]); }

  void Store(uint64_t hash, const Slice& value, const char* tmpl, size_t length,
             const uint64_t* params, size_t count) {
    if (value.size() > kMaxValueBytes) return;
    Entry& e = slots_[Slot(hash)];
    if (e.valid && e.used) {
      e.used = false;
      return;
    }
    e.valid = true;
    e.used = false;
    e.hash = hash;
    e.value.assign(value.data(), value.size());
    e.tmpl.assign(tmpl, length);
    e.count = static_cast<uint8_t>(count);
    std::copy_n(params, count, e.params);
  }

 private:
  struct Entry {
    bool valid = false;
    bool used = false;
    uint8_t count = 0;
    uint64_t hash = 0;
    std::string value;
    std::string tmpl;
    uint64_t params[kMaxTemplateSlots];
  };

  // EarlierRows takes the hash's low bits: the cache takes others.
  static size_t Slot(uint64_t hash) { return (hash >> 32) & (kSlots - 1); }

  std::vector<Entry> slots_ = std::vector<Entry>(kSlots);
};

SplitCache& ThreadSplitCache() {
  thread_local SplitCache cache;
  return cache;
}

// Whether some byte of `bytes` is a decimal digit or 0x00. Without digits no value has a
// parameter (every kind of parameter holds a digit), and without 0x00 every template is its
// value unchanged. Branch-free over blocks of 64 bytes (which the compiler vectorizes).
bool HasDigitOrEscape(const Slice& bytes) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    uint8_t found = 0;
    for (size_t k = 0; k < 64; k++) {
      found |= static_cast<uint8_t>(static_cast<uint8_t>(p[i + k] - '0') < 10) |
               static_cast<uint8_t>(p[i + k] == 0);
    }
    if (found != 0) return true;
  }
  for (; i < n; i++) {
    if (static_cast<uint8_t>(p[i] - '0') < 10 || p[i] == 0) return true;
  }
  return false;
}

// `row_parameters`: when not null, set to each row's parameter count.
void SplitAll(const ColumnVector& values, const std::vector<bool>* whole, TemplateSplit* split,
              std::vector<uint8_t>* row_parameters = nullptr) {
  const size_t n = values.size();
  if (!HasDigitOrEscape(values.bytes_data())) {
    // Text without digits (methods, countries, hosts, content types): every value is its own
    // template, kept whole or not, and there are no parameters.
    split->templates = values;
    split->streams.clear();
    split->parameters = 0;
    if (row_parameters != nullptr) row_parameters->assign(n, 0);
    return;
  }
  split->templates.Reset(PhysicalType::kBytes);
  split->templates.Reserve(n);
  split->streams.clear();
  split->parameters = 0;
  std::vector<uint8_t> counts(n);
  std::vector<size_t> first_params(n);  // a row split itself: where its parameters start
  std::vector<uint64_t> params;         // of the rows split themselves, in row order
  EarlierRows earlier(n);
  SplitCache& cache = ThreadSplitCache();
  std::vector<uint64_t> hashes(n);
  for (size_t i = 0; i < n; i++) {
    if (whole != nullptr && (*whole)[i]) continue;
    const Slice value = values.GetBytes(i);
    hashes[i] = HashBytes(value.data(), value.size());
    cache.Prefetch(hashes[i]);
  }
  std::vector<char> tmpl;
  uint64_t row_params[kMaxTemplateSlots];
  for (size_t i = 0; i < n; i++) {
    const Slice value = values.GetBytes(i);
    if (tmpl.size() < MaxTemplateLength(value.size())) tmpl.resize(MaxTemplateLength(value.size()));
    size_t count = 0;
    size_t length;
    if (whole != nullptr && (*whole)[i]) {
      length =
          static_cast<size_t>(PutLiteral(value.data(), value.size(), tmpl.data()) - tmpl.data());
    } else if (const uint32_t first =
                   earlier.FindOrAdd(values, static_cast<uint32_t>(i), hashes[i]);
               first != i) {
      // The earlier row's template, copied out first: appending may move the templates.
      const Slice earlier_template = split->templates.GetBytes(first);
      length = earlier_template.size();
      if (length > 0) std::memcpy(tmpl.data(), earlier_template.data(), length);
      count = counts[first];
      // data() + offset, not &params[offset]: a row without parameters may sit at the end.
      std::copy_n(params.data() + first_params[first], count, row_params);
    } else {
      length = cache.Find(hashes[i], value, tmpl.data(), row_params, &count);
      if (length == SIZE_MAX) {
        length = SplitOne(value, tmpl.data(), row_params, &count);
        cache.Store(hashes[i], value, tmpl.data(), length, row_params, count);
      }
      first_params[i] = params.size();
      params.insert(params.end(), row_params, row_params + count);
    }
    split->templates.AppendBytes(Slice(tmpl.data(), length));
    counts[i] = static_cast<uint8_t>(count);
    while (split->streams.size() < count) {
      split->streams.emplace_back(PhysicalType::kInt64);
      split->streams.back().Reserve(n - i);  // at most one parameter k per row left
    }
    for (size_t k = 0; k < count; k++) {
      split->streams[k].Append<int64_t>(static_cast<int64_t>(row_params[k]));
    }
    split->parameters += count;
  }
  if (row_parameters != nullptr) *row_parameters = std::move(counts);
}

// SplitAll(values, &whole, split) from the plain split of the same values (`plain`, whose row
// i has row_parameters[i] parameters): the rows not kept whole take their template and
// parameters from it instead of being split again (the file dictionary's mixed form splits
// every chunk twice, once with the recurring values kept whole).
void SplitKeepingWhole(const ColumnVector& values, const std::vector<bool>& whole,
                       const TemplateSplit& plain, const std::vector<uint8_t>& row_parameters,
                       TemplateSplit* split) {
  const size_t n = values.size();
  split->templates.Reset(PhysicalType::kBytes);
  split->templates.Reserve(n);
  split->streams.clear();
  split->parameters = 0;
  std::vector<size_t> next(plain.streams.size(), 0);  // row i's parameters in `plain`
  std::string tmpl;
  for (size_t i = 0; i < n; i++) {
    const size_t count = row_parameters[i];
    if (whole[i]) {
      tmpl.clear();
      AppendLiteral(values.GetBytes(i), &tmpl);
      split->templates.AppendBytes(tmpl);
    } else {
      split->templates.AppendBytes(plain.templates.GetBytes(i));
      while (split->streams.size() < count) split->streams.emplace_back(PhysicalType::kInt64);
      for (size_t k = 0; k < count; k++) {
        split->streams[k].Append<int64_t>(plain.streams[k].Get<int64_t>(next[k]));
      }
      split->parameters += count;
    }
    for (size_t k = 0; k < count; k++) next[k]++;
  }
}

Status EncodeSplit(const TemplateSplit& split, TemplateStreamMemos* memos, std::string* out) {
  if (split.parameters == 0) {
    return Status::InvalidArgument("template: the values have no parameters to split off");
  }
  // The templates get any local encoding but template itself (they hold no parameters),
  // through the column's memo of their encoding when there is one.
  std::string template_body;
  Encoding template_encoding;
  Status s;
  if (memos != nullptr) {
    s = memos->Templates()->Encode(split.templates, &template_body, &template_encoding);
  } else {
    s = ChooseAndEncode(WithoutEncoding(CandidateEncodings(Encoding::kAuto, PhysicalType::kBytes),
                                        Encoding::kTemplate),
                        split.templates, &template_body, &template_encoding);
  }
  if (!s.ok()) return s;
  return PutTemplateBody(template_encoding, template_body, split, out, memos);
}

// While a file is written, one chunk of a string column is split and encoded up to four
// times: by the chooser's exact template estimate, as the chosen body, and by the file
// dictionary's template trials (chunk.cc), whose parameter streams are the same as the local
// body's. Splitting and the streams' encoding are most of what template costs a compaction,
// so each thread keeps its last results with their inputs, compared whole (never by address),
// and a repeated call copies the result instead of redoing it. Pure functions of their
// inputs: the bytes written are the same with or without the memos (a body whose parameter
// streams went through a column's stream memos, template_stream_memos.h, is the body of the
// first call for those values).
struct SplitMemo {
  bool valid = false;
  uint64_t last_used = 0;  // SplitMemos::clock when last hit or filled
  ColumnVector values{PhysicalType::kBytes};
  std::vector<bool> whole;  // empty: no rows kept whole
  TemplateSplit split;
  std::vector<uint8_t> row_parameters;  // plain splits: each row's parameter count
  bool encoded = false;  // `body` holds Encode's result for `values` (no rows kept whole)
  Status status;
  std::string body;
};

// Splits without rows kept whole are remembered kSplitMemoEntries deep, least recently used
// replaced first: between the chunk's own splits (its local template body, then the file
// dictionary's trial) the chooser splits other columns (a trial's exceptions, the templates'
// exceptions), which with a single entry pushed the chunk's split out before its second use.
// Splits with rows kept whole are made once per chunk: one entry.
constexpr size_t kSplitMemoEntries = 4;

struct SplitMemos {
  SplitMemo plain[kSplitMemoEntries];
  SplitMemo with_whole;
  uint64_t clock = 0;
};

SplitMemos& ThreadSplitMemos() {
  thread_local SplitMemos memos;
  return memos;
}

struct StreamsMemo {
  bool valid = false;
  std::vector<ColumnVector> streams;
  Status status;
  std::string body;  // the stream count and every stream, as in the byte layout
};

bool SameStreams(const std::vector<ColumnVector>& a, const std::vector<ColumnVector>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); k++) {
    if (!a[k].Equals(b[k])) return false;
  }
  return true;
}

// The memo of `values` split with `whole`, split anew unless it already holds them.
SplitMemo& SplitThroughMemo(const ColumnVector& values, const std::vector<bool>* whole) {
  const bool with_whole =
      whole != nullptr && std::find(whole->begin(), whole->end(), true) != whole->end();
  SplitMemos& memos = ThreadSplitMemos();
  memos.clock++;
  SplitMemo* memo = &memos.with_whole;
  const SplitMemo* plain = nullptr;  // with_whole: the plain split of the same values
  if (with_whole) {
    if (memo->valid && memo->whole == *whole && memo->values.Equals(values)) return *memo;
    for (const SplitMemo& entry : memos.plain) {
      if (entry.valid && entry.row_parameters.size() == values.size() &&
          entry.values.Equals(values)) {
        plain = &entry;
        break;
      }
    }
  } else {
    SplitMemo* oldest = nullptr;
    for (SplitMemo& entry : memos.plain) {
      if (entry.valid && entry.values.Equals(values)) {
        entry.last_used = memos.clock;
        return entry;
      }
      if (oldest == nullptr || !entry.valid ||
          (oldest->valid && entry.last_used < oldest->last_used)) {
        oldest = &entry;
      }
    }
    memo = oldest;
  }
  memo->valid = false;
  memo->values = values;
  if (with_whole) {
    memo->whole = *whole;
  } else {
    memo->whole.clear();
  }
  if (plain != nullptr) {
    SplitKeepingWhole(values, *whole, plain->split, plain->row_parameters, &memo->split);
    memo->row_parameters.clear();
  } else {
    SplitAll(values, with_whole ? whole : nullptr, &memo->split,
             with_whole ? nullptr : &memo->row_parameters);
  }
  memo->encoded = false;
  memo->last_used = memos.clock;
  memo->valid = true;
  return *memo;
}

// Set while a memo's entry is being filled. The chooser may re-enter template (its estimate
// of the templates column splits them in turn): nested calls bypass the memo then, rather
// than replace the entry in use.
thread_local bool split_memo_in_use = false;
thread_local bool streams_memo_in_use = false;

class MemoInUse {
 public:
  explicit MemoInUse(bool* flag) : flag_(flag), before_(*flag) { *flag_ = true; }
  ~MemoInUse() { *flag_ = before_; }
  MemoInUse(const MemoInUse&) = delete;
  MemoInUse& operator=(const MemoInUse&) = delete;

 private:
  bool* flag_;
  bool before_;
};

// Chunks of large values are split without the memo: a thread would otherwise keep a copy of
// the last one for as long as it lives.
constexpr size_t kMaxMemoBytes = size_t{1} << 20;

bool BypassSplitMemo(const ColumnVector& values) {
  return split_memo_in_use || values.bytes_data().size() > kMaxMemoBytes;
}

Status Encode(const ColumnVector& values, std::string* out) {
  TemplateStreamMemos* stream_memos = TemplateStreamScope::For(values);
  if (BypassSplitMemo(values)) {
    TemplateSplit split;
    SplitAll(values, nullptr, &split);
    return EncodeSplit(split, stream_memos, out);
  }
  SplitMemo& memo = SplitThroughMemo(values, nullptr);
  if (!memo.encoded) {
    MemoInUse in_use(&split_memo_in_use);
    memo.body.clear();
    memo.status = EncodeSplit(memo.split, stream_memos, &memo.body);
    memo.encoded = true;
  }
  if (memo.status.ok()) out->append(memo.body);
  return memo.status;
}

Status Decode(PhysicalType, const Slice& body, size_t count, ColumnVector* out) {
  return DecodeTemplateBody(body, count, nullptr, out);
}

}  // namespace

void SplitTemplates(const ColumnVector& values, TemplateSplit* split,
                    const std::vector<bool>* whole) {
  if (BypassSplitMemo(values)) {
    SplitAll(values, whole, split);
    return;
  }
  *split = SplitThroughMemo(values, whole).split;
}

void SplitTemplate(const Slice& value, std::string* tmpl, std::vector<uint64_t>* params) {
  tmpl->resize(MaxTemplateLength(value.size()));
  uint64_t slots[kMaxTemplateSlots];
  size_t count = 0;
  tmpl->resize(SplitOne(value, &(*tmpl)[0], slots, &count));
  params->assign(slots, slots + count);
}

Status PutTemplateBody(Encoding template_encoding, const Slice& template_body,
                       const TemplateSplit& split, std::string* out, TemplateStreamMemos* memos) {
  thread_local StreamsMemo memo;
  StreamsMemo nested;
  StreamsMemo* used = streams_memo_in_use ? &nested : &memo;
  if (!used->valid || !SameStreams(used->streams, split.streams)) {
    MemoInUse in_use(&streams_memo_in_use);
    used->valid = false;
    if (used == &memo) used->streams = split.streams;
    used->body.clear();
    used->status = PutStreams(split, memos, &used->body);
    used->valid = true;
  }
  if (!used->status.ok()) return used->status;
  out->push_back(static_cast<char>(template_encoding));
  PutLengthPrefixed(out, template_body);
  out->append(used->body);
  return Status::OK();
}

Status DecodeTemplateBody(const Slice& body, size_t count, const ColumnVector* file_dictionary,
                          ColumnVector* out, const uint64_t* wanted) {
  Slice in = body;
  uint8_t template_encoding;
  Slice template_body;
  if (!GetFixed8(&in, &template_encoding) || !GetLengthPrefixed(&in, &template_body)) {
    return EncodingCorruption(kName, "truncated templates");
  }
  // File-dictionary-coded templates are told apart by their codes (a code names one entry),
  // without building the rows' template strings or hashing them; exceptions and locally
  // encoded templates by their text.
  const auto encoding = static_cast<Encoding>(template_encoding);
  const bool coded = encoding == Encoding::kFileDictionary;
  FileDictionaryCodes codes;
  ColumnVector templates(PhysicalType::kBytes);
  Status s;
  if (encoding == Encoding::kTemplate) {
    return EncodingCorruption(kName, "templates encoded as templates");
  } else if (coded) {
    if (file_dictionary == nullptr) {
      return EncodingCorruption(kName, "file_dictionary templates without the file's dictionary");
    }
    s = DecodeFileDictionaryCodes(template_body, count, *file_dictionary, &codes);
  } else {
    s = DecodeValues(encoding, PhysicalType::kBytes, template_body, count, &templates);
  }
  if (!s.ok()) return EncodingCorruption(kName, ("templates: " + s.ToString()).c_str());
  const int32_t* row_codes = coded ? codes.codes.data<int32_t>() : nullptr;
  const ColumnVector& texts_of_rows = coded ? codes.exceptions : templates;

  // Each distinct template is parsed once; rows refer to it by index. Templates only unread
  // rows use are checked and their slots counted, without building their literals.
  auto is_wanted = [wanted](size_t row) {
    return wanted == nullptr || ((wanted[row / 64] >> (row % 64)) & 1) != 0;
  };
  ParsedTemplates parsed_templates;
  std::vector<ParsedTemplates::Template> parsed;
  KeyIndex index(64);
  std::vector<Slice> texts;         // of each parsed template
  std::vector<int32_t> text_codes;  // of each parsed template: its code, 0 when found by text
  std::vector<uint32_t> row_template(count);
  std::vector<uint64_t> stream_counts;
  size_t next_text = 0;
  for (size_t i = 0; i < count; i++) {
    const int32_t code = row_codes != nullptr ? row_codes[i] : 0;
    uint32_t id;
    bool added = false;
    Slice text;
    if (code != 0 && i > 0 && code == row_codes[i - 1]) {
      id = row_template[i - 1];  // a run of one entry
    } else if (code != 0) {
      text = file_dictionary->GetBytes(static_cast<size_t>(code) - 1);
      id = index.FindOrAdd(
          static_cast<uint64_t>(code), [&](uint32_t id) { return text_codes[id] == code; }, &added);
    } else {
      text = texts_of_rows.GetBytes(next_text++);
      id = index.FindOrAdd(
          HashBytes(text.data(), text.size()),
          [&](uint32_t id) { return text_codes[id] == 0 && texts[id] == text; }, &added);
    }
    if (added) {
      texts.push_back(text);
      text_codes.push_back(code);
      parsed.emplace_back();
      s = parsed_templates.Parse(text, is_wanted(i), &parsed.back());
      if (!s.ok()) return s;
    } else if (!parsed[id].has_literals && is_wanted(i)) {
      s = parsed_templates.Parse(texts[id], /*literals=*/true, &parsed[id]);  // again, rarely
      if (!s.ok()) return s;
    }
    row_template[i] = id;
    const size_t slots = parsed[id].slot_count;
    if (stream_counts.size() < slots) stream_counts.resize(slots, 0);
    for (size_t k = 0; k < slots; k++) stream_counts[k]++;
  }

  uint32_t stream_count;
  if (!GetVarint32(&in, &stream_count) || stream_count != stream_counts.size()) {
    return EncodingCorruption(kName, "stream count differs from the templates'");
  }
  std::vector<ColumnVector> streams;
  streams.reserve(stream_count);
  for (uint32_t k = 0; k < stream_count; k++) {
    uint8_t stream_encoding;
    Slice stream_body;
    if (!GetFixed8(&in, &stream_encoding) || !GetLengthPrefixed(&in, &stream_body)) {
      return EncodingCorruption(kName, "truncated parameter stream");
    }
    streams.emplace_back(PhysicalType::kInt64);
    s = DecodeValues(static_cast<Encoding>(stream_encoding), PhysicalType::kInt64, stream_body,
                     stream_counts[k], &streams.back());
    if (!s.ok()) return EncodingCorruption(kName, ("parameter stream: " + s.ToString()).c_str());
  }
  if (!in.empty()) return EncodingCorruption(kName, "trailing bytes");

  // Two passes over the parameters: the values' lengths (checking every parameter against its
  // slot), then the values, written in place into the column.
  std::vector<uint32_t> lengths(count);
  std::vector<uint8_t> parameter_lengths;  // of the wanted rows' parameters, in order
  parameter_lengths.reserve(count);
  std::vector<size_t> next(stream_count, 0);
  uint64_t total = 0;
  const uint64_t room =
      kMaxDecodedBytes - std::min<uint64_t>(kMaxDecodedBytes, out->bytes_data().size());
  for (size_t i = 0; i < count; i++) {
    const ParsedTemplates::Template& t = parsed[row_template[i]];
    if (!is_wanted(i)) {
      for (size_t k = 0; k < t.slot_count; k++) next[k]++;
      continue;
    }
    size_t length = t.literal_bytes;
    const TemplateSlot* slots = parsed_templates.slots(t);
    for (size_t k = 0; k < t.slot_count; k++) {
      const auto v = static_cast<uint64_t>(streams[k].Get<int64_t>(next[k]++));
      const size_t parameter_length = ParameterLength(v, slots[k]);
      if (parameter_length == 0) {
        return EncodingCorruption(kName, "parameter out of its slot's range");
      }
      parameter_lengths.push_back(static_cast<uint8_t>(parameter_length));
      length += parameter_length;
    }
    total += length;
    if (total > room) return EncodingCorruption(kName, "strings too large");
    lengths[i] = static_cast<uint32_t>(length);
  }
  std::fill(next.begin(), next.end(), 0);
  const uint8_t* parameter_length = parameter_lengths.data();
  ByteStringWriter writer = out->AppendBytesWriter(count, total);
  ByteStringCursor cursor = writer.cursor();
  for (size_t i = 0; i < count; i++) {
    const ParsedTemplates::Template& t = parsed[row_template[i]];
    if (!is_wanted(i)) {
      for (size_t k = 0; k < t.slot_count; k++) next[k]++;
      cursor.Next(0);
      continue;
    }
    char* o = cursor.Next(lengths[i]);
    const TemplateSlot* slots = parsed_templates.slots(t);
    const uint32_t* piece_sizes = parsed_templates.piece_sizes(t);
    const char* literal = parsed_templates.literals(t);
    std::memcpy(o, literal, piece_sizes[0]);
    o += piece_sizes[0];
    literal += piece_sizes[0];
    for (size_t k = 0; k < t.slot_count; k++) {
      const auto v = static_cast<uint64_t>(streams[k].Get<int64_t>(next[k]++));
      PutParameter(v, slots[k], *parameter_length, o);
      o += *parameter_length++;
      std::memcpy(o, literal, piece_sizes[k + 1]);
      o += piece_sizes[k + 1];
      literal += piece_sizes[k + 1];
    }
  }
  return Status::OK();
}

const Codec& TemplateCodec() {
  static const Codec codec{Encoding::kTemplate, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
