#include "table_format/chunk.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "table_format/checksum.h"
#include "table_format/encoding_memo.h"
#include "table_format/encodings/dictionary.h"
#include "table_format/encodings/file_huffman.h"
#include "table_format/encodings/rice_delta.h"
#include "table_format/encodings/template.h"
#include "table_format/file_dictionary.h"
#include "table_format/local_body_forecast.h"
#include "table_format/value_runs.h"
#include "table_format/varint.h"
#include "table_format/zstd_codec.h"

namespace columnar {

namespace {

constexpr uint8_t kFlagNulls = 1u << 0;
constexpr uint8_t kFlagZstd = 1u << 1;
constexpr uint8_t kFlagChecksum = 1u << 2;
constexpr uint8_t kKnownChunkFlags = kFlagNulls | kFlagZstd | kFlagChecksum;

// The first byte of a compact header (chunk.h).
constexpr uint8_t kCompactMarker = 1u << 7;
constexpr uint8_t kCompactNulls = 1u << 6;
constexpr uint8_t kCompactZstd = 1u << 5;
constexpr uint8_t kCompactEncodingMask = 0x1f;

// The non-null values of `values`, in order.
ColumnVector DenseValues(const ColumnVector& values) {
  ColumnVector dense(values.type());
  dense.Reserve(values.size() - values.null_count());
  for (size_t i = 0; i < values.size(); i++) {
    if (!values.IsNull(i)) dense.AppendFrom(values, i);
  }
  return dense;
}

void AppendPresenceBitmap(const ColumnVector& values, std::string* out) {
  const size_t bytes = (values.size() + 7) / 8;
  const size_t start = out->size();
  out->resize(start + bytes, 0);
  for (size_t i = 0; i < values.size(); i++) {
    if (!values.IsNull(i)) (*out)[start + i / 8] |= static_cast<char>(1u << (i % 8));
  }
}

// Spreads `dense` (the present values) over the rows marked present in `bitmap`.
Status ScatterPresent(const ColumnVector& dense, const uint8_t* bitmap, uint32_t rows,
                      ColumnVector* out) {
  out->Reset(dense.type());
  out->Reserve(rows);
  size_t next = 0;
  for (uint32_t i = 0; i < rows; i++) {
    if ((bitmap[i / 8] >> (i % 8)) & 1) {
      out->AppendFrom(dense, next++);
    } else {
      out->AppendNull();
    }
  }
  if (next != dense.size())
    return Status::Corruption("chunk: presence bitmap disagrees with values");
  return Status::OK();
}

// `wanted` (a bit per row) restated per present value: bit k = the k-th present row is wanted.
void WantedPresentValues(const uint64_t* wanted, const uint8_t* presence, uint32_t rows,
                         uint32_t present, std::vector<uint64_t>* out) {
  out->assign((present + 63) / 64, 0);
  uint32_t k = 0;
  for (uint32_t i = 0; i < rows; i++) {
    if (((presence[i / 8] >> (i % 8)) & 1) == 0) continue;
    if ((wanted[i / 64] >> (i % 64)) & 1) (*out)[k / 64] |= uint64_t{1} << (k % 64);
    k++;
  }
}

// The chunk as templates whose templates are codes into the file's dictionary, worked out
// without changing the dictionary.
struct TemplateTrial {
  TemplateSplit split;
  FileDictionaryTrial templates;
  std::string body;
  bool usable = false;
  size_t cost() const { return body.size() + (templates.cost() - templates.body.size()); }
};

// The body (with the parameter streams, the costly part) is built only when the templates'
// codes alone leave it a chance to cost less than `best`: a template body holds the codes'
// body plus at least a byte of encoding, one of its length and one of the stream count.
constexpr size_t kMinTemplateBodyOverhead = 3;

// A chunk is worked out per run (ValueRuns) when its runs average at least this many rows.
constexpr size_t kMinRowsPerRun = 2;

// A thread's T, kept from chunk to chunk so that its buffers are allocated once rather than for
// every chunk; should leases ever nest, the inner one gets a T of its own. T::Begin() prepares
// it for a chunk, T::End() runs when the chunk is done with it.
template <typename T>
class ThreadLease {
 public:
  ThreadLease() {
    thread_local Slot slot;
    if (slot.in_use) {
      own_ = std::make_unique<T>();
      value_ = own_.get();
    } else {
      slot_ = &slot;
      slot_->in_use = true;
      value_ = &slot_->value;
    }
    value_->Begin();
  }
  ~ThreadLease() {
    value_->End();
    if (slot_ != nullptr) slot_->in_use = false;
  }
  ThreadLease(const ThreadLease&) = delete;
  ThreadLease& operator=(const ThreadLease&) = delete;

  T& operator*() const { return *value_; }

 private:
  struct Slot {
    T value;
    bool in_use = false;
  };
  std::unique_ptr<T> own_;
  Slot* slot_ = nullptr;
  T* value_;
};

// The body of the chunk being written (WriteChunk), where a new string per chunk was grown from
// empty every chunk (with the row-group writer kept by the typed layout's splitter: the flushes
// of a 69,120-row access16 load, 985.0M -> 971.7M instructions). A buffer grown past
// kMaxKeptBytes by a large chunk is released rather than kept by the thread.
struct ChunkBody {
  static constexpr size_t kMaxKeptBytes = size_t{1} << 20;
  std::string bytes;

  void Begin() { bytes.clear(); }
  void End() {
    if (bytes.capacity() > kMaxKeptBytes) std::string().swap(bytes);
  }
};

// The trials of one chunk (EncodeWithFileDictionary): codes, hashes, bodies, splits. Begin()
// resets what a chunk reads before writing it (the splits are always made before they are
// read).
struct ChunkTrials {
  FileDictionaryTrial whole;
  TemplateTrial split;
  TemplateTrial mixed;
  TemplateSplit heads_split;
  TemplateSplit heads_mixed;
  std::vector<bool> recurring;

  void Begin() {
    for (TemplateTrial* trial : {&split, &mixed}) {
      trial->usable = false;
      trial->body.clear();
    }
  }
  void End() {}
};

void TryTemplates(FileDictionaryWriter* dictionary, FileDictionaryForm form, size_t best,
                  TemplateTrial* trial) {
  trial->usable = trial->split.parameters > 0 &&
                  dictionary->Trial(trial->split.templates, &trial->templates, form) &&
                  trial->templates.cost() + kMinTemplateBodyOverhead < best &&
                  PutTemplateBody(Encoding::kFileDictionary, trial->templates.body, trial->split,
                                  &trial->body, dictionary->template_streams(form))
                      .ok();
}

// A template form's trial, or only its templates' hashes when FileDictionaryForms skips it.
// True when the trial ran. `heads` is the form's split of the chunk's representatives: one value
// per run when the runs are few (runs.few()), else every row (then `heads` is trial->split).
// The whole chunk is split only for a trial that runs: a skipped form only remembers its
// templates' hashes, and a run's rows share their value, so their template (remembering a hash
// again changes nothing). `whole_heads`: the form's rows kept whole, per representative.
bool TryTemplatesUnlessSkipped(FileDictionaryWriter* dictionary, FileDictionaryForm form,
                               size_t best, const ColumnVector& values, const ValueRuns& runs,
                               const TemplateSplit& heads, const std::vector<bool>* whole_heads,
                               TemplateTrial* trial) {
  if (!dictionary->forms().ShouldTry(form)) {
    trial->usable = false;
    dictionary->HashValues(heads.templates, &trial->templates);
    return false;
  }
  if (runs.few()) {
    if (whole_heads != nullptr) {
      const std::vector<bool> whole_rows = runs.SpreadOverRows(*whole_heads);
      SplitTemplates(values, &trial->split, &whole_rows);
    } else {
      SplitTemplates(values, &trial->split);
    }
  }
  TryTemplates(dictionary, form, best, trial);
  return true;
}

// What a template trial that ran is recorded with (FileDictionaryForms::Record): its body, or
// when it stopped before building one, the least its body could have been.
size_t TemplateBodySize(const TemplateTrial& trial) {
  if (trial.usable) return trial.body.size();
  if (trial.templates.usable) return trial.templates.body.size() + kMinTemplateBodyOverhead;
  return FileDictionaryForms::kUnusable;
}

// The file's dictionary weighed against a local body of `local_size` bytes, in three forms:
// the whole values as codes (file_dictionary); for strings with parameters, their templates
// as codes plus the parameters (template with file_dictionary templates); and the same with
// the values that recur whole in the file (a fingerprinted asset path among paths with ids)
// kept whole, as templates without parameters: their parameters recur just as they do, and
// would cost their bits on every row. The smallest form is written to *body when it beats
// the local body: true, with *encoding set (on entry, the local body's encoding) and *cost
// the written form's cost.
// Every form's values are remembered as seen, so any can admit them in a later chunk; forms
// that keep losing are not tried (file_dictionary_forms.h), but their values are remembered,
// except the plain templates of a chunk that skips the plain form (it is not split for it).
// How many of the whole values recurred goes to the column's RecurrenceForecast, which leaves
// the dictionary out of the chunks of columns whose values do not recur.
bool EncodeWithFileDictionary(const ColumnVector& values, size_t local_size,
                              FileDictionaryWriter* dictionary, std::string* body,
                              Encoding* encoding, size_t* cost) {
  dictionary->RefreshTable();
  FileDictionaryForms& forms = dictionary->forms();
  const ThreadLease<ChunkTrials> lease;
  ChunkTrials& trials = *lease;
  FileDictionaryTrial& whole = trials.whole;
  size_t best = local_size;
  const bool whole_tried = forms.ShouldTry(FileDictionaryForm::kWhole);
  if (!whole_tried) {
    dictionary->HashValues(values, &whole);
  } else if (dictionary->Trial(values, &whole)) {
    best = std::min(best, whole.cost());
  }
  const size_t best_without_templates = best;
  // Hex strings (ids) would only be split into hex parameters as large as hex's own bytes.
  TemplateTrial& split = trials.split;
  TemplateTrial& mixed = trials.mixed;
  bool split_tried = false;
  bool mixed_tried = false;
  bool split_has_parameters = false;
  bool mixed_has_parameters = false;
  if (*encoding != Encoding::kHex) {
    // Values that depend only on a row's value are worked out once per run when the runs are
    // few (tag columns: one value per host), else per row (TryTemplatesUnlessSkipped).
    const ValueRuns runs(values, values.size() / kMinRowsPerRun);
    const ColumnVector& representatives = runs.few() ? runs.heads() : values;
    // While the plain form is skipped the chunk is not split for it: the split would serve
    // only to remember its templates (file_dictionary_forms.h).
    const bool plain_skipped = forms.Skipping(FileDictionaryForm::kTemplates);
    if (plain_skipped) {
      forms.ShouldTry(FileDictionaryForm::kTemplates);  // counts the skipped chunk down
    } else {
      TemplateSplit* const plain = runs.few() ? &trials.heads_split : &split.split;
      SplitTemplates(representatives, plain);
      split_has_parameters = plain->parameters > 0;
      if (split_has_parameters) {
        split_tried = TryTemplatesUnlessSkipped(dictionary, FileDictionaryForm::kTemplates, best,
                                                values, runs, *plain, nullptr, &split);
      }
    }
    if (split.usable) best = std::min(best, split.cost());
    // The mixed form has parameters only where some value does not recur and has them in the
    // plain split: without one (no parameters, or every value recurs) it is not weighed.
    std::vector<bool>& recurring = trials.recurring;
    recurring.assign(representatives.size(), false);
    size_t recurring_count = 0;
    for (size_t k = 0; k < representatives.size() && (split_has_parameters || plain_skipped); k++) {
      const size_t row = runs.few() ? runs.starts()[k] : k;
      recurring[k] = whole.recurs.empty()
                         ? dictionary->Recurs(representatives.GetBytes(k), whole.hashes[row])
                         : whole.recurs[row] != 0;
      recurring_count += recurring[k] ? 1 : 0;
    }
    if (recurring_count > 0 && recurring_count < representatives.size()) {
      TemplateSplit* const kept = runs.few() ? &trials.heads_mixed : &mixed.split;
      SplitTemplates(representatives, kept, &recurring);
      mixed_has_parameters = kept->parameters > 0;
      if (mixed_has_parameters) {
        mixed_tried = TryTemplatesUnlessSkipped(dictionary, FileDictionaryForm::kMixed, best,
                                                values, runs, *kept, &recurring, &mixed);
      }
    }
  }
  TemplateTrial* chosen = nullptr;
  size_t chosen_cost = best_without_templates;
  for (TemplateTrial* trial : {&split, &mixed}) {
    if (trial->usable && trial->cost() < chosen_cost) {
      chosen = trial;
      chosen_cost = trial->cost();
    }
  }
  bool written = false;
  size_t written_cost = local_size;
  if (chosen != nullptr) {
    dictionary->Commit(&chosen->templates);
    body->append(chosen->body);
    *encoding = Encoding::kTemplate;
    written = true;
    written_cost = chosen_cost;
    // The whole values' codes would have made a smaller body, and lost only by the charge for
    // admitting them. Were they never admitted, every later chunk would be charged again and
    // the templates would win for the rest of the file (user agents: 5.9 bytes a row instead
    // of 1.2). Admitted now, the next chunks weigh both forms on their bodies. The trial is
    // redone after the templates' commit so that no entry is admitted twice.
    if (whole.usable && whole.body.size() < chosen->body.size()) {
      FileDictionaryTrial admit;
      if (dictionary->Trial(values, &admit)) dictionary->Commit(&admit, /*body_written=*/false);
    }
  } else if (whole.usable && whole.cost() == best_without_templates &&
             best_without_templates < local_size) {
    dictionary->Commit(&whole);
    body->append(whole.body);
    *encoding = Encoding::kFileDictionary;
    written = true;
    written_cost = whole.cost();
  }
  const bool local_written = !written;
  *cost = written_cost;
  if (whole_tried) {
    forms.Record(FileDictionaryForm::kWhole,
                 whole.usable ? whole.body.size() : FileDictionaryForms::kUnusable, written_cost,
                 written && chosen == nullptr, local_written);
  }
  if (split_tried) {
    forms.Record(FileDictionaryForm::kTemplates, TemplateBodySize(split), written_cost,
                 chosen == &split, local_written);
  }
  if (mixed_tried) {
    forms.Record(FileDictionaryForm::kMixed, TemplateBodySize(mixed), written_cost,
                 chosen == &mixed, local_written);
  }
  dictionary->recurrence().Record(written, dictionary->Remember(whole));
  if (split_has_parameters) dictionary->Remember(split.templates);
  if (mixed_has_parameters) dictionary->Remember(mixed.templates);
  return written;
}

// ChunkWriteOptions::constant_or_plain: constant when every value is the same, else plain (the
// constant encoder refuses values that are not all equal before writing anything).
Status EncodeConstantOrPlain(const ColumnVector& values, std::string* out, Encoding* chosen) {
  *chosen = Encoding::kConstant;
  if (EncodeValues(Encoding::kConstant, values, out).ok()) return Status::OK();
  *chosen = Encoding::kPlain;
  return EncodeValues(Encoding::kPlain, values, out);
}

// A chunk's own body (no file dictionary), appended to *out: the requested encoding (or the
// best of a request's candidates); for auto, constant or plain when asked
// (ChunkWriteOptions::constant_or_plain), else the column's remembered choice, else the
// chooser's.
Status EncodeLocalBody(const ColumnVector& present, const ChunkWriteOptions& options,
                       std::string* out, Encoding* chosen) {
  const bool without_template = options.searched || options.short_lived;
  if (options.encoding != Encoding::kAuto) {
    return EncodeWithBestEncoding(options.encoding, present, out, chosen, without_template);
  }
  if (options.constant_or_plain) {
    return EncodeConstantOrPlain(present, out, chosen);
  }
  if (options.memo != nullptr) {
    return options.memo->Encode(present, out, chosen, without_template, options.short_lived);
  }
  return EncodeWithBestEncoding(Encoding::kAuto, present, out, chosen, without_template);
}

}  // namespace

const char* ColumnCompressionName(ColumnCompression compression) {
  return compression == ColumnCompression::kZstd ? "zstd" : "none";
}

bool ParseColumnCompressionName(const std::string& name, ColumnCompression* compression) {
  if (name == "none") {
    *compression = ColumnCompression::kNone;
  } else if (name == "zstd") {
    *compression = ColumnCompression::kZstd;
  } else {
    return false;
  }
  return true;
}

Status WriteChunk(const ColumnVector& values, const ChunkWriteOptions& options, std::string* out,
                  Encoding* chosen) {
  if (values.size() > kMaxChunkValues) return Status::InvalidArgument("chunk: too many values");
  const ThreadLease<ChunkBody> body;
  std::string& raw = (*body).bytes;
  const bool has_nulls = values.has_nulls();
  if (has_nulls) AppendPresenceBitmap(values, &raw);
  const size_t bitmap_size = raw.size();
  Encoding encoding;
  std::optional<ColumnVector> dense;
  if (has_nulls) dense.emplace(DenseValues(values));
  const ColumnVector& present = has_nulls ? *dense : values;
  FileDictionaryWriter* const strings_dictionary = options.file_dictionary != nullptr &&
                                                           present.type() == PhysicalType::kBytes &&
                                                           !present.empty()
                                                       ? options.file_dictionary
                                                       : nullptr;
  // A string column whose local body keeps losing to the file's dictionary weighs the
  // dictionary against the size its local body had, without building it (local_body_forecast.h).
  bool dictionary_tried = false;
  bool dictionary_written = false;
  size_t written_cost = 0;
  if (strings_dictionary != nullptr && strings_dictionary->local_body().ShouldSkip()) {
    LocalBodyForecast& forecast = strings_dictionary->local_body();
    const size_t estimate = forecast.EstimatedSize(present.size());
    encoding = forecast.encoding();
    dictionary_tried = true;
    dictionary_written = EncodeWithFileDictionary(present, estimate, strings_dictionary, &raw,
                                                  &encoding, &written_cost);
    if (dictionary_written) forecast.Record(false, present.size(), estimate, encoding, true, 0);
  }
  if (!dictionary_written) {
    const Status s = EncodeLocalBody(present, options, &raw, &encoding);
    if (!s.ok()) return s;
    if (strings_dictionary != nullptr) {
      const size_t local_size = raw.size() - bitmap_size;
      const Encoding local_encoding = encoding;
      // A chunk whose dictionary trial already lost to the estimate writes its local body; so
      // does one of a column whose values keep not recurring, remembering a sample of them
      // (recurrence_forecast.h).
      RecurrenceForecast& recurrence = strings_dictionary->recurrence();
      if (!dictionary_tried && recurrence.ShouldSkip()) {
        recurrence.RecordSkipped(strings_dictionary->RememberSample(present));
      } else if (!dictionary_tried) {
        std::string shared;
        dictionary_written = EncodeWithFileDictionary(present, local_size, strings_dictionary,
                                                      &shared, &encoding, &written_cost);
        if (dictionary_written) {
          raw.resize(bitmap_size);
          raw.append(shared);
        }
      }
      strings_dictionary->local_body().Record(true, present.size(), local_size, local_encoding,
                                              dictionary_written, written_cost);
    }
  }
  if (options.file_dictionary != nullptr &&
      (present.type() == PhysicalType::kInt32 || present.type() == PhysicalType::kInt64) &&
      !present.empty()) {
    // Low-cardinality integers: the file's Huffman table instead of a table in every chunk.
    options.file_dictionary->RefreshTable();
    std::string shared;
    if (options.file_dictionary->EncodeWithTable(present, raw.size() - bitmap_size, &shared)) {
      raw.resize(bitmap_size);
      raw.append(shared);
      encoding = Encoding::kFileHuffman;
    }
    options.file_dictionary->CountIntegers(present);
  }
  if (options.has_anchor && encoding == Encoding::kRiceDelta) {
    // The anchor's position (a byte for a row group's values) instead of the first value.
    std::string anchored;
    if (RiceDeltaToAnchored(present, Slice(raw.data() + bitmap_size, raw.size() - bitmap_size),
                            options.anchor, &anchored) &&
        anchored.size() < raw.size() - bitmap_size) {
      raw.resize(bitmap_size);
      raw.append(anchored);
      encoding = Encoding::kRiceDeltaAnchored;
    }
  }
  if (raw.size() > kMaxChunkRawBytes) return Status::InvalidArgument("chunk: body too large");

  uint8_t flags = has_nulls ? kFlagNulls : 0;
  std::string compressed;
  if (options.compression == ColumnCompression::kZstd && raw.size() > 16) {
    const Status s = ZstdCompress(raw, options.zstd_level, nullptr, &compressed);
    if (!s.ok()) return s;
    if (compressed.size() + static_cast<size_t>(VarintLength(raw.size())) < raw.size()) {
      flags |= kFlagZstd;
    }
  }
  const std::string& stored = (flags & kFlagZstd) ? compressed : raw;
  if (options.checksum) flags |= kFlagChecksum;

  const bool compact = options.implied_value_count && !options.checksum &&
                       static_cast<uint8_t>(encoding) <= kCompactEncodingMask;
  if (compact) {
    uint8_t first = kCompactMarker | static_cast<uint8_t>(encoding);
    if (flags & kFlagNulls) first |= kCompactNulls;
    if (flags & kFlagZstd) first |= kCompactZstd;
    out->push_back(static_cast<char>(first));
  } else {
    out->push_back(static_cast<char>(encoding));
    out->push_back(static_cast<char>(flags));
    PutVarint32(out, static_cast<uint32_t>(values.size()));
  }
  PutVarint32(out, static_cast<uint32_t>(stored.size()));
  if (flags & kFlagZstd) PutVarint32(out, static_cast<uint32_t>(raw.size()));
  if (flags & kFlagChecksum) PutFixed32(out, ComputeChecksum(stored));
  out->append(stored);
  if (chosen != nullptr) *chosen = encoding;
  return Status::OK();
}

Status ParseChunkHeader(const Slice& input, ChunkHeader* header, uint32_t implied_values) {
  Slice in = input;
  uint8_t first;
  if (!GetFixed8(&in, &first)) return Status::Corruption("chunk: truncated header");
  if (first & kCompactMarker) {
    if (implied_values == 0) {
      return Status::Corruption("chunk: compact header where the value count is not known");
    }
    header->encoding = static_cast<Encoding>(first & kCompactEncodingMask);
    header->has_nulls = (first & kCompactNulls) != 0;
    header->compressed = (first & kCompactZstd) != 0;
    header->has_checksum = false;
    header->value_count = implied_values;
  } else {
    uint8_t flags;
    if (!GetFixed8(&in, &flags)) return Status::Corruption("chunk: truncated header");
    if ((flags & ~kKnownChunkFlags) != 0) return Status::Corruption("chunk: unknown flags");
    header->encoding = static_cast<Encoding>(first);
    header->has_nulls = (flags & kFlagNulls) != 0;
    header->compressed = (flags & kFlagZstd) != 0;
    header->has_checksum = (flags & kFlagChecksum) != 0;
    if (!GetVarint32(&in, &header->value_count)) {
      return Status::Corruption("chunk: truncated header");
    }
    if (implied_values != 0 && header->value_count != implied_values) {
      return Status::Corruption("chunk: value count differs from the row group's");
    }
  }
  if (!GetVarint32(&in, &header->stored_length)) {
    return Status::Corruption("chunk: truncated header");
  }
  header->raw_length = header->stored_length;
  if (header->compressed && !GetVarint32(&in, &header->raw_length)) {
    return Status::Corruption("chunk: truncated header");
  }
  if (header->has_checksum && !GetFixed32(&in, &header->checksum)) {
    return Status::Corruption("chunk: truncated header");
  }
  if (header->value_count > kMaxChunkValues || header->raw_length > kMaxChunkRawBytes) {
    return Status::Corruption("chunk: implausible size in header");
  }
  header->header_size = input.size() - in.size();
  if (in.size() < header->stored_length) return Status::Corruption("chunk: truncated body");
  return Status::OK();
}

Status SkipChunk(Slice* input, ChunkHeader* header, uint32_t implied_values) {
  ChunkHeader local;
  ChunkHeader* h = header != nullptr ? header : &local;
  Status s = ParseChunkHeader(*input, h, implied_values);
  if (s.ok()) input->remove_prefix(h->total_size());
  return s;
}

namespace {

// The chunk's raw body (decompressed when needed; `buffer` owns it then), after the header
// checks shared by every reader.
Status OpenChunkBody(const Slice& input, PhysicalType type, const ChunkReadOptions& options,
                     ChunkHeader* header, std::unique_ptr<char[]>* buffer, Slice* raw) {
  // A full header's count is checked against expected_values by the parse.
  Status s = ParseChunkHeader(input, header, options.expected_values);
  if (!s.ok()) return s;
  if (!EncodingSupports(header->encoding, type)) {
    return Status::Corruption(std::string("chunk: encoding ") + EncodingName(header->encoding) +
                              " cannot hold " + PhysicalTypeName(type) + " values");
  }
  const Slice stored(input.data() + header->header_size, header->stored_length);
  if (header->has_checksum && options.verify_checksum) {
    s = VerifyChecksum(stored, header->checksum, "chunk");
    if (!s.ok()) return s;
  }
  *raw = stored;
  if (!header->compressed) return Status::OK();
  // The frame header repeats the raw length; a disagreement means damage, and is caught
  // before allocating.
  if (ZstdFrameContentSize(stored) != header->raw_length ||
      header->raw_length > ZstdMaxDecompressedSize(stored)) {
    return Status::Corruption("chunk: compressed body disagrees with its raw length");
  }
  buffer->reset(new char[header->raw_length]);
  s = ZstdDecompress(stored, nullptr, buffer->get(), header->raw_length);
  if (s.ok()) *raw = Slice(buffer->get(), header->raw_length);
  return s;
}

// Splits the presence bitmap off the front of *raw; *present = rows with a value.
Status TakePresence(const ChunkHeader& header, Slice* raw, Slice* bitmap, uint32_t* present) {
  *present = header.value_count;
  if (!header.has_nulls) return Status::OK();
  const size_t bitmap_bytes = (header.value_count + 7) / 8;
  if (raw->size() < bitmap_bytes) return Status::Corruption("chunk: truncated presence bitmap");
  *bitmap = Slice(raw->data(), bitmap_bytes);
  const auto* bits = reinterpret_cast<const uint8_t*>(raw->data());
  *present = 0;
  for (uint32_t i = 0; i < header.value_count; i++) *present += (bits[i / 8] >> (i % 8)) & 1;
  raw->remove_prefix(bitmap_bytes);
  return Status::OK();
}

// Decodes a body whose decoder can build only the wanted rows (templates, file-dictionary
// codes): `decode(wanted among the present values, dense)`, then spreads the values over the
// chunk's nulls.
template <typename DecodeBody>
Status DecodeWantedThenScatter(const ChunkHeader& header, PhysicalType type, const Slice& bitmap,
                               uint32_t present, const uint64_t* wanted_rows, ColumnVector* out,
                               const DecodeBody& decode) {
  const auto* presence = reinterpret_cast<const uint8_t*>(bitmap.data());
  std::vector<uint64_t> wanted_present;
  const uint64_t* wanted = wanted_rows;
  if (wanted != nullptr && header.has_nulls) {
    WantedPresentValues(wanted, presence, header.value_count, present, &wanted_present);
    wanted = wanted_present.data();
  }
  ColumnVector dense(type);
  Status s = decode(wanted, &dense);
  if (!s.ok()) return s;
  if (header.has_nulls) return ScatterPresent(dense, presence, header.value_count, out);
  *out = std::move(dense);
  return Status::OK();
}

}  // namespace

Status ReadChunk(Slice* input, PhysicalType type, ColumnVector* out,
                 const ChunkReadOptions& options) {
  ChunkHeader header;
  std::unique_ptr<char[]> buffer;
  Slice raw;
  Slice bitmap;
  uint32_t present;
  Status s = OpenChunkBody(*input, type, options, &header, &buffer, &raw);
  if (s.ok()) s = TakePresence(header, &raw, &bitmap, &present);
  if (!s.ok()) return s;
  if (header.encoding == Encoding::kTemplate) {
    // Its templates may be codes into the file's dictionary.
    s = DecodeWantedThenScatter(header, type, bitmap, present, options.wanted_rows, out,
                                [&](const uint64_t* wanted, ColumnVector* dense) {
                                  return DecodeTemplateBody(raw, present, options.file_dictionary,
                                                            dense, wanted);
                                });
  } else if (header.encoding == Encoding::kFileDictionary) {
    if (options.file_dictionary == nullptr) {
      return Status::Corruption("chunk: file_dictionary chunk read without the file's dictionary");
    }
    s = DecodeWantedThenScatter(header, type, bitmap, present, options.wanted_rows, out,
                                [&](const uint64_t* wanted, ColumnVector* dense) {
                                  return DecodeFileDictionaryBody(
                                      raw, present, *options.file_dictionary, dense, wanted);
                                });
  } else if (header.encoding == Encoding::kFileHuffman) {
    if (options.file_dictionary == nullptr) {
      return Status::Corruption("chunk: file_huffman chunk read without the file's dictionary");
    }
    s = DecodeWantedThenScatter(header, type, bitmap, present, nullptr, out,
                                [&](const uint64_t* /*wanted*/, ColumnVector* dense) {
                                  return DecodeFileHuffmanBody(
                                      raw, present, *options.file_dictionary, type, dense);
                                });
  } else if (header.encoding == Encoding::kRiceDeltaAnchored) {
    if (options.anchor == nullptr) {
      return Status::Corruption("chunk: rice_delta_anchored chunk read without its anchor");
    }
    s = DecodeWantedThenScatter(header, type, bitmap, present, nullptr, out,
                                [&](const uint64_t* /*wanted*/, ColumnVector* dense) {
                                  return DecodeRiceDeltaAnchored(type, raw, present,
                                                                 *options.anchor, dense);
                                });
  } else if (header.has_nulls) {
    ColumnVector dense(type);
    s = DecodeValues(header.encoding, type, raw, present, &dense);
    if (s.ok()) {
      s = ScatterPresent(dense, reinterpret_cast<const uint8_t*>(bitmap.data()), header.value_count,
                         out);
    }
  } else {
    out->Reset(type);
    s = DecodeValues(header.encoding, type, raw, header.value_count, out);
  }
  if (!s.ok()) return s;
  input->remove_prefix(header.total_size());
  return Status::OK();
}

Status ReadChunkRows(const Slice& input, PhysicalType type, uint32_t begin, uint32_t end,
                     ColumnVector* out, const ChunkReadOptions& options) {
  ChunkHeader header;
  Status s = ParseChunkHeader(input, &header, options.expected_values);
  if (!s.ok()) return s;
  if (begin > end || end > header.value_count) {
    return Status::InvalidArgument("chunk: row range outside the chunk");
  }
  if (begin == 0 && end == header.value_count) {
    Slice whole = input;
    return ReadChunk(&whole, type, out, options);
  }
  // Chunks of the file's dictionary, its tables, templates or anchors need ReadChunk's extra
  // inputs.
  if (!header.has_nulls && header.encoding != Encoding::kFileDictionary &&
      header.encoding != Encoding::kTemplate && header.encoding != Encoding::kFileHuffman &&
      header.encoding != Encoding::kRiceDeltaAnchored) {
    std::unique_ptr<char[]> buffer;
    Slice raw;
    s = OpenChunkBody(input, type, options, &header, &buffer, &raw);
    if (!s.ok()) return s;
    out->Reset(type);
    return DecodeValueRange(header.encoding, type, raw, header.value_count, begin, end, out);
  }
  ColumnVector all;
  Slice whole = input;
  s = ReadChunk(&whole, type, &all, options);
  if (!s.ok()) return s;
  out->Reset(type);
  out->Reserve(end - begin);
  for (uint32_t row = begin; row < end; row++) out->AppendFrom(all, row);
  return Status::OK();
}

Status ReadChunkDictionary(Slice* input, PhysicalType type, const ChunkReadOptions& options,
                           ColumnVector* dictionary, std::vector<uint32_t>* codes,
                           std::string* presence) {
  ChunkHeader header;
  Status s = ParseChunkHeader(*input, &header, options.expected_values);
  if (!s.ok()) return s;
  if (header.encoding != Encoding::kDictionary) {
    return Status::NotSupported("chunk: not dictionary-encoded");
  }
  std::unique_ptr<char[]> buffer;
  Slice raw;
  Slice bitmap;
  uint32_t present;
  s = OpenChunkBody(*input, type, options, &header, &buffer, &raw);
  if (s.ok()) s = TakePresence(header, &raw, &bitmap, &present);
  if (s.ok()) s = DecodeDictionary(type, raw, present, dictionary, codes);
  if (!s.ok()) return s;
  presence->assign(bitmap.data(), bitmap.size());
  input->remove_prefix(header.total_size());
  return Status::OK();
}

}  // namespace columnar
