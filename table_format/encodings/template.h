// template: structured strings (URL paths, addresses, versioned names) split into a template
// and typed parameters. "/api/v1/users/12345" becomes the template "/api/v1/users/{dec}" and
// the parameter 12345; "/static/js/app.3f2a9c1b.js" the template "/static/js/app.{hex8}.js"
// and 0x3f2a9c1b; "203.0.113.7" the template "{dec}.{dec}.{dec}.{dec}" and four small
// integers (an IPv4 address in 32 bits). The templates recur, so they are dictionary-coded
// (in the chunk, or through the file's dictionary of the column); the parameters are
// integers, bit-packed by whatever integer encoding suits them.
//
// Tokens: maximal runs of ASCII letters and digits. A run of 1..19 decimal digits without a
// leading zero ("0" itself included) is a decimal parameter; a run of at least 8 lower-case
// hex digits with at least one digit and one letter is hex, split into parameters of at most
// 16 digits (the last one shorter). Otherwise a run ending in 4..19 digits ("u0312345",
// "INV2024001", "000123") has those digits split off as a decimal parameter, zero-padded to
// their exact width when they start with a 0 (the letters before them stay literal).
// Everything else is literal. At most kMaxTemplateSlots parameters per string; later tokens
// stay literal.
//
// Template string: the literal bytes, with escapes introduced by 0x00:
//   0x00 0x00     a literal 0x00 byte
//   0x00 'd'      a decimal parameter
//   0x00 'x' L    a hex parameter of exactly L digits (u8, 1..16), leading zeros kept
//   0x00 'z' W    a decimal parameter of exactly W digits (u8, 2..19), leading zeros kept
//                 (files written before it existed never hold it)
//
// Byte layout (n values, n from the chunk header):
//
//   u8        template encoding   encoding of the n template strings (bytes): any encoding
//                                 but template; file_dictionary inside a chunk only
//   varint32  template body length
//   bytes     template body
//   varint32  stream count S      the most parameters any template has
//   S times:  u8 encoding, varint32 body length, body: parameter k (k = 0..S-1) of every row
//             whose template has more than k parameters, in row order, as int64 values (the
//             uint64 parameter's bits); decimal parameters are below 10^19, a hex parameter
//             of L digits below 16^L, a padded decimal one of W digits below 10^W
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"

namespace columnar {

class TemplateStreamMemos;

inline constexpr size_t kMaxTemplateSlots = 16;

// Strings split into their templates and parameter streams.
struct TemplateSplit {
  ColumnVector templates{PhysicalType::kBytes};  // one template string per value
  std::vector<ColumnVector> streams;             // int64 columns, stream k as in the layout
  size_t parameters = 0;                         // over all streams
};

// Splits every value of a bytes column (no nulls). Rows set in `whole` (one flag per value;
// null = none) are not split: their template is the value itself, without parameters (for
// values a file dictionary holds whole, such as fingerprinted asset paths, whose hex
// parameter would otherwise cost its bits on every row).
void SplitTemplates(const ColumnVector& values, TemplateSplit* split,
                    const std::vector<bool>* whole = nullptr);
// Splits one value: sets *tmpl to its template and *params to its parameters, in order.
void SplitTemplate(const Slice& value, std::string* tmpl, std::vector<uint64_t>* params);

// Appends a template body: the templates already encoded (`template_encoding` and its body),
// then the parameter streams, each with the auto encoding, or through the column's `memos`
// of their encodings (template_stream_memos.h) when given.
Status PutTemplateBody(Encoding template_encoding, const Slice& template_body,
                       const TemplateSplit& split, std::string* out,
                       TemplateStreamMemos* memos = nullptr);

// Decodes a template body of `count` values, appending them to *out (a bytes column).
// `file_dictionary`: the entries of the column's file dictionary, needed when the templates
// are file_dictionary-coded (Corruption without it). `wanted` (bit i of LSB-first words =
// value i; null = all): values not wanted may be left empty, which spares building them.
Status DecodeTemplateBody(const Slice& body, size_t count, const ColumnVector* file_dictionary,
                          ColumnVector* out, const uint64_t* wanted = nullptr);

}  // namespace columnar
