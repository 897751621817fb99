// file_huffman: integers coded with a Huffman table kept once per table file, as an entry of
// the column's file dictionary (file_dictionary.h), instead of a table in every chunk. A
// low-cardinality column (HTTP statuses, the file-dictionary codes of methods, countries,
// content types) pays its local huffman table (10-40 bytes) in every 128-row chunk, and each
// row group is compressed alone, so the outer compressor cannot share it across groups.
// Values the table lacks are escaped. Only the chunk layer writes and reads it (it needs the
// file's dictionary of the column); auto never proposes it.
//
// Table entry (a file-dictionary entry of the column; bytes):
//
//   u8        kind          1 (a Huffman table)
//   table                   "symbols", "values" and "lengths" of huffman.h, k >= 2 symbols
//                           read as int64; the last (largest) symbol stands for the escape,
//                           its value is one more than the largest real one
//
// Body (n values, n from the chunk header; int32 or int64):
//
//   varint32  table         the file-dictionary code (>= 1) of the table entry
//   bit stream              every value's code, the escape's for a value the table lacks
//                           (LSB-first, bit_stream.h; each code's first bit first), the last
//                           byte padded with zero bits
//   escapes   zigzag varint each escaped value in row order, at the type's width; they run to
//                           the end of the body
//
// Corruption: a table code outside the dictionary, an entry that is not a table, a real symbol
// beyond the column type, a bit pattern of no value, a short stream, non-zero padding, missing
// or extra escape bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encodings/huffman.h"
#include "table_format/encodings/integer_ids.h"
#include "table_format/types.h"

namespace columnar {

// Most real symbols a file table holds; rarer values are escaped.
inline constexpr size_t kMaxFileHuffmanSymbols = 255;

class FileHuffmanTable {
 public:
  // A table for `counts` (value, count >= 1; any order): the kMaxFileHuffmanSymbols most
  // frequent values, and the escape weighted `escape_count` plus the counts left out. False
  // when no table can be made (no values, or a value at INT64_MAX).
  static bool Build(std::vector<std::pair<int64_t, uint64_t>> counts, uint64_t escape_count,
                    FileHuffmanTable* out);
  // Reads a table entry, for decoding only.
  static Status Parse(const Slice& entry, FileHuffmanTable* out);

  // The table entry.
  std::string Serialize() const;
  // Appends the body of int32 (a built table only) or int64 `values` (no nulls), the table being
  // entry `table_code`.
  void Encode(uint32_t table_code, const ColumnVector& values, std::string* out) const;
  // Decodes a body's stream and escapes (after the table code) into *out (a parsed table).
  Status Decode(const Slice& stream, size_t count, PhysicalType type, ColumnVector* out) const;

  size_t symbol_count() const { return table_.symbols.size(); }

 private:
  void Prepare();

  HuffmanTable table_;                             // the last symbol is the escape
  std::shared_ptr<const HuffmanDecoder> decoder_;  // made by Parse
  std::vector<uint32_t> codes_;
  IntegerIds index_;  // real symbol -> index (a symbol's id is its index)
};

// The tables of one column while a file is written: counts the integers of the chunks written
// and makes a new table after 16, 64, 256, ... counted chunks, so that early chunks get a table
// soon and later ones a table of more rows. Counting stops at kMaxCountedSymbols distinct
// values (a high-cardinality column: later values only weigh the escape).
class FileHuffmanTableMaker {
 public:
  static constexpr size_t kMaxCountedSymbols = 4096;

  void Count(const ColumnVector& values);
  // A new table when one is due (its entry in *entry); false otherwise.
  bool TakeDueTable(FileHuffmanTable* table, std::string* entry);

 private:
  IntegerIds ids_;                // value -> id
  std::vector<int64_t> values_;   // by id
  std::vector<uint64_t> counts_;  // by id
  uint64_t uncounted_ = 0;        // values not counted (beyond kMaxCountedSymbols)
  uint64_t chunks_ = 0;
  uint64_t next_table_at_ = 16;
};

// Decodes a file_huffman body of `count` values of `type` with the column's file dictionary.
Status DecodeFileHuffmanBody(const Slice& body, size_t count, const ColumnVector& entries,
                             PhysicalType type, ColumnVector* out);

}  // namespace columnar
