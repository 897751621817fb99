// Column encodings: the catalogue, and the dispatch from an encoding id to its codec.
//
// An encoding turns a dense run of values (no nulls: the chunk layer strips them into a
// presence bitmap first) into a self-contained body, and back. Each encoding lives in its own
// file under encodings/ with its byte layout described at the top. Bodies never carry their
// value count: the chunk header does, and decoders must consume the body exactly.
//
// The numeric ids are part of the file format: never renumber, only append.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

enum class Encoding : uint8_t {
  kPlain = 0,               // any type: values as they are
  kRle = 1,                 // any type: (value, run length) pairs
  kDictionary = 2,          // any type: distinct values + bit-packed codes
  kDelta = 3,               // int32/int64: consecutive differences, frame-of-reference bit-packed
  kDeltaOfDelta = 4,        // int32/int64: differences of differences (regular series ~0 bits)
  kGorilla = 5,             // float32/float64: XOR with the previous value, bit stream
  kAlp = 6,                 // float32/float64: decimal ALP (exponent/factor, FOR ints, exceptions)
  kAlpRd = 7,               // float32/float64: ALP real-doubles (left-part dictionary + right bits)
  kFloatDelta = 8,          // float32/float64: delta over the IEEE bit patterns of a smooth series
  kFrontCoding = 9,         // bytes: shared-prefix length with the previous value + suffix
  kFor = 10,                // int32/int64: frame of reference (minimum) + bit-packing, no delta
  kHex = 11,                // bytes: strings of lower-case hex digits packed two per byte
  kRiceDelta = 12,          // int32/int64/float32/float64: differences Rice-coded (noisy series)
  kConstant = 13,           // any type: every value equal, stored once
  kFileDictionary = 14,     // bytes: codes into the file's dictionary of the column
                            // (file_dictionary.h); written and read by the chunk layer only
  kTemplate = 15,           // bytes: dictionary-coded templates + integer parameters (URL paths,
                            // addresses; encodings/template.h)
  kMixedRadix = 16,         // int32/int64: offsets from the minimum in radix (max - min + 1), for
                            // values uniform over a range that is not a power of two
  kRleNested = 17,          // any type: runs whose run values get their own encoding (ids repeated
                            // over a few consecutive rows)
  kHuffman = 18,            // int32/int64: canonical Huffman codes of few, skewed distinct values
                            // (statuses, file-dictionary codes; encodings/huffman.h)
  kRice = 19,               // int32/int64: offsets from the minimum Rice-coded, no differences
                            // (log-normal latencies and sizes; encodings/rice.h)
  kFileHuffman = 20,        // int32/int64: Huffman codes from a table kept once per file, in the
                            // column's file dictionary (encodings/file_huffman.h); chunk layer only
  kRiceDeltaAnchored = 21,  // int32/int64/float32/float64: rice_delta with the first value
                            // replaced by the position of a value the reader holds (the row
                            // group's zone-map minimum; encodings/rice_delta.cc); chunk layer only
  kMixedRadixTight = 22,    // int32/int64: mixed_radix with the rounding of its groups mostly
                            // taken out (encodings/mixed_radix_tight.cc)
  kAuto = 255,              // a request only, never stored: smallest candidate for the type
};

// Most values one body may hold (equal to the chunk layer's kMaxChunkValues). Decoders trust
// a count up to this and size their output from it.
inline constexpr size_t kMaxEncodedValues = size_t{1} << 24;

const char* EncodingName(Encoding encoding);
// Accepts the names EncodingName() returns ("plain", "delta_of_delta", "auto", ...).
bool ParseEncodingName(const std::string& name, Encoding* encoding);

// True when `encoding` (a stored id, not kAuto) can encode values of `type`.
bool EncodingSupports(Encoding encoding, PhysicalType type);

// The concrete encodings worth trying for a request. kAuto gives every encoding that fits the
// type; kAlp gives {kAlp, kAlpRd} (the per-chunk ALP / ALP-RD choice of the ALP paper); a
// concrete encoding gives itself, or kPlain when it cannot encode `type`.
// `without_template`: kAuto leaves out template (EncodeWithBestEncoding says when).
// The list lives as long as the process.
const std::vector<Encoding>& CandidateEncodings(Encoding request, PhysicalType type,
                                                bool without_template = false);
// `candidates` without `left_out` (a chooser's list with an encoding it must not, or need not,
// weigh).
std::vector<Encoding> WithoutEncoding(std::vector<Encoding> candidates, Encoding left_out);

// Encodes `values` (must have no nulls) with a concrete encoding, appending the body to *out.
// Fails with InvalidArgument if the encoding cannot represent these values (for example
// kHex on a non-hex string); the chunk layer then falls back to another candidate.
Status EncodeValues(Encoding encoding, const ColumnVector& values, std::string* out);

// Decodes exactly `count` values of `type` from `body`, appending them to *out. Returns
// Corruption when the body is malformed, truncated, or longer than its values; it never reads
// outside `body` and never allocates more than a small multiple of `count` values.
Status DecodeValues(Encoding encoding, PhysicalType type, const Slice& body, size_t count,
                    ColumnVector* out);
// Values [begin, end) of the `count` encoded in `body` (begin <= end <= count), appended to
// *out. Encodings with direct access (plain, mixed_radix, mixed_radix_tight) read only those; the
// others decode everything and copy the range.
Status DecodeValueRange(Encoding encoding, PhysicalType type, const Slice& body, size_t count,
                        size_t begin, size_t end, ColumnVector* out);

// Picks the concrete encoding for a request and encodes with it, appending the smallest body
// found to *out. For a single candidate this is EncodeValues, falling back to kPlain when the
// candidate refuses the values (kHex on non-hex strings). For several it estimates each
// candidate's size cheaply and fully encodes only the most promising ones (encodings/chooser.h).
// `without_template`: kAuto leaves out template. The chunk layer asks it for two reasons
// (ChunkWriteOptions):
// - key columns that point reads search (`searched`): template's decode parses every distinct
//   template of the chunk. With db_bench's keys it won on raw size (5.0 bytes a row against
//   front_coding's 9.2) but lost after the block's zstd (files 3.5% larger), and a point read
//   spent 70% of its instructions decoding it (291k instructions against 81k with
//   front_coding, scripts/point_read_profile.sh --instructions);
// - chunks of short-lived files (`short_lived`, flushes' output): splitting values into
//   templates is the costliest analysis of the chooser, worth it only in the files that stay.
Status EncodeWithBestEncoding(Encoding request, const ColumnVector& values, std::string* out,
                              Encoding* chosen, bool without_template = false);

}  // namespace columnar
