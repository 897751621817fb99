// The encoding catalogue: names, type support, and the dispatch from an id to its codec.
#include "table_format/encoding.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "table_format/encodings/chooser.h"
#include "table_format/encodings/codec.h"

namespace columnar {

namespace {

// Every stored encoding, indexed by id (nullptr for ids not assigned).
const std::array<const Codec*, 256>& CodecTable() {
  static const std::array<const Codec*, 256> table = [] {
    std::array<const Codec*, 256> t{};
    for (const Codec* codec : {&PlainCodec(),
                               &RleCodec(),
                               &DictionaryCodec(),
                               &DeltaCodec(),
                               &DeltaOfDeltaCodec(),
                               &GorillaCodec(),
                               &AlpCodec(),
                               &AlpRdCodec(),
                               &FloatDeltaCodec(),
                               &FrontCodingCodec(),
                               &ForCodec(),
                               &HexCodec(),
                               &RiceDeltaCodec(),
                               &ConstantCodec(),
                               &FileDictionaryCodec(),
                               &TemplateCodec(),
                               &MixedRadixCodec(),
                               &RleNestedCodec(),
                               &HuffmanCodec(),
                               &RiceCodec(),
                               &FileHuffmanCodec(),
                               &RiceDeltaAnchoredCodec(),
                               &MixedRadixTightCodec()}) {
      t[static_cast<uint8_t>(codec->id)] = codec;
    }
    return t;
  }();
  return table;
}

const Codec* FindCodec(Encoding encoding) { return CodecTable()[static_cast<uint8_t>(encoding)]; }

constexpr const char* kAutoName = "auto";

// CandidateEncodings' answers for every request id, type and `without_template`, in one table.
// Every invalid type gets the same answer (no codec tells them apart), kept once as type
// kNumPhysicalTypes.
constexpr int kCandidateTypes = kNumPhysicalTypes + 1;
constexpr size_t kCandidateSlots = 256 * kCandidateTypes * 2;
constexpr size_t CandidateSlot(int request, int type, bool without_template) {
  return (static_cast<size_t>(request) * kCandidateTypes + static_cast<size_t>(type)) * 2 +
         (without_template ? 1 : 0);
}

std::vector<Encoding> ComputeCandidates(Encoding request, PhysicalType type,
                                        bool without_template) {
  std::vector<Encoding> candidates;
  if (request == Encoding::kAuto) {
    for (const Codec* codec : CodecTable()) {
      // file_dictionary and file_huffman need the file's dictionary, rice_delta_anchored the
      // chunk's anchor: the chunk layer weighs them itself.
      if (codec != nullptr && codec->supports(type) && codec->id != Encoding::kFileDictionary &&
          codec->id != Encoding::kFileHuffman && codec->id != Encoding::kRiceDeltaAnchored &&
          !(without_template && codec->id == Encoding::kTemplate)) {
        candidates.push_back(codec->id);
      }
    }
  } else if (request == Encoding::kAlp && IsFloatType(type)) {
    candidates = {Encoding::kAlp, Encoding::kAlpRd};
  } else if (EncodingSupports(request, type)) {
    candidates = {request};
  } else {
    candidates = {Encoding::kPlain};
  }
  return candidates;
}

}  // namespace

const char* EncodingName(Encoding encoding) {
  if (encoding == Encoding::kAuto) return kAutoName;
  const Codec* codec = FindCodec(encoding);
  return codec != nullptr ? codec->name : "unknown";
}

bool ParseEncodingName(const std::string& name, Encoding* encoding) {
  if (name == kAutoName) {
    *encoding = Encoding::kAuto;
    return true;
  }
  for (const Codec* codec : CodecTable()) {
    if (codec != nullptr && name == codec->name) {
      *encoding = codec->id;
      return true;
    }
  }
  return false;
}

bool EncodingSupports(Encoding encoding, PhysicalType type) {
  const Codec* codec = encoding == Encoding::kAuto ? nullptr : FindCodec(encoding);
  return codec != nullptr && IsValidPhysicalType(static_cast<uint8_t>(type)) &&
         codec->supports(type);
}

std::vector<Encoding> WithoutEncoding(std::vector<Encoding> candidates, Encoding left_out) {
  candidates.erase(std::remove(candidates.begin(), candidates.end(), left_out), candidates.end());
  return candidates;
}

const std::vector<Encoding>& CandidateEncodings(Encoding request, PhysicalType type,
                                                bool without_template) {
  // Computed once: the chooser asks for each chunk it encodes.
  static const auto* const table = [] {
    auto* t = new std::vector<std::vector<Encoding>>(kCandidateSlots);
    for (int r = 0; r < 256; r++) {
      for (int ty = 0; ty < kCandidateTypes; ty++) {
        for (const bool s : {false, true}) {
          (*t)[CandidateSlot(r, ty, s)] =
              ComputeCandidates(static_cast<Encoding>(r), static_cast<PhysicalType>(ty), s);
        }
      }
    }
    return t;
  }();
  const auto raw_type = static_cast<uint8_t>(type);
  const int type_slot = IsValidPhysicalType(raw_type) ? raw_type : kNumPhysicalTypes;
  return (*table)[CandidateSlot(static_cast<uint8_t>(request), type_slot, without_template)];
}

Status EncodeValues(Encoding encoding, const ColumnVector& values, std::string* out) {
  if (values.has_nulls()) return Status::InvalidArgument("encoding: values must not contain nulls");
  if (values.size() > kMaxEncodedValues)
    return Status::InvalidArgument("encoding: too many values");
  if (!EncodingSupports(encoding, values.type())) {
    return Status::InvalidArgument(std::string("encoding: ") + EncodingName(encoding) +
                                   " cannot hold " + PhysicalTypeName(values.type()) + " values");
  }
  const size_t start = out->size();
  Status s = FindCodec(encoding)->encode(values, out);
  if (!s.ok()) out->resize(start);
  return s;
}

Status DecodeValues(Encoding encoding, PhysicalType type, const Slice& body, size_t count,
                    ColumnVector* out) {
  if (!EncodingSupports(encoding, type)) {
    return Status::Corruption(std::string("encoding: ") + EncodingName(encoding) + " cannot hold " +
                              PhysicalTypeName(type) + " values");
  }
  if (count > kMaxEncodedValues) return Status::Corruption("encoding: implausible value count");
  if (out->type() != type) return Status::InvalidArgument("encoding: output column type differs");
  return FindCodec(encoding)->decode(type, body, count, out);
}

Status DecodeValueRange(Encoding encoding, PhysicalType type, const Slice& body, size_t count,
                        size_t begin, size_t end, ColumnVector* out) {
  if (begin > end || end > count)
    return Status::InvalidArgument("encoding: range beyond the values");
  const Codec* codec = EncodingSupports(encoding, type) ? FindCodec(encoding) : nullptr;
  if (codec == nullptr || codec->decode_range == nullptr || count > kMaxEncodedValues ||
      out->type() != type) {
    ColumnVector all(type);
    Status s = DecodeValues(encoding, type, body, count, &all);
    if (!s.ok()) return s;
    for (size_t row = begin; row < end; row++) out->AppendFrom(all, row);
    return Status::OK();
  }
  return codec->decode_range(type, body, count, begin, end, out);
}

Status EncodeWithBestEncoding(Encoding request, const ColumnVector& values, std::string* out,
                              Encoding* chosen, bool without_template) {
  const std::vector<Encoding>& candidates =
      CandidateEncodings(request, values.type(), without_template);
  if (candidates.size() == 1) {
    Status s = EncodeValues(candidates[0], values, out);
    if (s.IsInvalidArgument() && candidates[0] != Encoding::kPlain && !values.has_nulls()) {
      // The requested encoding cannot represent these values (hex on non-hex strings).
      s = EncodeValues(Encoding::kPlain, values, out);
      if (s.ok() && chosen != nullptr) *chosen = Encoding::kPlain;
      return s;
    }
    if (s.ok() && chosen != nullptr) *chosen = candidates[0];
    return s;
  }
  if (values.has_nulls()) return Status::InvalidArgument("encoding: values must not contain nulls");
  Encoding best;
  Status s = ChooseAndEncode(candidates, values, out, &best);
  if (s.ok() && chosen != nullptr) *chosen = best;
  return s;
}

}  // namespace columnar
