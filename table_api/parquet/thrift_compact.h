// ThriftCompactWriter: the Thrift compact protocol, write side only, for the few structs of a
// Parquet footer and page headers (parquet_metadata.h). Byte layout:
//
//   field header  one byte (field-id delta << 4 | type) when the id grows by 1..15 from the
//                 previous field of the same struct, else the type byte then the id as a
//                 zigzag varint; booleans carry their value in the type (1 true, 2 false)
//   i16/i32/i64   zigzag varint (ULEB128 of (n << 1) ^ (n >> 63))
//   binary        varint length, then the bytes
//   bool element  one byte, 1 true or 2 false (in a list<bool>, element type kBoolTrue)
//   list          one byte (size << 4 | element type) when size < 15, else
//                 (0xF0 | element type) then the size as a varint; then the elements
//   struct        its fields, then a stop byte 0x00 (field ids restart in a nested struct)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace columnar {
namespace parquet {

class ThriftCompactWriter {
 public:
  enum Type : uint8_t {
    kBoolTrue = 1,
    kBoolFalse = 2,
    kByte = 3,
    kI16 = 4,
    kI32 = 5,
    kI64 = 6,
    kDouble = 7,
    kBinary = 8,
    kList = 9,
    kStruct = 12,
  };

  explicit ThriftCompactWriter(std::string* out) : out_(out) { field_ids_.push_back(0); }

  void I32Field(int16_t id, int32_t value);
  void I64Field(int16_t id, int64_t value);
  void ByteField(int16_t id, int8_t value);
  void BoolField(int16_t id, bool value);
  void BinaryField(int16_t id, const std::string& value);
  // A struct field: its fields follow, then EndStruct().
  void BeginStructField(int16_t id);
  void EndStruct();
  // A list field; then `size` elements of `element_type` (Element* for scalars, BeginStruct /
  // EndStruct for structs).
  void BeginListField(int16_t id, Type element_type, size_t size);
  void BeginStructElement();
  void I32Element(int32_t value);
  void I64Element(int64_t value);
  // A list<bool> element: one byte, 1 true, 2 false (list header type kBoolTrue).
  void BoolElement(bool value);
  void BinaryElement(const std::string& value);
  // Ends the outermost struct (the message itself) with its stop byte.
  void Finish();

 private:
  void FieldHeader(int16_t id, Type type);
  void Varint(uint64_t value);
  static uint64_t ZigZag(int64_t value) {
    return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  }

  std::string* out_;
  std::vector<int16_t> field_ids_;  // the last field id of each open struct
};

}  // namespace parquet
}  // namespace columnar
