// An in-memory model of one table for the Table API differential tests: the rows by encoded
// key, with the semantics of table.h and select_query.h written out directly (typed
// comparisons for clustering restrictions instead of encoded key ranges, a naive evaluator of
// ALLOW FILTERING predicates instead of filter/), so both table formats are checked against
// something that does not share the API's read path. A copy is the model of a snapshot.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "filter/compare_op.h"
#include "filter/predicate.h"
#include "table_api/database.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"

namespace columnar {
namespace test {

// A selected column as the model sees it.
struct ModelSelector {
  enum class Kind { kColumn, kWriteTime, kTtl };
  Kind kind = Kind::kColumn;
  std::string column;

  std::string Text() const {
    switch (kind) {
      case Kind::kWriteTime:
        return "writetime(" + column + ")";
      case Kind::kTtl:
        return "ttl(" + column + ")";
      default:
        return column;
    }
  }
};

class TableModel {
 public:
  void Insert(const TableSchema& schema, const Row& row, const RowWriteOptions& options,
              int64_t now_micros) {
    Entry entry;
    for (uint32_t id : schema.partition_key()) entry.partition.push_back(row[id]);
    for (uint32_t id : schema.clustering_key()) entry.clustering.push_back(row[id]);
    entry.values = row;
    const int64_t now_seconds = FloorSeconds(now_micros);
    entry.write_time = options.write_time_micros.value_or(now_micros);
    if (options.expiry_seconds.has_value()) {
      entry.expiry = *options.expiry_seconds;
    } else if (options.ttl_seconds.has_value()) {
      if (*options.ttl_seconds > 0) entry.expiry = now_seconds + *options.ttl_seconds;
    } else if (schema.options().default_time_to_live > 0) {
      entry.expiry = now_seconds + schema.options().default_time_to_live;
    }
    std::string key;
    EXPECT_TRUE(EncodeKey(schema, entry.partition, entry.clustering, &key).ok());
    rows_[key] = std::move(entry);
  }

  void DeleteRow(const TableSchema& schema, const std::vector<Value>& partition,
                 const std::vector<Value>& clustering) {
    std::string key;
    EXPECT_TRUE(EncodeKey(schema, partition, clustering, &key).ok());
    rows_.erase(key);
  }

  void DeletePartition(const TableSchema& schema, const std::vector<Value>& partition) {
    const std::string prefix = PartitionPrefix(schema, partition);
    auto it = rows_.lower_bound(prefix);
    while (it != rows_.end() && it->first.compare(0, prefix.size(), prefix) == 0) {
      it = rows_.erase(it);
    }
  }

  // The rows `query` selects at `now_micros`; `selectors` describe query.columns (empty: all).
  ResultSet Select(const TableSchema& schema, const SelectQuery& query,
                   const std::vector<ModelSelector>& selectors, int64_t now_micros) const {
    const int64_t now_seconds = FloorSeconds(now_micros);
    const std::vector<ModelSelector> columns = selectors.empty() ? AllColumns(schema) : selectors;
    ResultSet result;
    for (const ModelSelector& selector : columns) {
      result.column_names.push_back(selector.Text());
      result.column_types.push_back(TypeOf(schema, selector));
    }
    for (const std::string& prefix : PartitionPrefixes(schema, query)) {
      std::vector<const Entry*> rows;
      for (auto it = rows_.lower_bound(prefix);
           it != rows_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
        if (Live(it->second, now_seconds) && Matches(it->second, query) &&
            (!query.filter.has_value() || FilterMatches(schema, *query.filter, it->second))) {
          rows.push_back(&it->second);
        }
      }
      if (query.reversed) std::reverse(rows.begin(), rows.end());
      for (const Entry* row : rows) {
        if (query.limit != 0 && result.rows.size() >= query.limit) return result;
        result.rows.push_back(Project(schema, *row, columns, now_seconds));
      }
    }
    return result;
  }

  size_t size() const { return rows_.size(); }

 private:
  struct Entry {
    std::vector<Value> partition;
    std::vector<Value> clustering;
    Row values;  // by column id, as written
    int64_t write_time = 0;
    std::optional<int64_t> expiry;
  };

  static int64_t FloorSeconds(int64_t micros) {
    return micros / 1000000 - (micros % 1000000 < 0 ? 1 : 0);
  }

  static std::string PartitionPrefix(const TableSchema& schema, const std::vector<Value>& values) {
    std::string prefix;
    EXPECT_TRUE(EncodePartitionKey(schema, values, &prefix).ok());
    return prefix;
  }

  // Encoded partition keys of the query, ascending, once each.
  static std::vector<std::string> PartitionPrefixes(const TableSchema& schema,
                                                    const SelectQuery& query) {
    std::vector<std::string> prefixes;
    if (query.partition_key.empty()) return {std::string()};  // the whole table
    for (const Value& last : query.partition_key.back()) {
      std::vector<Value> values;
      for (size_t i = 0; i + 1 < query.partition_key.size(); i++) {
        values.push_back(query.partition_key[i][0]);
      }
      values.push_back(last);
      prefixes.push_back(PartitionPrefix(schema, values));
    }
    std::sort(prefixes.begin(), prefixes.end());
    prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
    return prefixes;
  }

  static bool Live(const Entry& row, int64_t now_seconds) {
    return !row.expiry.has_value() || *row.expiry > now_seconds;
  }

  static bool Matches(const Entry& row, const SelectQuery& query) {
    const size_t fixed = query.clustering_prefix.size();
    for (size_t i = 0; i < fixed; i++) {
      if (CompareValues(row.clustering[i], query.clustering_prefix[i]) != 0) return false;
    }
    if (query.lower_bound.has_value()) {
      const int c = CompareValues(row.clustering[fixed], query.lower_bound->value);
      if (c < 0 || (c == 0 && !query.lower_bound->inclusive)) return false;
    }
    if (query.upper_bound.has_value()) {
      const int c = CompareValues(row.clustering[fixed], query.upper_bound->value);
      if (c > 0 || (c == 0 && !query.upper_bound->inclusive)) return false;
    }
    return true;
  }

  // predicate.h's semantics read literally: a comparison or IN with a null cell is false, IS
  // [NOT] NULL tests presence, values are ordered by CompareValues. Literals have the column's
  // type (the tests generate them so).
  static bool FilterMatches(const TableSchema& schema, const Predicate& predicate,
                            const Entry& row) {
    switch (predicate.kind) {
      case Predicate::Kind::kAnd:
        for (const Predicate& child : predicate.children) {
          if (!FilterMatches(schema, child, row)) return false;
        }
        return true;
      case Predicate::Kind::kOr:
        for (const Predicate& child : predicate.children) {
          if (FilterMatches(schema, child, row)) return true;
        }
        return false;
      default:
        break;
    }
    const ColumnDef* column = schema.FindColumn(predicate.column);
    EXPECT_NE(column, nullptr) << predicate.column;
    if (column == nullptr) return false;
    const Value cell = column->id < row.values.size() ? row.values[column->id] : Value();
    switch (predicate.kind) {
      case Predicate::Kind::kIsNull:
        return cell.is_null();
      case Predicate::Kind::kIsNotNull:
        return !cell.is_null();
      case Predicate::Kind::kIn:
        if (cell.is_null()) return false;
        for (const Value& value : predicate.in_list) {
          if (CompareValues(cell, value) == 0) return true;
        }
        return false;
      default:
        break;
    }
    if (cell.is_null()) return false;
    return OrderSatisfies(predicate.op, CompareValues(cell, predicate.literal));
  }

  static std::vector<ModelSelector> AllColumns(const TableSchema& schema) {
    std::vector<ModelSelector> all;
    for (uint32_t id : schema.partition_key()) all.push_back({{}, schema.columns()[id].name});
    for (uint32_t id : schema.clustering_key()) all.push_back({{}, schema.columns()[id].name});
    for (uint32_t id : schema.LiveRegularColumns()) all.push_back({{}, schema.columns()[id].name});
    return all;
  }

  static LogicalType TypeOf(const TableSchema& schema, const ModelSelector& selector) {
    switch (selector.kind) {
      case ModelSelector::Kind::kWriteTime:
        return LogicalType::kBigInt;
      case ModelSelector::Kind::kTtl:
        return LogicalType::kInt;
      default:
        return schema.FindColumn(selector.column)->type;
    }
  }

  static Row Project(const TableSchema& schema, const Entry& row,
                     const std::vector<ModelSelector>& columns, int64_t now_seconds) {
    Row out;
    for (const ModelSelector& selector : columns) {
      const ColumnDef& column = *schema.FindColumn(selector.column);
      const Value value = column.id < row.values.size() ? row.values[column.id] : Value();
      switch (selector.kind) {
        case ModelSelector::Kind::kColumn:
          out.push_back(value);
          break;
        case ModelSelector::Kind::kWriteTime:
          out.push_back(value.is_null() ? Value() : Value::BigInt(row.write_time));
          break;
        case ModelSelector::Kind::kTtl:
          out.push_back(value.is_null() || !row.expiry.has_value()
                            ? Value()
                            : Value::Int(static_cast<int32_t>(*row.expiry - now_seconds)));
          break;
      }
    }
    return out;
  }

  std::map<std::string, Entry> rows_;
};

}  // namespace test
}  // namespace columnar
