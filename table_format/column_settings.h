// ColumnSettings: the per-column encoding and compression choices of a table, parsed from the
// option strings users write ("time:delta_of_delta,value:alp" and "default:zstd,value:none"),
// the same shape as the source documents' column_encodings / column_compression options.
#pragma once

#include <map>
#include <string>

#include "table_format/chunk.h"
#include "table_format/row_layout.h"

namespace columnar {

class ColumnSettings : public ColumnWriteSettings {
 public:
  // Parses both option strings. Unknown encodings or compressions are InvalidArgument.
  // Column names are not checked here (the layout knows which exist).
  static Status Parse(const std::string& encodings, const std::string& compression,
                      int compression_level, ColumnSettings* out);

  ChunkWriteOptions For(const std::string& column, PhysicalType type) const override;

  // Adds choices for columns not named yet (names already validated elsewhere, e.g. by the
  // CQL parser); "default" in `compression` sets the default compression if none was given.
  void AddDefaults(const std::map<std::string, std::string>& encodings,
                   const std::map<std::string, std::string>& compression);

  const std::map<std::string, Encoding>& encodings() const { return encodings_; }
  const std::map<std::string, ColumnCompression>& compressions() const { return compressions_; }
  // Columns named in either option (to validate them against a schema).
  std::vector<std::string> NamedColumns() const;

 private:
  std::map<std::string, Encoding> encodings_;
  std::map<std::string, ColumnCompression> compressions_;
  ColumnCompression default_compression_ = ColumnCompression::kNone;
  bool default_compression_set_ = false;
  int compression_level_ = 3;
};

// `base`'s settings for a file that compaction soon rewrites (a flush's output): the same
// choices, every chunk marked short-lived (ChunkWriteOptions::short_lived).
//
// With `lz4_blocks` (the file's blocks go through lz4, as db_bench_ext's flushes do), a
// byte-string or floating-point column left to auto and without a compression of its own is
// written plain, or constant when all its values in a group are one
// (ChunkWriteOptions::constant_or_plain): encoding string bodies and choosing among them were
// most of the encoding in an access16 flush, and choosing among the doubles' encodings most of
// a devops flush's, for files compaction re-encodes within minutes. Plain bodies are also the
// cheapest for that compaction to read; constant keeps a tag column as small and cheap as auto
// made it. Only with lz4: zstd over plain strings costs more than the encodings save (access16
// with zstd columns, config D: 6.5% more flush instructions). Integer columns keep auto: their
// encodings are cheap and lz4 takes little from plain integers (plain for them too saved
// devops' flush 0.3% of its instructions and metrics' 0.8%, for 5% and 2x the flushed bytes).
// Columns given an encoding keep it.
class ShortLivedColumnSettings : public ColumnWriteSettings {
 public:
  // `base` must outlive this.
  ShortLivedColumnSettings(const ColumnWriteSettings* base, bool lz4_blocks)
      : base_(base), lz4_blocks_(lz4_blocks) {}

  ChunkWriteOptions For(const std::string& column, PhysicalType type) const override;

 private:
  const ColumnWriteSettings* base_;
  bool lz4_blocks_;
};

// Splits "a:b,c:d" into pairs; a bare "b" is returned as ("default", "b").
Status ParseColumnMap(const std::string& text, std::map<std::string, std::string>* out);

}  // namespace columnar
