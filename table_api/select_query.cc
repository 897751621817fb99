#include "table_api/select_query.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <utility>

#include "filter/binder.h"
#include "filter/row_matcher.h"
#include "table_api/row_scanner.h"
#include "table_format/frozen_type.h"

namespace columnar {
namespace {

std::string Trim(const std::string& text) {
  size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) begin++;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) end--;
  return text.substr(begin, end - begin);
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// "writetime(col)" -> {kWriteTime, "col"}; "ttl(col)" -> {kTtl, "col"}; "col" -> {kRegular,
// "col"} (the caller refines kRegular to a key source).
std::pair<ProjectedColumn::Source, std::string> ParseSelector(const std::string& selector) {
  const std::string trimmed = Trim(selector);
  const std::string lower = Lower(trimmed);
  for (auto [prefix, source] : {std::make_pair("writetime(", ProjectedColumn::Source::kWriteTime),
                                std::make_pair("ttl(", ProjectedColumn::Source::kTtl)}) {
    const size_t length = std::char_traits<char>::length(prefix);
    if (lower.size() > length + 1 && lower.compare(0, length, prefix) == 0 && lower.back() == ')') {
      return {source, Trim(trimmed.substr(length, trimmed.size() - length - 1))};
    }
  }
  return {ProjectedColumn::Source::kRegular, trimmed};
}

size_t KeyPosition(const std::vector<uint32_t>& key, uint32_t id) {
  return static_cast<size_t>(std::find(key.begin(), key.end(), id) - key.begin());
}

ProjectedColumn ColumnProjection(const TableSchema& schema, const ColumnDef& column) {
  ProjectedColumn projected;
  projected.name = column.name;
  projected.type = column.type;
  switch (column.role) {
    case ColumnRole::kPartitionKey:
      projected.source = ProjectedColumn::Source::kPartitionKey;
      projected.index = KeyPosition(schema.partition_key(), column.id);
      break;
    case ColumnRole::kClustering:
      projected.source = ProjectedColumn::Source::kClustering;
      projected.index = KeyPosition(schema.clustering_key(), column.id);
      break;
    case ColumnRole::kRegular:
      projected.source = ProjectedColumn::Source::kRegular;
      projected.index = column.id;
      break;
  }
  return projected;
}

Status ProjectSelector(const TableSchema& schema, const std::string& selector,
                       ProjectedColumn* projected) {
  const auto [source, name] = ParseSelector(selector);
  const ColumnDef* column = schema.FindColumn(name);
  if (column == nullptr) return Status::InvalidArgument("unknown column '" + name + "'");
  if (source == ProjectedColumn::Source::kRegular) {
    *projected = ColumnProjection(schema, *column);
    return Status::OK();
  }
  const bool write_time = source == ProjectedColumn::Source::kWriteTime;
  const std::string function = write_time ? "writetime" : "ttl";
  if (column->is_key()) {
    return Status::InvalidArgument(function + "() is not allowed on primary key column '" +
                                   column->name + "'");
  }
  projected->source = source;
  projected->index = column->id;
  projected->name = function + "(" + column->name + ")";
  projected->type = write_time ? LogicalType::kBigInt : LogicalType::kInt;
  return Status::OK();
}

Status PlanProjection(const TableSchema& schema, const std::vector<std::string>& selectors,
                      std::vector<ProjectedColumn>* columns) {
  columns->clear();
  if (selectors.empty()) {
    for (uint32_t id : schema.partition_key()) {
      columns->push_back(ColumnProjection(schema, schema.columns()[id]));
    }
    for (uint32_t id : schema.clustering_key()) {
      columns->push_back(ColumnProjection(schema, schema.columns()[id]));
    }
    for (uint32_t id : schema.LiveRegularColumns()) {
      columns->push_back(ColumnProjection(schema, schema.columns()[id]));
    }
    return Status::OK();
  }
  for (const std::string& selector : selectors) {
    ProjectedColumn projected;
    Status s = ProjectSelector(schema, selector, &projected);
    if (!s.ok()) return s;
    columns->push_back(std::move(projected));
  }
  return Status::OK();
}

Status CheckPartitionValueCounts(const TableSchema& schema, const SelectQuery& query) {
  const size_t columns = schema.partition_key().size();
  if (query.partition_key.size() != columns) {
    return Status::InvalidArgument(
        "the query restricts " + std::to_string(query.partition_key.size()) +
        " partition key columns; every one of the " + std::to_string(columns) +
        " partition key columns needs a value");
  }
  for (size_t i = 0; i < columns; i++) {
    const std::string& name = schema.partition_column(i).name;
    const size_t count = query.partition_key[i].size();
    if (count == 0) {
      return Status::InvalidArgument("missing value for partition key column '" + name + "'");
    }
  }
  uint64_t product = 1;
  for (const std::vector<Value>& values : query.partition_key) {
    product *= values.size();
    if (product > kMaxPartitionsPerQuery) {
      return Status::InvalidArgument("the IN restrictions of the partition key select more than " +
                                     std::to_string(kMaxPartitionsPerQuery) +
                                     " partitions (their cartesian product)");
    }
  }
  return Status::OK();
}

// Every combination of the partition key columns' values (IN on any of them), in the order
// of the columns' value lists.
std::vector<std::vector<Value>> PartitionKeyCombinations(const SelectQuery& query) {
  std::vector<std::vector<Value>> keys(1);
  for (const std::vector<Value>& values : query.partition_key) {
    std::vector<std::vector<Value>> extended;
    extended.reserve(keys.size() * values.size());
    for (const std::vector<Value>& prefix : keys) {
      for (const Value& value : values) {
        extended.push_back(prefix);
        extended.back().push_back(value);
      }
    }
    keys = std::move(extended);
  }
  return keys;
}

bool IsEmptyRange(const KeyRange& range) {
  return !range.limit_unbounded && range.start >= range.limit;
}

// A query without partition key: the whole table, in key order.
Status PlanWholeTable(const SelectQuery& query, std::vector<PartitionScan>* partitions) {
  if (!query.clustering_prefix.empty() || !query.clustering_in.empty() || query.lower_bound ||
      query.upper_bound) {
    return Status::InvalidArgument(
        "clustering restrictions need the partition key; without it, filter on the clustering "
        "columns instead (ALLOW FILTERING)");
  }
  if (query.reversed) {
    return Status::InvalidArgument(
        "reversed order is only supported when the partition key is given");
  }
  partitions->assign(1, PartitionScan());
  partitions->back().range.limit_unbounded = true;
  return Status::OK();
}

Status PlanPartitions(const TableSchema& schema, const SelectQuery& query,
                      std::vector<PartitionScan>* partitions) {
  if (query.partition_key.empty()) return PlanWholeTable(query, partitions);
  Status s = CheckPartitionValueCounts(schema, query);
  if (!s.ok()) return s;
  if (!query.clustering_in.empty() && (query.lower_bound || query.upper_bound)) {
    return Status::InvalidArgument("IN on a clustering column cannot have bounds too");
  }
  // The clustering prefixes to read in each partition: the prefix, or one per IN value.
  std::vector<std::vector<Value>> prefixes;
  if (query.clustering_in.empty()) prefixes.push_back(query.clustering_prefix);
  for (const Value& value : query.clustering_in) {
    prefixes.push_back(query.clustering_prefix);
    prefixes.back().push_back(value);
  }
  // Sorted by range start: the encoded partition key leads it, so partitions come in key
  // order and the ranges of one partition in clustering order.
  const std::vector<std::vector<Value>> keys = PartitionKeyCombinations(query);
  if (keys.size() * prefixes.size() > kMaxPartitionsPerQuery) {
    return Status::InvalidArgument("the IN restrictions select " +
                                   std::to_string(keys.size() * prefixes.size()) +
                                   " partition and clustering combinations; at most " +
                                   std::to_string(kMaxPartitionsPerQuery) + " are allowed");
  }
  std::vector<PartitionScan> scans;
  for (const std::vector<Value>& key : keys) {
    for (const std::vector<Value>& prefix : prefixes) {
      PartitionScan scan;
      scan.partition_key = key;
      s = EncodeClusteringRange(schema, scan.partition_key, prefix,
                                query.lower_bound ? &*query.lower_bound : nullptr,
                                query.upper_bound ? &*query.upper_bound : nullptr, &scan.range);
      if (!s.ok()) return s;
      scans.push_back(std::move(scan));
    }
  }
  std::sort(scans.begin(), scans.end(), [](const PartitionScan& a, const PartitionScan& b) {
    return a.range.start < b.range.start;
  });
  partitions->clear();
  for (size_t i = 0; i < scans.size(); i++) {
    const bool duplicate = i > 0 && scans[i].range.start == scans[i - 1].range.start;
    if (!duplicate && !IsEmptyRange(scans[i].range)) partitions->push_back(scans[i]);
  }
  return Status::OK();
}

// Seconds left before the row expires (it is live, so at least 1), as CQL's int.
Value SecondsToLive(bool has_expiry, uint64_t expiry_seconds, int64_t now_seconds) {
  if (!has_expiry) return Value();
  const uint64_t now = now_seconds < 0 ? 0 : static_cast<uint64_t>(now_seconds);
  const uint64_t left = expiry_seconds > now ? expiry_seconds - now : 0;
  return Value::Int(static_cast<int32_t>(
      std::min<uint64_t>(left, static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))));
}

}  // namespace

SelectQuery SelectQuery::ForPartition(const std::vector<Value>& partition_values) {
  SelectQuery query;
  for (const Value& value : partition_values) query.partition_key.push_back({value});
  return query;
}

// Binds the filter and lists the regular columns the query reads.
Status PlanFilter(const TableSchema& schema, const SelectQuery& query, SelectPlan* plan) {
  plan->projected_columns.assign(schema.next_column_id(), false);
  for (const ProjectedColumn& column : plan->columns) {
    if (column.source != ProjectedColumn::Source::kPartitionKey &&
        column.source != ProjectedColumn::Source::kClustering) {
      plan->projected_columns[column.index] = true;
    }
  }
  plan->needed_columns = plan->projected_columns;
  if (!query.filter) return Status::OK();
  auto bound = std::make_shared<BoundPredicate>();
  Status s = Bind(schema, *query.filter, bound.get());
  if (!s.ok()) return s;
  for (uint32_t id : bound->ReferencedColumns()) {
    if (id < plan->needed_columns.size()) plan->needed_columns[id] = true;
  }
  plan->filter = std::move(bound);
  return Status::OK();
}

static bool IsIntegerKeyType(LogicalType type) {
  return type == LogicalType::kInt || type == LogicalType::kBigInt ||
         type == LogicalType::kTimestamp || type == LogicalType::kDate;
}

static bool IsNumeric(LogicalType type) {
  return type == LogicalType::kInt || type == LogicalType::kBigInt || type == LogicalType::kFloat ||
         type == LogicalType::kDouble;
}

static const char* FunctionName(Aggregate::Function function) {
  switch (function) {
    case Aggregate::Function::kCount:
      return "count";
    case Aggregate::Function::kMin:
      return "min";
    case Aggregate::Function::kMax:
      return "max";
    case Aggregate::Function::kSum:
      return "sum";
    case Aggregate::Function::kAvg:
      return "avg";
  }
  return "?";
}

// The aggregation of `query`: plan->columns become the group key columns, then the distinct
// aggregate inputs.
static Status PlanAggregation(const TableSchema& schema, const SelectQuery& query,
                              SelectPlan* plan) {
  if (!query.columns.empty()) {
    return Status::InvalidArgument("a query with aggregates selects no other columns");
  }
  const size_t partition_columns = schema.partition_key().size();
  const size_t key_columns = partition_columns + schema.clustering_key().size();
  if (query.group_by > key_columns) {
    return Status::InvalidArgument("GROUP BY names more columns than the primary key has");
  }
  AggregatePlan aggregation;
  aggregation.group_columns = query.group_by;
  plan->columns.clear();
  for (size_t i = 0; i < query.group_by; i++) {
    const uint32_t id = i < partition_columns ? schema.partition_key()[i]
                                              : schema.clustering_key()[i - partition_columns];
    plan->columns.push_back(ColumnProjection(schema, schema.columns()[id]));
  }
  if (query.time_bucket) {
    if (query.group_by != partition_columns + 1 ||
        !IsIntegerKeyType(schema.clustering_column(0).type)) {
      return Status::InvalidArgument(
          "a time bucket applies to the first clustering column (int, bigint, timestamp or "
          "date), as the last GROUP BY column after the partition key");
    }
    if (*query.time_bucket <= 0) return Status::InvalidArgument("time bucket width must be > 0");
    aggregation.bucket_width = query.time_bucket;
  }
  for (const Aggregate& aggregate : query.aggregates) {
    AggregatePlan::Item item;
    item.function = aggregate.function;
    const std::string function = FunctionName(aggregate.function);
    if (aggregate.column.empty()) {
      if (aggregate.function != Aggregate::Function::kCount) {
        return Status::InvalidArgument(function + "() needs a column");
      }
      item.name = "count(*)";
      aggregation.items.push_back(std::move(item));
      continue;
    }
    const ColumnDef* column = schema.FindColumn(aggregate.column);
    if (column == nullptr || !column->is_live()) {
      return Status::InvalidArgument("unknown column '" + aggregate.column + "'");
    }
    if (IsFrozenType(column->type) && aggregate.function != Aggregate::Function::kCount) {
      return Status::InvalidArgument(function + "() is not supported on column '" + column->name +
                                     "' of type " + LogicalTypeName(column->type) +
                                     " (collections and tuples: count() only)");
    }
    const bool arithmetic = aggregate.function == Aggregate::Function::kSum ||
                            aggregate.function == Aggregate::Function::kAvg;
    if (arithmetic && !IsNumeric(column->type)) {
      return Status::InvalidArgument(function + "() needs a numeric column, not '" + column->name +
                                     "'");
    }
    item.name = function + "(" + column->name + ")";
    item.input_type = column->type;
    switch (aggregate.function) {
      case Aggregate::Function::kCount:
        item.result_type = LogicalType::kBigInt;
        break;
      case Aggregate::Function::kMin:
      case Aggregate::Function::kMax:
        item.result_type = column->type;
        break;
      case Aggregate::Function::kSum:
        item.result_type =
            column->type == LogicalType::kFloat || column->type == LogicalType::kDouble
                ? LogicalType::kDouble
                : LogicalType::kBigInt;
        break;
      case Aggregate::Function::kAvg:
        item.result_type = LogicalType::kDouble;
        break;
    }
    const ProjectedColumn input = ColumnProjection(schema, *column);
    for (size_t i = aggregation.group_columns; i < plan->columns.size(); i++) {
      if (plan->columns[i].name == input.name) item.input = static_cast<int>(i);
    }
    if (item.input < 0) {
      item.input = static_cast<int>(plan->columns.size());
      plan->columns.push_back(input);
    }
    aggregation.items.push_back(std::move(item));
  }
  aggregation.group_limit = query.limit;
  plan->aggregation = std::move(aggregation);
  return Status::OK();
}

Status PlanSelect(const TableSchema& schema, const SelectQuery& query, SelectPlan* plan) {
  plan->aggregation.reset();
  if (query.aggregates.empty() && (query.group_by > 0 || query.time_bucket)) {
    return Status::InvalidArgument("GROUP BY needs aggregates");
  }
  if (!query.aggregates.empty() && query.per_partition_limit != 0) {
    return Status::InvalidArgument("PER PARTITION LIMIT with aggregates is not supported");
  }
  Status s = query.aggregates.empty() ? PlanProjection(schema, query.columns, &plan->columns)
                                      : PlanAggregation(schema, query, plan);
  if (s.ok()) s = PlanPartitions(schema, query, &plan->partitions);
  plan->whole_table = query.partition_key.empty();
  if (s.ok()) s = PlanFilter(schema, query, plan);
  plan->limit = plan->aggregation ? 0 : query.limit;
  plan->per_partition_limit = query.per_partition_limit;
  plan->reversed = query.reversed;
  return s;
}

bool RowMatchesFilter(const SelectPlan& plan, const TableSchema& schema,
                      const std::vector<Value>& partition_key, const ScannedRow& row) {
  if (plan.filter == nullptr) return true;
  // The row as the row evaluator sees it: values by column id, for the columns it reads.
  Row values(schema.next_column_id());
  for (uint32_t id : plan.filter->ReferencedColumns()) {
    const ColumnDef* column = schema.ColumnById(id);
    if (column == nullptr) continue;
    if (column->role == ColumnRole::kRegular) {
      values[id] = row.ValueOf(id);
      continue;
    }
    const std::vector<uint32_t>& key = column->role == ColumnRole::kPartitionKey
                                           ? schema.partition_key()
                                           : schema.clustering_key();
    const std::vector<Value>& key_values =
        column->role == ColumnRole::kPartitionKey ? partition_key : row.clustering;
    for (size_t i = 0; i < key.size() && i < key_values.size(); i++) {
      if (key[i] == id) values[id] = key_values[i];
    }
  }
  return Matches(*plan.filter, values);
}

void ProjectRow(const SelectPlan& plan, const std::vector<Value>& partition_key,
                const ScannedRow& row, int64_t now_seconds, Row* out) {
  out->resize(plan.columns.size());
  for (size_t i = 0; i < plan.columns.size(); i++) {
    const ProjectedColumn& column = plan.columns[i];
    Value& value = (*out)[i];
    const auto id = static_cast<uint32_t>(column.index);
    switch (column.source) {
      case ProjectedColumn::Source::kPartitionKey:
        value = partition_key[column.index];
        break;
      case ProjectedColumn::Source::kClustering:
        value = row.clustering[column.index];
        break;
      case ProjectedColumn::Source::kRegular:
        row.AssignValueOf(id, &value);
        break;
      case ProjectedColumn::Source::kWriteTime: {
        int64_t micros = 0;
        if (row.CellWriteTime(id, &micros)) {
          value.AssignFixedBits(LogicalType::kBigInt, static_cast<uint64_t>(micros));
        } else {
          value.AssignNull();
        }
        break;
      }
      case ProjectedColumn::Source::kTtl: {
        bool has_expiry = false;
        uint64_t expiry = 0;
        if (row.CellExpiry(id, &has_expiry, &expiry)) {
          value = SecondsToLive(has_expiry, expiry, now_seconds);
        } else {
          value.AssignNull();
        }
        break;
      }
    }
  }
}

}  // namespace columnar
