#include "table_format/data_block.h"

#include <lz4.h>

#include "table_format/checksum.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

Status Lz4Compress(const Slice& raw, std::string* out) {
  const int bound = LZ4_compressBound(static_cast<int>(raw.size()));
  const size_t start = out->size();
  out->resize(start + bound);
  const int written =
      LZ4_compress_default(raw.data(), &(*out)[start], static_cast<int>(raw.size()), bound);
  if (written <= 0) {
    out->resize(start);
    return Status::Corruption("lz4 compression failed");
  }
  out->resize(start + written);
  return Status::OK();
}

Status Compress(const Slice& raw, const BlockCompressor& compressor, std::string* out) {
  switch (compressor.codec) {
    case BlockCodec::kLz4:
      return Lz4Compress(raw, out);
    case BlockCodec::kZstd:
      return ZstdCompress(raw, compressor.level, nullptr, out);
    case BlockCodec::kZstdDict:
      if (compressor.dictionary == nullptr) {
        return Status::InvalidArgument("block: zstd dictionary compression without a dictionary");
      }
      return ZstdCompress(raw, compressor.level, compressor.dictionary, out);
    case BlockCodec::kNone:
      break;
  }
  return Status::InvalidArgument("block: unknown codec");
}

void AppendTrailer(BlockCodec codec, size_t payload_start, std::string* out) {
  out->push_back(static_cast<char>(codec));
  const Slice covered(out->data() + payload_start, out->size() - payload_start);
  PutFixed32(out, ComputeChecksum(covered));
}

// The most bytes a compressed payload can decompress to. LZ4 expands at most 255-fold (a match
// length grows by 255 per extension byte); zstd: zstd_codec.h.
uint64_t MaxDecompressedSize(BlockCodec codec, const Slice& payload) {
  if (codec == BlockCodec::kLz4) return 255 * static_cast<uint64_t>(payload.size());
  return ZstdMaxDecompressedSize(payload);
}

}  // namespace

Status WriteBlock(const Slice& raw, const BlockCompressor& compressor, std::string* out) {
  if (raw.size() > kMaxBlockRawBytes) return Status::InvalidArgument("block: too large");
  const size_t start = out->size();
  if (compressor.codec != BlockCodec::kNone) {
    PutVarint32(out, static_cast<uint32_t>(raw.size()));
    Status s = Compress(raw, compressor, out);
    if (!s.ok()) return s;
    const size_t compressed = out->size() - start;
    if (compressed < raw.size() - raw.size() / 64) {
      AppendTrailer(compressor.codec, start, out);
      return Status::OK();
    }
    out->resize(start);  // not worth it: store raw
  }
  out->append(raw.data(), raw.size());
  AppendTrailer(BlockCodec::kNone, start, out);
  return Status::OK();
}

Status VerifyBlockChecksum(const Slice& stored) {
  if (stored.size() < kBlockTrailerSize) return Status::Corruption("block: truncated");
  const size_t covered = stored.size() - 4;
  return VerifyChecksum(Slice(stored.data(), covered), DecodeFixed32(stored.data() + covered),
                        "block");
}

namespace {

// ReadBlock into memory from `allocate(raw_length)`, called only for compressed blocks.
template <typename Allocate>
Status ReadBlockWith(const Slice& stored, const ZstdDictionary* dictionary, bool verify_checksum,
                     const Allocate& allocate, Slice* raw) {
  if (stored.size() < kBlockTrailerSize) return Status::Corruption("block: truncated");
  if (verify_checksum) {
    Status s = VerifyBlockChecksum(stored);
    if (!s.ok()) return s;
  }
  const auto codec = static_cast<BlockCodec>(stored[stored.size() - kBlockTrailerSize]);
  Slice payload(stored.data(), stored.size() - kBlockTrailerSize);
  if (codec == BlockCodec::kNone) {
    *raw = payload;
    return Status::OK();
  }
  if (codec != BlockCodec::kLz4 && codec != BlockCodec::kZstd && codec != BlockCodec::kZstdDict) {
    return Status::Corruption("block: unknown codec");
  }
  uint32_t raw_length;
  if (!GetVarint32(&payload, &raw_length) || raw_length > kMaxBlockRawBytes) {
    return Status::Corruption("block: bad raw length");
  }
  // Everything about the raw length is checked before the buffer is allocated: a few forged
  // bytes must not cost a gigabyte.
  if (raw_length > MaxDecompressedSize(codec, payload)) {
    return Status::Corruption("block: raw length beyond what the payload can expand to");
  }
  const bool zstd = codec != BlockCodec::kLz4;
  if (zstd && ZstdFrameContentSize(payload) != raw_length) {
    return Status::Corruption("block: zstd frame disagrees with its raw length");
  }
  if (codec == BlockCodec::kZstdDict && dictionary == nullptr) {
    return Status::Corruption("block: compressed with a dictionary the file does not have");
  }
  char* out = allocate(raw_length);
  if (zstd) {
    Status s = ZstdDecompress(payload, codec == BlockCodec::kZstdDict ? dictionary : nullptr, out,
                              raw_length);
    if (!s.ok()) return s;
  } else {
    const int got = LZ4_decompress_safe(payload.data(), out, static_cast<int>(payload.size()),
                                        static_cast<int>(raw_length));
    if (got < 0 || static_cast<uint32_t>(got) != raw_length) {
      return Status::Corruption("block: lz4 decompression failed");
    }
  }
  *raw = Slice(out, raw_length);
  return Status::OK();
}

}  // namespace

Status ReadBlock(const Slice& stored, const ZstdDictionary* dictionary, bool verify_checksum,
                 std::string* buffer, Slice* raw) {
  return ReadBlockWith(
      stored, dictionary, verify_checksum,
      [buffer](size_t size) {
        buffer->resize(size);
        return &(*buffer)[0];
      },
      raw);
}

Status ReadBlock(const Slice& stored, const ZstdDictionary* dictionary, bool verify_checksum,
                 std::unique_ptr<char[]>* buffer, Slice* raw) {
  return ReadBlockWith(
      stored, dictionary, verify_checksum,
      [buffer](size_t size) {
        buffer->reset(new char[size]);
        return buffer->get();
      },
      raw);
}

}  // namespace columnar
