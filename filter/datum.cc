#include "filter/datum.h"

#include <cstring>

namespace columnar {

namespace {

bool IsPrintableText(const std::string& bytes) {
  for (unsigned char c : bytes) {
    if (c < 0x20 || c >= 0x7f) return false;
  }
  return true;
}

}  // namespace

Datum Datum::Fixed(PhysicalType type, uint64_t bits) {
  Datum d;
  d.type = type;
  d.bits = FixedWidth(type) == 4 ? (bits & 0xffffffffu) : bits;
  return d;
}

Datum Datum::Bytes(std::string bytes) {
  Datum d;
  d.type = PhysicalType::kBytes;
  d.bytes = std::move(bytes);
  return d;
}

Datum Datum::FromValue(const Value& value) {
  const PhysicalType type = PhysicalTypeOfLogical(value.type());
  if (type == PhysicalType::kBytes) return Bytes(value.bytes());
  return Fixed(type, value.FixedBits());
}

Datum Datum::FromColumn(const ColumnVector& column, size_t row) {
  switch (column.type()) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat32: {
      uint32_t bits;
      std::memcpy(&bits, column.fixed_bytes() + row * 4, 4);
      return Fixed(column.type(), bits);
    }
    case PhysicalType::kInt64:
    case PhysicalType::kFloat64: {
      uint64_t bits;
      std::memcpy(&bits, column.fixed_bytes() + row * 8, 8);
      return Fixed(column.type(), bits);
    }
    case PhysicalType::kBytes:
      return Bytes(column.GetBytes(row).ToString());
  }
  return Datum();
}

Value Datum::ToValue(LogicalType logical) const {
  if (type == PhysicalType::kBytes) return Value::FromBytes(logical, bytes);
  return Value::FromFixedBits(logical, bits);
}

std::string Datum::ToString() const {
  switch (type) {
    case PhysicalType::kInt32:
      return ToValue(LogicalType::kInt).ToCqlLiteral();
    case PhysicalType::kInt64:
      return ToValue(LogicalType::kBigInt).ToCqlLiteral();
    case PhysicalType::kFloat32:
      return ToValue(LogicalType::kFloat).ToCqlLiteral();
    case PhysicalType::kFloat64:
      return ToValue(LogicalType::kDouble).ToCqlLiteral();
    case PhysicalType::kBytes:
      return ToValue(IsPrintableText(bytes) ? LogicalType::kText : LogicalType::kBlob)
          .ToCqlLiteral();
  }
  return "?";
}

// Also when the first 8 bytes of both are equal (comparing them again costs little).
int CompareBytesAfterPrefix(const Slice& a, const Slice& b) {
  const size_t common = a.size() < b.size() ? a.size() : b.size();
  const int order = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
  if (order != 0) return order;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

int CompareDatums(const Datum& a, const Datum& b) {
  if (a.type == PhysicalType::kBytes) return CompareBytes(a.bytes, b.bytes);
  const uint64_t ka = FixedOrderKey(a.type, a.bits);
  const uint64_t kb = FixedOrderKey(b.type, b.bits);
  return ka < kb ? -1 : (ka > kb ? 1 : 0);
}

bool operator==(const Datum& a, const Datum& b) {
  return a.type == b.type && a.bits == b.bits && a.bytes == b.bytes;
}

}  // namespace columnar
