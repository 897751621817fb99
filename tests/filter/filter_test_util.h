// Shared pieces of the filter tests: a table with one column of every logical type, random
// columns that lean on edge values (via test::RandomValues) and repeat a small pool so that
// equality predicates hit, random predicates over them, and the conversions between rows of
// Values, ColumnVectors and the dictionary form the reader hands the evaluator.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "filter/binder.h"
#include "filter/column_source.h"
#include "filter/datum.h"
#include "filter/predicate.h"
#include "table_format/column_vector.h"
#include "table_format/encoding.h"
#include "table_format/encodings/dictionary.h"
#include "table_format/schema.h"
#include "tests/table_format/random_values.h"

namespace columnar {
namespace test {

// Column ids follow declaration order: pk 0, ck 1, then one regular column per type.
inline TableSchema AllTypesSchema() {
  TableSchemaBuilder builder("ks", "filtered");
  builder.AddColumn("pk", LogicalType::kText).AddColumn("ck", LogicalType::kInt);
  for (LogicalType type : kAllLogicalTypes) {
    builder.AddColumn(std::string("c_") + LogicalTypeName(type), type);
  }
  TableSchema schema;
  EXPECT_TRUE(builder.SetPartitionKey({"pk"}).AddClusteringColumn("ck").Build(&schema).ok());
  return schema;
}

enum class NullPattern { kNone, kAll, kRandom, kAlternating };
inline constexpr NullPattern kAllNullPatterns[] = {NullPattern::kNone, NullPattern::kAll,
                                                   NullPattern::kRandom, NullPattern::kAlternating};

inline bool IsNullRow(NullPattern pattern, size_t row, RandomValues* random) {
  switch (pattern) {
    case NullPattern::kNone:
      return false;
    case NullPattern::kAll:
      return true;
    case NullPattern::kRandom:
      return random->OneIn(3);
    case NullPattern::kAlternating:
      return row % 2 == 1;
  }
  return false;
}

// Long byte strings (for bound truncation) over an alphabet rich in 0x00 and 0xFF.
inline std::string LongBytes(RandomValues* random) {
  static const char kAlphabet[] = {'\x00', '\x01', 'a', 'b', '\x7f', '\xfe', '\xff'};
  std::string out(random->Uniform(48), 'a');
  for (char& c : out) c = kAlphabet[random->Uniform(sizeof(kAlphabet))];
  return out;
}

// A random non-null value of `type`; byte strings are sometimes long.
inline Value RandomValue(LogicalType type, RandomValues* random) {
  if ((type == LogicalType::kText || type == LogicalType::kBlob) && random->OneIn(4)) {
    return Value::FromBytes(type, LongBytes(random));
  }
  return random->Of(type);
}

// A pool of distinct-ish values a column and its predicates share.
inline std::vector<Value> ValuePool(LogicalType type, size_t size, RandomValues* random) {
  std::vector<Value> pool;
  for (size_t i = 0; i < size; i++) pool.push_back(RandomValue(type, random));
  return pool;
}

inline Value PickValue(const std::vector<Value>& pool, LogicalType type, RandomValues* random) {
  if (pool.empty() || random->OneIn(4)) return RandomValue(type, random);
  return pool[random->Uniform(pool.size())];
}

// One column of `rows` cells following `pattern`.
inline std::vector<Value> RandomCells(LogicalType type, size_t rows, NullPattern pattern,
                                      const std::vector<Value>& pool, RandomValues* random) {
  std::vector<Value> cells;
  for (size_t row = 0; row < rows; row++) {
    cells.push_back(IsNullRow(pattern, row, random) ? Value() : PickValue(pool, type, random));
  }
  return cells;
}

inline char* MutableFixedBytes(ColumnVector* column) {
  switch (column->type()) {
    case PhysicalType::kInt32:
      return reinterpret_cast<char*>(column->mutable_data<int32_t>());
    case PhysicalType::kInt64:
      return reinterpret_cast<char*>(column->mutable_data<int64_t>());
    case PhysicalType::kFloat32:
      return reinterpret_cast<char*>(column->mutable_data<float>());
    case PhysicalType::kFloat64:
      return reinterpret_cast<char*>(column->mutable_data<double>());
    case PhysicalType::kBytes:
      break;
  }
  return nullptr;
}

inline ColumnVector ToColumnVector(LogicalType type, const std::vector<Value>& cells) {
  const PhysicalType physical = PhysicalTypeOfLogical(type);
  ColumnVector column(physical);
  if (physical == PhysicalType::kBytes) {
    for (const Value& v : cells) {
      if (v.is_null()) {
        column.AppendNull();
      } else {
        column.AppendBytes(v.bytes());
      }
    }
    return column;
  }
  // Bits are copied as they are: NaN payloads survive.
  column.ResizeFixed(cells.size());
  const size_t width = FixedWidth(physical);
  for (size_t row = 0; row < cells.size(); row++) {
    const uint64_t bits = cells[row].is_null() ? 0 : cells[row].FixedBits();
    std::memcpy(MutableFixedBytes(&column) + row * width, &bits, width);
  }
  for (size_t row = 0; row < cells.size(); row++) {
    if (cells[row].is_null()) column.SetNull(row);
  }
  return column;
}

// A column in the dictionary form the real encoding produces (encodings/dictionary.h).
struct DictionaryColumn {
  ColumnVector dictionary;
  std::vector<uint32_t> codes;
  std::string presence;  // empty when no row is null

  ColumnData Data() const {
    return ColumnData::Dictionary(&dictionary, codes.data(), codes.size(), presence);
  }
};

inline DictionaryColumn ToDictionaryColumn(const ColumnVector& column) {
  DictionaryColumn out;
  ColumnVector dense(column.type());
  for (size_t row = 0; row < column.size(); row++) {
    if (!column.IsNull(row)) dense.AppendFrom(column, row);
  }
  if (column.has_nulls()) {
    out.presence.assign((column.size() + 7) / 8, '\0');
    for (size_t row = 0; row < column.size(); row++) {
      if (!column.IsNull(row)) out.presence[row / 8] |= static_cast<char>(1 << (row % 8));
    }
  }
  std::string body;
  EXPECT_TRUE(EncodeValues(Encoding::kDictionary, dense, &body).ok());
  EXPECT_TRUE(
      DecodeDictionary(column.type(), body, dense.size(), &out.dictionary, &out.codes).ok());
  return out;
}

// Random predicates over the columns of a schema, with literals from each column's pool.
class RandomPredicates {
 public:
  RandomPredicates(const TableSchema& schema, const std::vector<std::vector<Value>>& pools,
                   RandomValues* random)
      : schema_(schema), pools_(pools), random_(random) {}

  Predicate Leaf() {
    const ColumnDef& column = schema_.columns()[random_->Uniform(schema_.columns().size())];
    return LeafOn(column);
  }

  Predicate LeafOn(const ColumnDef& column) {
    const std::vector<Value>& pool = pools_[column.id];
    switch (random_->Uniform(10)) {
      case 0:
        return Predicate::IsNull(column.name);
      case 1:
        return Predicate::IsNotNull(column.name);
      case 2:
      case 3: {
        std::vector<Value> list;
        const size_t size = random_->Uniform(4) == 0 ? random_->Uniform(14) : random_->Uniform(4);
        for (size_t k = 0; k < size; k++) list.push_back(Literal(column, pool));
        return Predicate::In(column.name, list);
      }
      default:
        return Predicate::Compare(column.name, kAllCompareOps[random_->Uniform(6)],
                                  Literal(column, pool));
    }
  }

  // AND / OR trees up to `depth` levels, sometimes several leaves on one column.
  Predicate Tree(int depth) {
    if (depth == 0 || random_->OneIn(3)) return Leaf();
    std::vector<Predicate> children;
    const size_t count = random_->Uniform(4);
    const ColumnDef& shared = schema_.columns()[random_->Uniform(schema_.columns().size())];
    for (size_t i = 0; i < count; i++) {
      children.push_back(random_->OneIn(3) ? LeafOn(shared) : Tree(depth - 1));
    }
    return random_->OneIn(2) ? Predicate::And(children) : Predicate::Or(children);
  }

 private:
  Value Literal(const ColumnDef& column, const std::vector<Value>& pool) {
    Value v = PickValue(pool, column.type, random_);
    // Exercise the binder's widening now and then.
    if (column.type == LogicalType::kBigInt && random_->OneIn(4)) {
      return Value::Int(static_cast<int32_t>(v.int64_value()));
    }
    return v;
  }

  const TableSchema& schema_;
  const std::vector<std::vector<Value>>& pools_;
  RandomValues* random_;
};

// Rows of a table given column by column.
inline std::vector<Row> ToRows(const std::vector<std::vector<Value>>& columns, size_t rows) {
  std::vector<Row> out(rows, Row(columns.size()));
  for (size_t c = 0; c < columns.size(); c++) {
    for (size_t r = 0; r < rows; r++) out[r][c] = columns[c][r];
  }
  return out;
}

inline BoundPredicate MustBind(const TableSchema& schema, const Predicate& predicate) {
  BoundPredicate bound;
  Status s = Bind(schema, predicate, &bound);
  EXPECT_TRUE(s.ok()) << s.ToString() << " for " << predicate.ToString();
  return bound;
}

}  // namespace test
}  // namespace columnar
