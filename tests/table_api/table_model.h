// An in-memory model of one table for the Table API differential tests: the rows by encoded
// key, with the semantics of table.h and select_query.h written out directly (typed
// comparisons for clustering restrictions instead of encoded key ranges, a naive evaluator of
// ALLOW FILTERING predicates instead of filter/), so both table formats are checked against
// something that does not share the API's read path. A copy is the model of a snapshot.
#pragma once

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
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

// Cassandra's write semantics, written out from shared/notes/cassandra-semantics.md (not from
// the code): a row is a set of cells, each with its write timestamp and expiry; INSERT and
// UPDATE set the cells they name; per cell the higher timestamp wins, ties as the notes say
// (deletion, then expiring, later expiry, then the greater value as Cassandra serializes it);
// INSERT also writes the row liveness; a row deletion at t hides what is at or below t. Two
// choices of this store (docs/cell_semantics.md) are modelled too: the server clock of each
// write call is max(now, previous + 1) microseconds, expired cells neither show nor shadow
// (they are purged at once on one node; a null written with a TTL expires with it), TTLs are
// not compared on ties (only expiries; between two deletions the longer-lasting wins). A
// partition deletion hides what is written at or below its timestamp, also later (the tests
// keep gc_grace_seconds longer than they run).
class TableModel {
 public:
  // One write call (a statement or batch): every write without its own timestamp gets the same
  // server timestamp.
  void Write(const TableSchema& schema, const std::vector<RowWrite>& writes, int64_t now_micros) {
    const int64_t server_time = NextServerTime(now_micros);
    for (const RowWrite& write : writes) Apply(schema, write, server_time, now_micros);
  }

  void Insert(const TableSchema& schema, const Row& row, const RowWriteOptions& options,
              int64_t now_micros) {
    Write(schema, {RowWrite(row, options)}, now_micros);
  }

  void DeleteRow(const TableSchema& schema, const std::vector<Value>& partition,
                 const std::vector<Value>& clustering, int64_t now_micros,
                 std::optional<int64_t> timestamp = std::nullopt) {
    RowWrite write(KeyRow(schema, partition, clustering));
    write.kind = WriteKind::kDeleteRow;
    write.options.write_time_micros = timestamp;
    Write(schema, {write}, now_micros);
  }

  // A partition deletion at `timestamp` (or the server clock): hides what is written at or
  // below it, now and in writes that arrive later (Cassandra's rule).
  void DeletePartition(const TableSchema& schema, const std::vector<Value>& partition,
                       int64_t now_micros, std::optional<int64_t> timestamp = std::nullopt) {
    const int64_t time = timestamp.has_value() ? *timestamp : NextServerTime(now_micros);
    const std::string prefix = PartitionPrefix(schema, partition);
    int64_t& deletion = partition_deletions_.try_emplace(prefix, time).first->second;
    deletion = std::max(deletion, time);
    auto it = rows_.lower_bound(prefix);
    while (it != rows_.end() && it->first.compare(0, prefix.size(), prefix) == 0) {
      HideAtOrBefore(time, &it->second);
      it = Empty(it->second) ? rows_.erase(it) : std::next(it);
    }
  }

  // The database was reopened: the server clock is monotonic within a process only (after a
  // reopen it starts again from the clock's now).
  void Reopened() { last_server_time_ = INT64_MIN; }

  static Row KeyRow(const TableSchema& schema, const std::vector<Value>& partition,
                    const std::vector<Value>& clustering) {
    Row row(schema.columns().size());
    for (size_t i = 0; i < partition.size(); i++) row[schema.partition_key()[i]] = partition[i];
    for (size_t i = 0; i < clustering.size(); i++) row[schema.clustering_key()[i]] = clustering[i];
    return row;
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
        if (Live(schema, it->second, now_seconds) && Matches(it->second, query) &&
            (!query.filter.has_value() ||
             FilterMatches(schema, *query.filter, it->second, now_seconds))) {
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
  struct Cell {
    bool deleted = false;
    int64_t time = 0;
    std::optional<int64_t> expiry;  // a null written with a TTL expires with it too
    Value value;
  };
  struct Liveness {
    int64_t time = 0;
    std::optional<int64_t> expiry;
  };
  struct Entry {
    std::vector<Value> partition;
    std::vector<Value> clustering;
    std::optional<Liveness> liveness;
    std::optional<int64_t> deletion;  // hides cells and liveness at or below it
    std::map<uint32_t, Cell> cells;   // by column id; no entry = no cell
  };

  int64_t NextServerTime(int64_t now_micros) {
    last_server_time_ = last_server_time_ == INT64_MIN || now_micros > last_server_time_
                            ? now_micros
                            : last_server_time_ + 1;
    return last_server_time_;
  }

  // Cassandra's serialization: big-endian for fixed-width types, the bytes otherwise.
  static std::string Serialized(const Value& value) {
    if (IsBytesType(value.type()) || value.type() == LogicalType::kUuid) return value.bytes();
    const size_t width =
        value.type() == LogicalType::kBoolean ? 1 : EncodedFixedWidth(value.type());
    std::string out;
    for (size_t i = width; i-- > 0;) out.push_back(static_cast<char>(value.FixedBits() >> (8 * i)));
    return out;
  }

  // Whether `a` wins over `b` (the notes' rule; TTLs are not stored, so not compared).
  static bool Wins(const Cell& a, const Cell& b) {
    if (a.time != b.time) return a.time > b.time;
    if (a.deleted != b.deleted) return a.deleted;
    if (a.deleted) {  // this store's choice: the longer-lasting deletion
      if (a.expiry.has_value() != b.expiry.has_value()) return !a.expiry.has_value();
      return a.expiry.has_value() && *a.expiry > *b.expiry;
    }
    if (a.expiry.has_value() != b.expiry.has_value()) return a.expiry.has_value();
    if (a.expiry.has_value() && *a.expiry != *b.expiry) return *a.expiry > *b.expiry;
    const std::string x = Serialized(a.value), y = Serialized(b.value);
    return std::lexicographical_compare(y.begin(), y.end(), x.begin(), x.end(), [](char l, char r) {
      return static_cast<uint8_t>(l) < static_cast<uint8_t>(r);
    });
  }

  static bool LivenessWins(const Liveness& a, const Liveness& b) {
    if (a.time != b.time) return a.time > b.time;
    if (a.expiry.has_value() != b.expiry.has_value()) return a.expiry.has_value();
    return a.expiry.has_value() && *a.expiry > *b.expiry;
  }

  static bool Expired(const std::optional<int64_t>& expiry, int64_t now_seconds) {
    return expiry.has_value() && *expiry <= now_seconds;
  }

  void Apply(const TableSchema& schema, const RowWrite& write, int64_t server_time,
             int64_t now_micros) {
    const RowWriteOptions& options = write.options;
    const int64_t now_seconds = FloorSeconds(now_micros);
    const int64_t time = options.write_time_micros.value_or(server_time);
    std::optional<int64_t> expiry;
    if (options.expiry_seconds.has_value()) {
      expiry = *options.expiry_seconds;
    } else if (options.ttl_seconds.has_value()) {
      if (*options.ttl_seconds > 0) expiry = now_seconds + *options.ttl_seconds;
    } else if (schema.options().default_time_to_live > 0) {
      expiry = now_seconds + schema.options().default_time_to_live;
    }
    if (write.kind == WriteKind::kDeleteCells || write.kind == WriteKind::kDeleteRow) {
      expiry.reset();  // deletions take no TTL
    }
    std::vector<Value> partition, clustering;
    for (uint32_t id : schema.partition_key()) partition.push_back(write.values[id]);
    for (uint32_t id : schema.clustering_key()) clustering.push_back(write.values[id]);
    std::string key;
    EXPECT_TRUE(EncodeKey(schema, partition, clustering, &key).ok());
    Entry& entry = rows_[key];
    entry.partition = partition;
    entry.clustering = clustering;
    // Expired cells are gone: they neither show nor shadow.
    if (entry.liveness.has_value() && Expired(entry.liveness->expiry, now_seconds)) {
      entry.liveness.reset();
    }
    for (auto it = entry.cells.begin(); it != entry.cells.end();) {
      it = Expired(it->second.expiry, now_seconds) ? entry.cells.erase(it) : std::next(it);
    }
    if (write.kind == WriteKind::kDeleteRow) {
      entry.deletion = std::max(entry.deletion.value_or(INT64_MIN), time);
    }
    bool whole_row = write.kind == WriteKind::kInsert;
    for (uint32_t id : schema.LiveRegularColumns()) {
      whole_row &= write.named.empty() || (id < write.named.size() && write.named[id]);
    }
    if (whole_row && entry.deletion.has_value() && *entry.deletion < time) {
      // This store's choice: a whole row above a row deletion supersedes it.
      entry.deletion.reset();
    }
    if (write.kind == WriteKind::kInsert) {
      const Liveness liveness{time, expiry};
      if (!entry.liveness.has_value() || LivenessWins(liveness, *entry.liveness)) {
        entry.liveness = liveness;
      }
    }
    if (write.kind != WriteKind::kDeleteRow) {
      for (uint32_t id : schema.LiveRegularColumns()) {
        const bool named = write.named.empty() || (id < write.named.size() && write.named[id]);
        if (!named) continue;
        Cell cell;
        cell.time = time;
        cell.value = id < write.values.size() ? write.values[id] : Value();
        cell.deleted = cell.value.is_null();
        cell.expiry = expiry;
        auto stored = entry.cells.find(id);
        if (stored == entry.cells.end() || Wins(cell, stored->second)) entry.cells[id] = cell;
      }
    }
    if (entry.deletion.has_value()) {
      if (entry.liveness.has_value() && entry.liveness->time <= *entry.deletion) {
        entry.liveness.reset();
      }
      for (auto it = entry.cells.begin(); it != entry.cells.end();) {
        it = it->second.time <= *entry.deletion ? entry.cells.erase(it) : std::next(it);
      }
    }
    const auto partition_deletion = partition_deletions_.find(PartitionPrefix(schema, partition));
    if (partition_deletion != partition_deletions_.end()) {
      HideAtOrBefore(partition_deletion->second, &entry);
      if (Empty(entry)) rows_.erase(key);
    }
  }

  // What a partition deletion at `time` does to one of its rows.
  static void HideAtOrBefore(int64_t time, Entry* entry) {
    if (entry->liveness.has_value() && entry->liveness->time <= time) entry->liveness.reset();
    if (entry->deletion.has_value() && *entry->deletion <= time) entry->deletion.reset();
    for (auto it = entry->cells.begin(); it != entry->cells.end();) {
      it = it->second.time <= time ? entry->cells.erase(it) : std::next(it);
    }
  }

  static bool Empty(const Entry& entry) {
    return !entry.liveness.has_value() && !entry.deletion.has_value() && entry.cells.empty();
  }

  // A key column's value, or a regular column's live cell value (null when none).
  static Value ValueOf(const TableSchema& schema, const Entry& row, const ColumnDef& column,
                       int64_t now_seconds) {
    for (size_t i = 0; i < schema.partition_key().size(); i++) {
      if (schema.partition_key()[i] == column.id) return row.partition[i];
    }
    for (size_t i = 0; i < schema.clustering_key().size(); i++) {
      if (schema.clustering_key()[i] == column.id) return row.clustering[i];
    }
    const Cell* cell = LiveCell(row, column.id, now_seconds);
    return cell != nullptr ? cell->value : Value();
  }

  // The cell of column `id` when it is live at now_seconds.
  static const Cell* LiveCell(const Entry& row, uint32_t id, int64_t now_seconds) {
    const auto cell = row.cells.find(id);
    if (cell == row.cells.end() || cell->second.deleted ||
        Expired(cell->second.expiry, now_seconds)) {
      return nullptr;
    }
    return &cell->second;
  }

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

  // Returned by reads: live liveness, or some live cell of a column the table still has (a
  // dropped column's cells are gone with it).
  static bool Live(const TableSchema& schema, const Entry& row, int64_t now_seconds) {
    if (row.liveness.has_value() && !Expired(row.liveness->expiry, now_seconds)) return true;
    for (const auto& [id, cell] : row.cells) {
      if (schema.columns()[id].is_live() && !cell.deleted && !Expired(cell.expiry, now_seconds)) {
        return true;
      }
    }
    return false;
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
  static bool FilterMatches(const TableSchema& schema, const Predicate& predicate, const Entry& row,
                            int64_t now_seconds) {
    switch (predicate.kind) {
      case Predicate::Kind::kAnd:
        for (const Predicate& child : predicate.children) {
          if (!FilterMatches(schema, child, row, now_seconds)) return false;
        }
        return true;
      case Predicate::Kind::kOr:
        for (const Predicate& child : predicate.children) {
          if (FilterMatches(schema, child, row, now_seconds)) return true;
        }
        return false;
      default:
        break;
    }
    const ColumnDef* column = schema.FindColumn(predicate.column);
    EXPECT_NE(column, nullptr) << predicate.column;
    if (column == nullptr) return false;
    const Value cell = ValueOf(schema, row, *column, now_seconds);
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
      if (column.is_key()) {
        out.push_back(ValueOf(schema, row, column, now_seconds));
        continue;
      }
      const Cell* cell = LiveCell(row, column.id, now_seconds);
      switch (selector.kind) {
        case ModelSelector::Kind::kColumn:
          out.push_back(cell != nullptr ? cell->value : Value());
          break;
        case ModelSelector::Kind::kWriteTime:
          out.push_back(cell == nullptr ? Value() : Value::BigInt(cell->time));
          break;
        case ModelSelector::Kind::kTtl:
          out.push_back(cell == nullptr || !cell->expiry.has_value()
                            ? Value()
                            : Value::Int(static_cast<int32_t>(*cell->expiry - now_seconds)));
          break;
      }
    }
    return out;
  }

  std::map<std::string, Entry> rows_;
  // Encoded partition key -> its latest deletion's timestamp.
  std::map<std::string, int64_t> partition_deletions_;
  int64_t last_server_time_ = INT64_MIN;
};

}  // namespace test
}  // namespace columnar
