// columnar_sst_dump's work, as a library (the tool's main only parses flags): prints a
// ColumnarTable file's properties, its per-column storage breakdown and, on request, its
// entries and a checksum verification.
#pragma once

#include <rocksdb/slice.h>
#include <rocksdb/status.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace columnar {

struct DumpOptions {
  bool show_properties = true;
  bool verify = false;
  bool show_entries = false;
  // With show_entries: at most this many entries (point entries, then range tombstones).
  uint64_t entry_limit = std::numeric_limits<uint64_t>::max();
  // Keys and values in hex instead of escaped text.
  bool hex = false;
  // Whether reading the entries verifies data block checksums; off, what a damaged file still
  // holds can be salvaged (damaged blocks may then decode to wrong entries).
  bool verify_reads = true;
};

// Dumps one ColumnarTable file to `out`. Non-OK when the file is missing, is not a
// ColumnarTable file, is damaged, or fails verification; what could be read is printed first.
rocksdb::Status DumpSstFile(const std::string& path, const DumpOptions& options, std::ostream& out);

// Expands a command-line path: a file stands for itself, a directory (a database) for the
// .sst files in it, in name order. NotFound for a missing path or a directory without any.
rocksdb::Status ListSstFiles(const std::string& path, std::vector<std::string>* files);

// `bytes` as printable text ('\' and non-printable bytes as \xNN), or as 0x-prefixed hex.
std::string EscapeBytes(const rocksdb::Slice& bytes, bool hex);

}  // namespace columnar
