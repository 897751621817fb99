// Thin wrappers over libzstd used by both compression layers: per-column chunk compression
// (chunk.cc) and the outer block compression of the table file (plugin/). Compression and
// decompression contexts are reused per thread. Dictionaries are digested once per file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "table_format/types.h"

struct ZSTD_CDict_s;
struct ZSTD_DDict_s;

namespace columnar {

// A trained zstd dictionary, digested for compression, decompression or both.
class ZstdDictionary {
 public:
  // What the digests are built for. A table reader only decompresses with its file's
  // dictionary, a writer only compresses: a compression digest of a 64 KiB dictionary at level 3
  // takes 474 KB and 2.4 ms to build, a decompression one 93 KB and 0.3 ms.
  enum Use : uint8_t { kCompress = 1, kDecompress = 2, kCompressAndDecompress = 3 };

  // `raw` is the dictionary as ZDICT produced it (stored in the file); `level` is the
  // compression level the compression digest is built for.
  ZstdDictionary(const Slice& raw, int level, Use use = kCompressAndDecompress);
  ~ZstdDictionary();
  ZstdDictionary(const ZstdDictionary&) = delete;
  ZstdDictionary& operator=(const ZstdDictionary&) = delete;

  // Every digest its use asks for was built.
  bool ok() const {
    return ((use_ & kCompress) == 0 || cdict_ != nullptr) &&
           ((use_ & kDecompress) == 0 || ddict_ != nullptr);
  }
  const std::string& raw() const { return raw_; }
  ZSTD_CDict_s* cdict() const { return cdict_; }
  ZSTD_DDict_s* ddict() const { return ddict_; }

 private:
  std::string raw_;
  Use use_;
  ZSTD_CDict_s* cdict_ = nullptr;
  ZSTD_DDict_s* ddict_ = nullptr;
};

// Appends the zstd frame of `input` to *out (without the raw length; callers store it).
// InvalidArgument with a dictionary not built for compression.
Status ZstdCompress(const Slice& input, int level, const ZstdDictionary* dict, std::string* out);
// The same frame written at `dest`, which has room for `capacity` >= ZstdCompressBound(input
// size) bytes; *written is its length.
size_t ZstdCompressBound(size_t input_size);
Status ZstdCompressTo(const Slice& input, int level, const ZstdDictionary* dict, char* dest,
                      size_t capacity, size_t* written);

// Decompresses `input` into exactly `raw_length` bytes at `out`. Corruption when the frame
// is malformed or does not produce exactly `raw_length` bytes; InvalidArgument with a dictionary
// not built for decompression.
Status ZstdDecompress(const Slice& input, const ZstdDictionary* dict, char* out, size_t raw_length);

// The decompressed size a zstd frame declares in its header, or UINT64_MAX when unknown or
// not a valid frame.
uint64_t ZstdFrameContentSize(const Slice& frame);

// The most bytes `frames` (one or more zstd frames) can decompress to, whatever their headers
// claim: every block that produces output takes at least 4 bytes (3-byte header + 1 byte of an
// RLE block) and produces at most 128 KiB. Readers check a claimed raw length against it
// before allocating, so a tiny forged body cannot ask for a huge buffer.
uint64_t ZstdMaxDecompressedSize(const Slice& frames);

// Trains a dictionary of at most `max_bytes` from `samples`. Returns an empty string (and OK)
// when the samples are too few or too small for zstd to train on.
Status TrainZstdDictionary(const std::vector<Slice>& samples, size_t max_bytes, std::string* dict);

}  // namespace columnar
