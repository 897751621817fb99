#include "table_api/parquet/thrift_compact.h"

namespace columnar {
namespace parquet {

void ThriftCompactWriter::Varint(uint64_t value) {
  while (value >= 0x80) {
    out_->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out_->push_back(static_cast<char>(value));
}

void ThriftCompactWriter::FieldHeader(int16_t id, Type type) {
  const int delta = id - field_ids_.back();
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | type));
  } else {
    out_->push_back(static_cast<char>(type));
    Varint(ZigZag(id));
  }
  field_ids_.back() = id;
}

void ThriftCompactWriter::I32Field(int16_t id, int32_t value) {
  FieldHeader(id, kI32);
  Varint(ZigZag(value));
}

void ThriftCompactWriter::I64Field(int16_t id, int64_t value) {
  FieldHeader(id, kI64);
  Varint(ZigZag(value));
}

void ThriftCompactWriter::ByteField(int16_t id, int8_t value) {
  FieldHeader(id, kByte);
  out_->push_back(static_cast<char>(value));
}

void ThriftCompactWriter::BoolField(int16_t id, bool value) {
  FieldHeader(id, value ? kBoolTrue : kBoolFalse);
}

void ThriftCompactWriter::BinaryField(int16_t id, const std::string& value) {
  FieldHeader(id, kBinary);
  BinaryElement(value);
}

void ThriftCompactWriter::BeginStructField(int16_t id) {
  FieldHeader(id, kStruct);
  field_ids_.push_back(0);
}

void ThriftCompactWriter::EndStruct() {
  out_->push_back(0);
  field_ids_.pop_back();
}

void ThriftCompactWriter::BeginListField(int16_t id, Type element_type, size_t size) {
  FieldHeader(id, kList);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | element_type));
  } else {
    out_->push_back(static_cast<char>(0xF0 | element_type));
    Varint(size);
  }
}

void ThriftCompactWriter::BeginStructElement() { field_ids_.push_back(0); }

void ThriftCompactWriter::I32Element(int32_t value) { Varint(ZigZag(value)); }

void ThriftCompactWriter::I64Element(int64_t value) { Varint(ZigZag(value)); }

void ThriftCompactWriter::BoolElement(bool value) {
  out_->push_back(static_cast<char>(value ? kBoolTrue : kBoolFalse));
}

void ThriftCompactWriter::BinaryElement(const std::string& value) {
  Varint(value.size());
  out_->append(value);
}

void ThriftCompactWriter::Finish() { out_->push_back(0); }

}  // namespace parquet
}  // namespace columnar
