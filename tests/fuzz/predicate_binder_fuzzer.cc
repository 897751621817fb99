// The predicate binder (filter/binder.h) on predicate trees built from arbitrary bytes over the
// fuzz schema's columns (and unknown or dropped names), with literals of any type, including
// mismatched ones, NaNs and malformed ascii/uuid bytes. Bound predicates are then evaluated on
// rows built from the same bytes (filter/row_matcher.h).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "filter/binder.h"
#include "filter/bound_predicate.h"
#include "filter/predicate.h"
#include "filter/row_matcher.h"
#include "tests/fuzz/fuzz_schema.h"

namespace columnar {
namespace {

Value FuzzValue(FuzzedDataProvider* in) {
  const int kind = in->ConsumeIntegralInRange<int>(0, kNumLogicalTypes);
  if (kind == kNumLogicalTypes) return Value();  // null
  const auto type = static_cast<LogicalType>(kind);
  if (IsBytesType(type)) {
    const size_t length = type == LogicalType::kUuid && in->ConsumeBool()
                              ? 16
                              : in->ConsumeIntegralInRange<size_t>(0, 24);
    return Value::FromBytes(type, in->ConsumeBytesAsString(length));
  }
  uint64_t bits = in->ConsumeIntegral<uint64_t>();
  if (type == LogicalType::kBoolean) bits &= 1;
  if (EncodedFixedWidth(type) == 4) bits &= 0xffffffffu;
  return Value::FromFixedBits(type, bits);
}

std::string FuzzColumn(FuzzedDataProvider* in) {
  const TableSchema& schema = fuzz::FuzzSchema();
  const size_t pick = in->ConsumeIntegralInRange<size_t>(0, schema.columns().size());
  if (pick < schema.columns().size()) return schema.columns()[pick].name;  // dropped ones too
  return in->ConsumeRandomLengthString(12);
}

Predicate FuzzPredicate(FuzzedDataProvider* in, int depth) {
  const int kind = in->ConsumeIntegralInRange<int>(0, depth >= 4 ? 3 : 5);
  switch (kind) {
    case 0:
      return Predicate::Compare(FuzzColumn(in),
                                static_cast<CompareOp>(in->ConsumeIntegralInRange<int>(0, 5)),
                                FuzzValue(in));
    case 1: {
      std::string column = FuzzColumn(in);
      std::vector<Value> values(in->ConsumeIntegralInRange<size_t>(0, 6));
      for (Value& v : values) v = FuzzValue(in);
      return Predicate::In(std::move(column), std::move(values));
    }
    case 2:
      return Predicate::IsNull(FuzzColumn(in));
    case 3:
      return Predicate::IsNotNull(FuzzColumn(in));
    default: {
      std::vector<Predicate> children(in->ConsumeIntegralInRange<size_t>(0, 4));
      for (Predicate& child : children) child = FuzzPredicate(in, depth + 1);
      return kind == 4 ? Predicate::And(std::move(children)) : Predicate::Or(std::move(children));
    }
  }
}

}  // namespace
}  // namespace columnar

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  FuzzedDataProvider in(data, size);
  const Predicate predicate = FuzzPredicate(&in, 0);
  (void)predicate.ToString();
  const TableSchema& schema = fuzz::FuzzSchema();
  BoundPredicate bound;
  if (!Bind(schema, predicate, &bound).ok()) return 0;
  (void)bound.ToString();
  for (uint32_t id : bound.ReferencedColumns()) {
    const ColumnDef* column = schema.ColumnById(id);
    FUZZ_CHECK(column != nullptr && column->is_live());
  }
  // A few rows of well-typed values (or nulls) for the live columns.
  for (int r = 0; r < 4 && in.remaining_bytes() > 0; r++) {
    Row row(schema.next_column_id());
    for (const ColumnDef& column : schema.columns()) {
      if (!column.is_live() || in.ConsumeBool()) continue;
      Value v = FuzzValue(&in);
      if (!v.is_null() && v.type() == column.type &&
          CheckValueForColumn(v, column.type, column.name).ok()) {
        row[column.id] = std::move(v);
      }
    }
    (void)Matches(bound, row);
  }
  return 0;
}
