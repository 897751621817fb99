#include "table_format/zstd_codec.h"

// The fastCover trainer with explicit parameters is in zdict.h's static-linking section; the
// shared libzstd exports it.
#define ZDICT_STATIC_LINKING_ONLY
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_c_forceAttachDict
#include <zdict.h>
#include <zstd.h>

namespace columnar {

namespace {

// fastCover's segment and d-mer sizes. ZDICT_trainFromBuffer (RocksDB's choice, and ours
// before) tries five segment sizes from 50 to 1998 bytes, each trained on 75% of the samples,
// finalised and measured on the rest: 11% of the instructions of an access16 C-dict flush and
// compaction. One training at 1024 on all the samples costs a fifth of that; files came out
// 0.02-0.15% smaller on small runs and up to 0.19% larger on the quick preset's access16
// (docs/results/filecost3).
constexpr unsigned kTrainSegmentBytes = 1024;
constexpr unsigned kTrainDmerBytes = 8;
// fastCover's acceleration (1..10): 4 counts every fourth d-mer's frequency and finalises on a
// quarter of the samples. Training an access16 C-dict rewrite's dictionary took 620.5M of its
// 5,911M instructions at the default 1 and 344.1M at 4; the files came out within 0.05% of
// the same size on access16, devops and metrics (docs/results/filecost18).
constexpr unsigned kTrainAcceleration = 4;

struct CCtxHolder {
  ZSTD_CCtx* ctx = ZSTD_createCCtx();
  ~CCtxHolder() { ZSTD_freeCCtx(ctx); }
};

struct DCtxHolder {
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  ~DCtxHolder() { ZSTD_freeDCtx(ctx); }
};

ZSTD_CCtx* ThreadCCtx() {
  thread_local CCtxHolder holder;
  return holder.ctx;
}

ZSTD_DCtx* ThreadDCtx() {
  thread_local DCtxHolder holder;
  return holder.ctx;
}

}  // namespace

ZstdDictionary::ZstdDictionary(const Slice& raw, int level, Use use)
    : raw_(raw.ToString()), use_(use) {
  if ((use & kCompress) != 0) cdict_ = ZSTD_createCDict(raw_.data(), raw_.size(), level);
  if ((use & kDecompress) != 0) ddict_ = ZSTD_createDDict(raw_.data(), raw_.size());
}

ZstdDictionary::~ZstdDictionary() {
  ZSTD_freeCDict(cdict_);
  ZSTD_freeDDict(ddict_);
}

size_t ZstdCompressBound(size_t input_size) { return ZSTD_compressBound(input_size); }

Status ZstdCompressTo(const Slice& input, int level, const ZstdDictionary* dict, char* dest,
                      size_t capacity, size_t* written) {
  // Referencing a null digest would silently compress without the dictionary.
  if (dict != nullptr && dict->cdict() == nullptr) {
    return Status::InvalidArgument("zstd: dictionary not built for compression");
  }
  ZSTD_CCtx* ctx = ThreadCCtx();
  if (ctx == nullptr) return Status::MemoryLimit("zstd: cannot create a compression context");
  size_t result;
  if (dict != nullptr) {
    // Attached, not copied: zstd copies a dictionary's match tables into the context for inputs
    // over 16 KiB at level 3 (our blocks are whole row groups, often just over), which cost a
    // C-dict access16 rewrite 2% of its CPU (farm-bench); the frames differ by a few bytes a file.
    ZSTD_CCtx_reset(ctx, ZSTD_reset_session_and_parameters);
    // A speed hint only: a libzstd without it copies, and the frame is as valid.
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_forceAttachDict, ZSTD_dictForceAttach);
    result = ZSTD_CCtx_refCDict(ctx, dict->cdict());
    if (!ZSTD_isError(result)) {
      result = ZSTD_compress2(ctx, dest, capacity, input.data(), input.size());
    }
    // Drops the context's reference to the dictionary, which may be freed before its next use.
    ZSTD_CCtx_reset(ctx, ZSTD_reset_session_and_parameters);
  } else {
    result = ZSTD_compressCCtx(ctx, dest, capacity, input.data(), input.size(), level);
  }
  if (ZSTD_isError(result)) {
    return Status::Corruption(std::string("zstd compression failed: ") + ZSTD_getErrorName(result));
  }
  *written = result;
  return Status::OK();
}

Status ZstdCompress(const Slice& input, int level, const ZstdDictionary* dict, std::string* out) {
  const size_t bound = ZstdCompressBound(input.size());
  const size_t start = out->size();
  out->resize(start + bound);
  size_t written = 0;
  Status s = ZstdCompressTo(input, level, dict, &(*out)[start], bound, &written);
  out->resize(s.ok() ? start + written : start);
  return s;
}

Status ZstdDecompress(const Slice& input, const ZstdDictionary* dict, char* out,
                      size_t raw_length) {
  if (dict != nullptr && dict->ddict() == nullptr) {
    return Status::InvalidArgument("zstd: dictionary not built for decompression");
  }
  ZSTD_DCtx* ctx = ThreadDCtx();
  if (ctx == nullptr) return Status::MemoryLimit("zstd: cannot create a decompression context");
  size_t got;
  if (dict != nullptr) {
    got =
        ZSTD_decompress_usingDDict(ctx, out, raw_length, input.data(), input.size(), dict->ddict());
  } else {
    got = ZSTD_decompressDCtx(ctx, out, raw_length, input.data(), input.size());
  }
  if (ZSTD_isError(got)) {
    return Status::Corruption(std::string("zstd decompression failed: ") + ZSTD_getErrorName(got));
  }
  if (got != raw_length) return Status::Corruption("zstd frame has the wrong decompressed length");
  return Status::OK();
}

uint64_t ZstdFrameContentSize(const Slice& frame) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR) return UINT64_MAX;
  return size;
}

uint64_t ZstdMaxDecompressedSize(const Slice& frames) {
  constexpr uint64_t kMinBlockBytes = 4;
  constexpr uint64_t kMaxBlockOutput = 128 << 10;  // ZSTD_BLOCKSIZE_MAX
  return (frames.size() / kMinBlockBytes + 1) * kMaxBlockOutput;
}

Status TrainZstdDictionary(const std::vector<Slice>& samples, size_t max_bytes, std::string* dict) {
  dict->clear();
  if (samples.size() < 8 || max_bytes == 0) return Status::OK();
  std::string concatenated;
  std::vector<size_t> sizes;
  sizes.reserve(samples.size());
  for (const Slice& s : samples) {
    concatenated.append(s.data(), s.size());
    sizes.push_back(s.size());
  }
  dict->resize(max_bytes);
  ZDICT_fastCover_params_t params{};  // f and split point: the trainer's defaults
  params.k = kTrainSegmentBytes;
  params.d = kTrainDmerBytes;
  params.accel = kTrainAcceleration;
  params.zParams.compressionLevel = ZSTD_CLEVEL_DEFAULT;  // as ZDICT_trainFromBuffer's
  const size_t got =
      ZDICT_trainFromBuffer_fastCover(&(*dict)[0], max_bytes, concatenated.data(), sizes.data(),
                                      static_cast<unsigned>(sizes.size()), params);
  if (ZDICT_isError(got)) {
    // Too little or too uniform input: compress without a dictionary.
    dict->clear();
    return Status::OK();
  }
  dict->resize(got);
  return Status::OK();
}

}  // namespace columnar
