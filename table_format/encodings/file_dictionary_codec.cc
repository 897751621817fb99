// file_dictionary: codes into the table file's dictionary of the column (file_dictionary.h,
// which describes the body). Only the chunk layer can write or read it, since it needs the
// file's dictionary; as a stand-alone codec it refuses to encode (a request falls back to
// plain) and to decode (a chunk that needs a dictionary it was not given is Corruption). auto
// never proposes it: the chunk layer weighs it itself when the file has dictionaries.
#include "table_format/encodings/codec.h"

namespace columnar {

namespace {

bool Supports(PhysicalType type) { return type == PhysicalType::kBytes; }

Status Encode(const ColumnVector& /*values*/, std::string* /*out*/) {
  return Status::InvalidArgument("file_dictionary: needs the file's dictionary");
}

Status Decode(PhysicalType /*type*/, const Slice& /*body*/, size_t /*count*/,
              ColumnVector* /*out*/) {
  return Status::Corruption("file_dictionary: chunk read without the file's dictionary");
}

}  // namespace

const Codec& FileDictionaryCodec() {
  static const Codec codec{Encoding::kFileDictionary, "file_dictionary", Supports, Encode, Decode};
  return codec;
}

}  // namespace columnar
