#include "table_format/data_block.h"

#include <lz4.h>

#include "table_format/checksum.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

// The most bytes the codec's payload of `raw_size` bytes can take.
size_t CompressBound(BlockCodec codec, size_t raw_size) {
  return codec == BlockCodec::kLz4
             ? static_cast<size_t>(LZ4_compressBound(static_cast<int>(raw_size)))
             : ZstdCompressBound(raw_size);
}

// Writes the codec's payload of `raw` at dest (room for CompressBound bytes).
Status CompressTo(const Slice& raw, const BlockCompressor& compressor, char* dest, size_t capacity,
                  size_t* written) {
  switch (compressor.codec) {
    case BlockCodec::kLz4: {
      const int got = LZ4_compress_default(raw.data(), dest, static_cast<int>(raw.size()),
                                           static_cast<int>(capacity));
      if (got <= 0) return Status::Corruption("lz4 compression failed");
      *written = static_cast<size_t>(got);
      return Status::OK();
    }
    case BlockCodec::kZstd:
      return ZstdCompressTo(raw, compressor.level, nullptr, dest, capacity, written);
    case BlockCodec::kZstdDict:
      if (compressor.dictionary == nullptr) {
        return Status::InvalidArgument("block: zstd dictionary compression without a dictionary");
      }
      return ZstdCompressTo(raw, compressor.level, compressor.dictionary, dest, capacity, written);
    case BlockCodec::kNone:
      break;
  }
  return Status::InvalidArgument("block: unknown codec");
}

void AppendTrailer(BlockCodec codec, size_t payload_start, ByteBuffer* out) {
  out->append(1, static_cast<char>(codec));
  char checksum[4];
  EncodeFixed32(checksum,
                ComputeChecksum(out->data() + payload_start, out->size() - payload_start));
  out->append(checksum, sizeof(checksum));
}

// The most bytes a compressed payload can decompress to. LZ4 expands at most 255-fold (a match
// length grows by 255 per extension byte); zstd: zstd_codec.h.
uint64_t MaxDecompressedSize(BlockCodec codec, const Slice& payload) {
  if (codec == BlockCodec::kLz4) return 255 * static_cast<uint64_t>(payload.size());
  return ZstdMaxDecompressedSize(payload);
}

}  // namespace

Status WriteBlock(const Slice& raw, const BlockCompressor& compressor, ByteBuffer* out) {
  if (raw.size() > kMaxBlockRawBytes) return Status::InvalidArgument("block: too large");
  const size_t start = out->size();
  if (compressor.codec != BlockCodec::kNone) {
    char length[10];
    out->append(length, static_cast<size_t>(
                            EncodeVarint64(length, static_cast<uint32_t>(raw.size())) - length));
    // The codec writes in place: the bound is neither zeroed first nor copied after.
    const size_t payload = out->size();
    const size_t bound = CompressBound(compressor.codec, raw.size());
    out->GrowUninitialized(payload + bound);
    size_t written = 0;
    Status s = CompressTo(raw, compressor, out->data() + payload, bound, &written);
    if (!s.ok()) {
      out->resize(start);
      return s;
    }
    out->resize(payload + written);
    if (out->size() - start < raw.size() - raw.size() / 64) {
      AppendTrailer(compressor.codec, start, out);
      return Status::OK();
    }
    out->resize(start);  // not worth it: store raw
  }
  out->append(raw.data(), raw.size());
  AppendTrailer(BlockCodec::kNone, start, out);
  return Status::OK();
}

Status WriteBlock(const Slice& raw, const BlockCompressor& compressor, std::string* out) {
  ByteBuffer stored;
  Status s = WriteBlock(raw, compressor, &stored);
  if (s.ok()) out->append(stored.data(), stored.size());
  return s;
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
