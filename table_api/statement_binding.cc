#include "table_api/statement_binding.h"

#include <algorithm>
#include <map>
#include <optional>

#include "table_api/json_text.h"

namespace columnar {
namespace {

using RelationsByColumn = std::map<uint32_t, std::vector<const CqlRelation*>>;

std::string MessageOf(const Status& s) {
  return s.getState() != nullptr ? s.getState() : s.ToString();
}

Status NotSupportedAt(const Token& token, const std::string& message) {
  return Status::NotSupported(MessageOf(CqlErrorAt(token, message)));
}

bool IsFloatingType(LogicalType type) {
  return type == LogicalType::kFloat || type == LogicalType::kDouble;
}

Status BindLiteral(const ColumnDef& column, const CqlLiteral& literal, Value* value) {
  // Value::FromCqlLiteral reads NaN without a sign; "-NaN" is NaN with the sign bit set.
  const bool negative_nan = IsFloatingType(column.type) && literal.text == "-nan";
  Status s = Value::FromCqlLiteral(column.type, negative_nan ? "nan" : literal.text, value);
  if (!s.ok()) return CqlErrorAt(literal.token, "column '" + column.name + "': " + MessageOf(s));
  if (negative_nan) {
    const uint64_t sign =
        column.type == LogicalType::kFloat ? uint64_t{1} << 31 : uint64_t{1} << 63;
    *value = Value::FromFixedBits(column.type, value->FixedBits() | sign);
  }
  return Status::OK();
}

Status BindLiteralList(const ColumnDef& column, const std::vector<CqlLiteral>& literals,
                       std::vector<Value>* values) {
  values->resize(literals.size());
  for (size_t i = 0; i < literals.size(); i++) {
    Status s = BindLiteral(column, literals[i], &(*values)[i]);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

// Groups the relations by column id; *regular gets those on regular columns.
Status GroupRelations(const TableSchema& schema, const std::vector<CqlRelation>& where,
                      RelationsByColumn* by_column, std::vector<const CqlRelation*>* regular) {
  for (const CqlRelation& relation : where) {
    const ColumnDef* column = schema.FindColumn(relation.column);
    if (column == nullptr) {
      return CqlErrorAt(relation.column_token, "unknown column '" + relation.column + "'");
    }
    (*by_column)[column->id].push_back(&relation);
    if (!column->is_key()) regular->push_back(&relation);
  }
  return Status::OK();
}

const std::vector<const CqlRelation*>& RelationsOf(const RelationsByColumn& by_column,
                                                   uint32_t id) {
  static const std::vector<const CqlRelation*> kNone;
  const auto found = by_column.find(id);
  return found == by_column.end() ? kNone : found->second;
}

Status BindPartitionColumn(const TableSchema& schema, size_t i,
                           const std::vector<const CqlRelation*>& relations, bool allow_in,
                           std::vector<Value>* values) {
  const ColumnDef& column = schema.partition_column(i);
  if (relations.empty()) {
    return Status::InvalidArgument("missing partition key column '" + column.name +
                                   "' in WHERE: every partition key column needs " +
                                   (allow_in ? "= or IN" : "="));
  }
  if (relations.size() > 1) {
    return CqlErrorAt(relations[1]->column_token,
                      "partition key column '" + column.name + "' is restricted more than once");
  }
  const CqlRelation& relation = *relations[0];
  if (relation.op == RelationOperator::kIn) {
    if (!allow_in) return NotSupportedAt(relation.column_token, "DELETE with IN is not supported");
  } else if (relation.op != RelationOperator::kEqual) {
    return CqlErrorAt(relation.column_token,
                      "partition key column '" + column.name + "' needs = or IN, not a range");
  }
  return BindLiteralList(column, relation.values, values);
}

Status BindPartitionKey(const TableSchema& schema, const RelationsByColumn& by_column,
                        bool allow_in, std::vector<std::vector<Value>>* partition_key) {
  partition_key->resize(schema.partition_key().size());
  for (size_t i = 0; i < partition_key->size(); i++) {
    Status s = BindPartitionColumn(schema, i, RelationsOf(by_column, schema.partition_key()[i]),
                                   allow_in, &(*partition_key)[i]);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

// Bounds of a range restriction (one or two relations) on one clustering column.
Status BindClusteringRange(const ColumnDef& column,
                           const std::vector<const CqlRelation*>& relations, SelectQuery* query) {
  for (const CqlRelation* relation : relations) {
    if (relation->op == RelationOperator::kEqual) {
      return CqlErrorAt(relation->column_token,
                        "clustering column '" + column.name + "' has both = and a range");
    }
    const bool lower = relation->op == RelationOperator::kGreater ||
                       relation->op == RelationOperator::kGreaterOrEqual;
    std::optional<ClusteringBound>& bound = lower ? query->lower_bound : query->upper_bound;
    if (bound.has_value()) {
      return CqlErrorAt(relation->column_token, "clustering column '" + column.name + "' has two " +
                                                    (lower ? "lower" : "upper") + " bounds");
    }
    bound.emplace();
    bound->inclusive = relation->op == RelationOperator::kGreaterOrEqual ||
                       relation->op == RelationOperator::kLessOrEqual;
    Status s = BindLiteral(column, relation->values[0], &bound->value);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status BindClustering(const TableSchema& schema, const RelationsByColumn& by_column,
                      SelectQuery* query) {
  const ColumnDef* stopped_at = nullptr;  // the first column not restricted by =
  std::string why_stopped;
  for (size_t i = 0; i < schema.clustering_key().size(); i++) {
    const ColumnDef& column = schema.clustering_column(i);
    const std::vector<const CqlRelation*>& relations = RelationsOf(by_column, column.id);
    if (relations.empty()) {
      if (stopped_at == nullptr) {
        stopped_at = &column;
        why_stopped = "is not restricted";
      }
      continue;
    }
    const Token& token = relations[0]->column_token;
    if (stopped_at != nullptr) {
      return CqlErrorAt(token, "clustering column '" + column.name +
                                   "' cannot be restricted: the preceding clustering column '" +
                                   stopped_at->name + "' " + why_stopped);
    }
    for (const CqlRelation* relation : relations) {
      if (relation->op == RelationOperator::kIn && relations.size() > 1) {
        return CqlErrorAt(relation->column_token,
                          "clustering column '" + column.name + "' has IN and another restriction");
      }
    }
    if (relations[0]->op == RelationOperator::kIn) {
      Status s = BindLiteralList(column, relations[0]->values, &query->clustering_in);
      if (!s.ok()) return s;
      stopped_at = &column;
      why_stopped = "has an IN restriction";
      continue;
    }
    if (relations.size() == 1 && relations[0]->op == RelationOperator::kEqual) {
      query->clustering_prefix.emplace_back();
      Status s = BindLiteral(column, relations[0]->values[0], &query->clustering_prefix.back());
      if (!s.ok()) return s;
      continue;
    }
    Status s = BindClusteringRange(column, relations, query);
    if (!s.ok()) return s;
    stopped_at = &column;
    why_stopped = "has a range restriction";
  }
  return Status::OK();
}

CompareOp CompareOpOf(RelationOperator op) {
  switch (op) {
    case RelationOperator::kLess:
      return CompareOp::kLt;
    case RelationOperator::kLessOrEqual:
      return CompareOp::kLe;
    case RelationOperator::kGreater:
      return CompareOp::kGt;
    case RelationOperator::kGreaterOrEqual:
      return CompareOp::kGe;
    default:
      return CompareOp::kEq;
  }
}

// Restrictions of regular columns: with ALLOW FILTERING, the conjunction the Select filters
// on (predicate pushdown, pushdown.h).
Status BindRegularRelations(const TableSchema& schema,
                            const std::vector<const CqlRelation*>& regular, bool allow_filtering,
                            std::optional<Predicate>* filter) {
  if (regular.empty()) return Status::OK();
  if (!allow_filtering) {
    const CqlRelation& first = *regular[0];
    return CqlErrorAt(first.column_token,
                      "column '" + first.column +
                          "' is not part of the primary key: restricting it needs ALLOW FILTERING");
  }
  std::vector<Predicate> terms;
  for (const CqlRelation* relation : regular) {
    const ColumnDef& column = *schema.FindColumn(relation->column);
    if (relation->op == RelationOperator::kIn) {
      std::vector<Value> values;
      Status s = BindLiteralList(column, relation->values, &values);
      if (!s.ok()) return s;
      terms.push_back(Predicate::In(column.name, std::move(values)));
      continue;
    }
    Value value;
    Status s = BindLiteral(column, relation->values[0], &value);
    if (!s.ok()) return s;
    terms.push_back(Predicate::Compare(column.name, CompareOpOf(relation->op), std::move(value)));
  }
  *filter = Predicate::And(std::move(terms));
  return Status::OK();
}

Status BindOrderBy(const TableSchema& schema, const std::vector<CqlOrdering>& order_by,
                   bool* reversed) {
  std::optional<bool> direction;  // reversed or not, once known
  for (size_t i = 0; i < order_by.size(); i++) {
    const CqlOrdering& ordering = order_by[i];
    if (i >= schema.clustering_key().size() ||
        schema.clustering_column(i).name != ordering.column) {
      return CqlErrorAt(ordering.token,
                        "ORDER BY must list the table's clustering columns in key order");
    }
    const bool table_descending = schema.clustering_column(i).order == ClusteringOrder::kDesc;
    const bool this_reversed = ordering.descending != table_descending;
    if (direction.has_value() && *direction != this_reversed) {
      return CqlErrorAt(ordering.token,
                        "ORDER BY must follow the table's clustering order or its exact reverse");
    }
    direction = this_reversed;
  }
  *reversed = direction.value_or(false);
  return Status::OK();
}

bool IsAggregate(CqlSelector::Function function) {
  switch (function) {
    case CqlSelector::Function::kCount:
    case CqlSelector::Function::kMin:
    case CqlSelector::Function::kMax:
    case CqlSelector::Function::kSum:
    case CqlSelector::Function::kAvg:
      return true;
    default:
      return false;
  }
}

Aggregate::Function AggregateFunctionOf(CqlSelector::Function function) {
  switch (function) {
    case CqlSelector::Function::kMin:
      return Aggregate::Function::kMin;
    case CqlSelector::Function::kMax:
      return Aggregate::Function::kMax;
    case CqlSelector::Function::kSum:
      return Aggregate::Function::kSum;
    case CqlSelector::Function::kAvg:
      return Aggregate::Function::kAvg;
    default:
      return Aggregate::Function::kCount;
  }
}

Status UnknownColumn(const Token& token, const std::string& name) {
  return CqlErrorAt(token, "unknown column '" + name + "'");
}

// The primary key columns in key order: partition key, then clustering columns.
std::vector<uint32_t> PrimaryKeyColumns(const TableSchema& schema) {
  std::vector<uint32_t> primary = schema.partition_key();
  primary.insert(primary.end(), schema.clustering_key().begin(), schema.clustering_key().end());
  return primary;
}

// Selectors of a query without aggregates: columns, writetime(col), ttl(col).
Status BindPlainSelectors(const TableSchema& schema, const std::vector<CqlSelector>& selectors,
                          SelectQuery* query, SelectOutput* output) {
  for (const CqlSelector& selector : selectors) {
    if (schema.FindColumn(selector.column) == nullptr) {
      return UnknownColumn(selector.token, selector.column);
    }
    switch (selector.function) {
      case CqlSelector::Function::kNone:
        query->columns.push_back(selector.column);
        break;
      case CqlSelector::Function::kWriteTime:
        query->columns.push_back("writetime(" + selector.column + ")");
        break;
      case CqlSelector::Function::kTtl:
        query->columns.push_back("ttl(" + selector.column + ")");
        break;
      default:
        return CqlErrorAt(selector.token, "floor() is a GROUP BY bucket: it needs GROUP BY floor(" +
                                              selector.column + ", ...)");
    }
    output->source_columns.push_back(output->source_columns.size());
    output->names.push_back(selector.alias);
  }
  return Status::OK();
}

// floor's width in the units of `column`: timestamps are milliseconds, dates days, int times
// seconds since the epoch (an int cannot hold milliseconds); a bigint's units are unknown, so
// its width must be an integer in them.
Status BucketWidthInColumnUnits(const ColumnDef& column, const CqlBucketWidth& width,
                                int64_t* units) {
  if (!width.duration_nanoseconds) {
    *units = width.integer;
    return Status::OK();
  }
  int64_t unit_nanoseconds = 0;
  switch (column.type) {
    case LogicalType::kTimestamp:
      unit_nanoseconds = 1000000;
      break;
    case LogicalType::kDate:
      unit_nanoseconds = int64_t{86400} * 1000000000;
      break;
    case LogicalType::kInt:
      unit_nanoseconds = 1000000000;
      break;
    default:
      return CqlErrorAt(width.token, "column '" + column.name +
                                         "' is not a timestamp, date or int time: give the "
                                         "width as an integer in its units");
  }
  if (*width.duration_nanoseconds % unit_nanoseconds != 0) {
    return CqlErrorAt(width.token, "duration " + width.text + " is not a whole number of column '" +
                                       column.name + "' units");
  }
  *units = *width.duration_nanoseconds / unit_nanoseconds;
  return Status::OK();
}

// GROUP BY: a prefix of the primary key, in key order; columns restricted by = may be left out
// (they have one value). floor(column, width) may end it, on the first clustering column.
Status BindGroupBy(const TableSchema& schema, const std::vector<CqlGroupTerm>& terms,
                   const std::vector<bool>& fixed_by_equality, SelectQuery* query) {
  const std::vector<uint32_t> primary = PrimaryKeyColumns(schema);
  size_t next = 0;
  for (size_t t = 0; t < terms.size(); t++) {
    const CqlGroupTerm& term = terms[t];
    const ColumnDef* column = schema.FindColumn(term.column);
    if (column == nullptr) return UnknownColumn(term.token, term.column);
    while (next < primary.size() && primary[next] != column->id && fixed_by_equality[next]) next++;
    if (next == primary.size() || primary[next] != column->id) {
      return CqlErrorAt(term.token,
                        "GROUP BY names primary key columns in their order (columns restricted "
                        "by = may be left out); '" +
                            term.column + "' is not the next one");
    }
    next++;
    if (!term.floor) continue;
    if (t + 1 != terms.size() || next != schema.partition_key().size() + 1) {
      return CqlErrorAt(term.token,
                        "floor() groups by the first clustering column, as the last GROUP BY term");
    }
    int64_t width = 0;
    Status s = BucketWidthInColumnUnits(*column, *term.floor, &width);
    if (!s.ok()) return s;
    query->time_bucket = width;
  }
  query->group_by = next;
  return Status::OK();
}

// A selector of an aggregate query that is not an aggregate: a GROUP BY column, shown as its
// group value (the floor() of a bucketed one). *position is its place among the group columns.
Status BindGroupColumnSelector(const TableSchema& schema, const CqlSelector& selector,
                               const SelectQuery& query, size_t* position, std::string* name) {
  if (selector.function == CqlSelector::Function::kWriteTime ||
      selector.function == CqlSelector::Function::kTtl) {
    return CqlErrorAt(selector.token, "writetime() and ttl() cannot be selected with aggregates");
  }
  const ColumnDef* column = schema.FindColumn(selector.column);
  if (column == nullptr) return UnknownColumn(selector.token, selector.column);
  const std::vector<uint32_t> primary = PrimaryKeyColumns(schema);
  *position = 0;
  while (*position < query.group_by && primary[*position] != column->id) ++*position;
  if (*position == query.group_by) {
    return CqlErrorAt(selector.token, "column '" + selector.column +
                                          "' is neither aggregated nor a GROUP BY column");
  }
  const bool bucketed = query.time_bucket && *position + 1 == query.group_by;
  const bool floor = selector.function == CqlSelector::Function::kFloor;
  if (bucketed != floor) {
    return CqlErrorAt(selector.token,
                      floor ? "floor() selects the GROUP BY floor() bucket, and there is none"
                            : "the GROUP BY groups '" + selector.column +
                                  "' by floor(): select that floor() to show the bucket");
  }
  *name = selector.alias;
  if (!floor) return Status::OK();
  int64_t width = 0;
  Status s = BucketWidthInColumnUnits(*column, *selector.width, &width);
  if (!s.ok()) return s;
  if (width != *query.time_bucket) {
    return CqlErrorAt(selector.token, "floor() with another width than the GROUP BY's");
  }
  if (name->empty()) *name = "floor(" + selector.column + ", " + selector.width->text + ")";
  return Status::OK();
}

// Selectors of a query with aggregates or GROUP BY: aggregates, group columns, and the floor()
// of the GROUP BY. The Table API's result has the group columns first, then the aggregates.
Status BindAggregateSelectors(const TableSchema& schema, const SelectStatement& select,
                              SelectQuery* query, SelectOutput* output) {
  size_t aggregates = 0;
  for (const CqlSelector& selector : select.selectors) {
    aggregates += IsAggregate(selector.function) ? 1 : 0;
  }
  if (aggregates == 0) {
    return CqlErrorAt(select.group_by[0].token,
                      "GROUP BY needs an aggregate (count, min, max, sum or avg) in the SELECT");
  }
  for (const CqlSelector& selector : select.selectors) {
    if (IsAggregate(selector.function)) {
      if (!selector.column.empty() && schema.FindColumn(selector.column) == nullptr) {
        return UnknownColumn(selector.token, selector.column);
      }
      output->source_columns.push_back(query->group_by + query->aggregates.size());
      output->names.push_back(selector.alias);
      query->aggregates.push_back({AggregateFunctionOf(selector.function), selector.column});
      continue;
    }
    size_t position = 0;
    std::string name;
    Status s = BindGroupColumnSelector(schema, selector, *query, &position, &name);
    if (!s.ok()) return s;
    output->source_columns.push_back(position);
    output->names.push_back(std::move(name));
  }
  return Status::OK();
}

// The SELECT list, the GROUP BY and LIMIT. `fixed_by_equality` has one flag per primary key
// column (partition key, then clustering columns): restricted to one value by =.
Status BindProjection(const TableSchema& schema, const SelectStatement& select,
                      const std::vector<bool>& fixed_by_equality, SelectQuery* query,
                      SelectOutput* output) {
  query->limit = select.limit.value_or(0);
  bool aggregating = !select.group_by.empty();
  for (const CqlSelector& selector : select.selectors) {
    aggregating |= IsAggregate(selector.function);
  }
  if (!aggregating) return BindPlainSelectors(schema, select.selectors, query, output);
  if (select.selectors.empty()) {
    return CqlErrorAt(select.group_by[0].token,
                      "SELECT * with GROUP BY is not supported: select the aggregates and the "
                      "group columns");
  }
  Status s = BindGroupBy(schema, select.group_by, fixed_by_equality, query);
  return s.ok() ? BindAggregateSelectors(schema, select, query, output) : s;
}

// Which primary key columns the WHERE clause fixes to one value (= or an IN of one value).
std::vector<bool> FixedByEquality(const TableSchema& schema, const RelationsByColumn& by_column) {
  const std::vector<uint32_t> primary = PrimaryKeyColumns(schema);
  std::vector<bool> fixed(primary.size(), false);
  for (size_t i = 0; i < primary.size(); i++) {
    const std::vector<const CqlRelation*>& relations = RelationsOf(by_column, primary[i]);
    fixed[i] =
        relations.size() == 1 && relations[0]->values.size() == 1 &&
        (relations[0]->op == RelationOperator::kEqual || relations[0]->op == RelationOperator::kIn);
  }
  return fixed;
}

}  // namespace

Status BindInsert(const TableSchema& schema, const InsertStatement& insert, Row* row,
                  RowWriteOptions* options) {
  row->assign(schema.columns().size(), Value());
  for (size_t i = 0; i < insert.columns.size(); i++) {
    const ColumnDef* column = schema.FindColumn(insert.columns[i]);
    if (column == nullptr) {
      return CqlErrorAt(insert.column_tokens[i], "unknown column '" + insert.columns[i] + "'");
    }
    Status s = BindLiteral(*column, insert.values[i], &(*row)[column->id]);
    if (!s.ok()) return s;
  }
  *options = RowWriteOptions();
  options->ttl_seconds = insert.ttl_seconds;
  options->write_time_micros = insert.timestamp_micros;
  return Status::OK();
}

Status BindInsert(const TableSchema& schema, const InsertStatement& insert, RowWrite* write) {
  Status s = BindInsert(schema, insert, &write->values, &write->options);
  if (!s.ok()) return s;
  write->kind = WriteKind::kInsert;
  write->named.assign(schema.columns().size(), false);
  for (const std::string& name : insert.columns) write->named[schema.FindColumn(name)->id] = true;
  return Status::OK();
}

namespace {

bool RestrictsWholePartitionKey(const TableSchema& schema, const RelationsByColumn& by_column) {
  for (uint32_t id : schema.partition_key()) {
    const std::vector<const CqlRelation*>& relations = RelationsOf(by_column, id);
    if (relations.size() != 1 || (relations[0]->op != RelationOperator::kEqual &&
                                  relations[0]->op != RelationOperator::kIn)) {
      return false;
    }
  }
  return true;
}

// SELECT without the whole partition key: with ALLOW FILTERING, or without a WHERE clause (a
// scan of the whole table, which Cassandra runs without ALLOW FILTERING). Every partition is
// read (select_query.h) with every relation, key columns included, as the filter.
Status BindWholeTableSelect(const TableSchema& schema, const SelectStatement& select,
                            SelectQuery* query, SelectOutput* output) {
  if (!select.order_by.empty()) {
    return CqlErrorAt(select.order_by[0].token,
                      "ORDER BY needs every partition key column restricted by = or IN");
  }
  std::vector<const CqlRelation*> relations;
  for (const CqlRelation& relation : select.where) relations.push_back(&relation);
  Status s = BindRegularRelations(schema, relations, /*allow_filtering=*/true, &query->filter);
  const std::vector<bool> nothing_fixed(PrimaryKeyColumns(schema).size(), false);
  return s.ok() ? BindProjection(schema, select, nothing_fixed, query, output) : s;
}

// SELECT DISTINCT (Cassandra's rules): partition key columns only, every one of them, and
// relations on partition key columns only.
Status CheckDistinct(const TableSchema& schema, const SelectStatement& select) {
  if (select.selectors.empty()) {
    return CqlErrorAt(select.distinct_token,
                      "SELECT DISTINCT * is not supported: name the partition key columns");
  }
  std::vector<uint32_t> selected;
  for (const CqlSelector& selector : select.selectors) {
    const ColumnDef* column = schema.FindColumn(selector.column);
    if (column == nullptr) return UnknownColumn(selector.token, selector.column);
    if (selector.function != CqlSelector::Function::kNone ||
        column->role != ColumnRole::kPartitionKey) {
      return CqlErrorAt(selector.token,
                        "SELECT DISTINCT queries must only request partition key columns");
    }
    selected.push_back(column->id);
  }
  for (uint32_t id : schema.partition_key()) {
    if (std::find(selected.begin(), selected.end(), id) == selected.end()) {
      return CqlErrorAt(select.distinct_token,
                        "SELECT DISTINCT queries must request all the partition key columns "
                        "(missing " +
                            schema.ColumnById(id)->name + ")");
    }
  }
  for (const CqlRelation& relation : select.where) {
    const ColumnDef* column = schema.FindColumn(relation.column);
    if (column != nullptr && column->role != ColumnRole::kPartitionKey) {
      return CqlErrorAt(relation.column_token,
                        "SELECT DISTINCT with a WHERE clause only supports restrictions on the "
                        "partition key");
    }
  }
  if (!select.group_by.empty()) {
    return CqlErrorAt(select.group_by[0].token, "GROUP BY with SELECT DISTINCT is not supported");
  }
  return Status::OK();
}

// DISTINCT and PER PARTITION LIMIT, after the rest of the statement is bound.
Status BindPerPartitionLimit(const TableSchema& schema, const SelectStatement& select,
                             SelectQuery* query) {
  if (select.distinct) {
    Status s = CheckDistinct(schema, select);
    if (!s.ok()) return s;
    query->per_partition_limit = 1;
    return Status::OK();
  }
  if (!select.per_partition_limit) return Status::OK();
  if (!query->aggregates.empty()) {
    return NotSupportedAt(select.per_partition_limit_token,
                          "PER PARTITION LIMIT with aggregates is not supported");
  }
  query->per_partition_limit = *select.per_partition_limit;
  return Status::OK();
}

Status BindSelectClauses(const TableSchema& schema, const SelectStatement& select,
                         SelectQuery* query, SelectOutput* output) {
  RelationsByColumn by_column;
  std::vector<const CqlRelation*> regular;
  Status s = GroupRelations(schema, select.where, &by_column, &regular);
  if (s.ok() && (select.where.empty() ||
                 (select.allow_filtering && !RestrictsWholePartitionKey(schema, by_column)))) {
    return BindWholeTableSelect(schema, select, query, output);
  }
  if (s.ok()) s = BindRegularRelations(schema, regular, select.allow_filtering, &query->filter);
  if (s.ok()) s = BindPartitionKey(schema, by_column, /*allow_in=*/true, &query->partition_key);
  if (s.ok()) s = BindClustering(schema, by_column, query);
  if (s.ok()) s = BindOrderBy(schema, select.order_by, &query->reversed);
  if (s.ok()) s = BindProjection(schema, select, FixedByEquality(schema, by_column), query, output);
  return s;
}

// The Table API's columns as the SELECT list shows them (order, aliases).
void ReshapeSelectOutput(const SelectOutput& output, ResultSet* result) {
  if (output.source_columns.empty()) return;  // SELECT *
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  bool identity = output.source_columns.size() == result->column_names.size();
  for (size_t i = 0; i < output.source_columns.size(); i++) {
    const size_t source = output.source_columns[i];
    names.push_back(output.names[i].empty() ? result->column_names[source] : output.names[i]);
    types.push_back(result->column_types[source]);
    identity &= source == i;
  }
  if (!identity) {
    Row shown;
    for (Row& row : result->rows) {
      shown.clear();
      for (size_t source : output.source_columns) shown.push_back(row[source]);
      row.swap(shown);
    }
  }
  result->column_names = std::move(names);
  result->column_types = std::move(types);
}

// SELECT JSON: every row as one JSON object in a text column named "[json]".
void ToJsonRows(ResultSet* result) {
  for (Row& row : result->rows) {
    Value json = Value::Text(JsonObjectText(result->column_names, row));
    row.assign(1, std::move(json));
  }
  result->column_names = {"[json]"};
  result->column_types = {LogicalType::kText};
}

}  // namespace

Status BindSelect(const TableSchema& schema, const SelectStatement& select, SelectQuery* query,
                  SelectOutput* output) {
  *query = SelectQuery();
  SelectOutput ignored;
  if (output == nullptr) output = &ignored;
  *output = SelectOutput();
  output->json = select.json;
  Status s = BindSelectClauses(schema, select, query, output);
  return s.ok() ? BindPerPartitionLimit(schema, select, query) : s;
}

void ApplySelectOutput(const SelectOutput& output, ResultSet* result) {
  ReshapeSelectOutput(output, result);
  if (output.json) ToJsonRows(result);
}

namespace {

// The primary key a DELETE or UPDATE restricts: = on every partition key column, and = on every
// clustering column or (when `allow_partition`) on none. `statement` names it in errors.
Status BindKeyRelations(const TableSchema& schema, const std::vector<CqlRelation>& where,
                        const char* statement, bool allow_partition, DeleteTarget* target) {
  RelationsByColumn by_column;
  std::vector<const CqlRelation*> regular;
  Status s = GroupRelations(schema, where, &by_column, &regular);
  if (s.ok() && !regular.empty()) {
    return CqlErrorAt(regular[0]->column_token, std::string(statement) +
                                                    " can only restrict primary key columns; '" +
                                                    regular[0]->column + "' is a regular column");
  }
  std::vector<std::vector<Value>> partition_key;
  if (s.ok()) s = BindPartitionKey(schema, by_column, /*allow_in=*/false, &partition_key);
  if (!s.ok()) return s;
  target->partition_key.clear();
  for (const std::vector<Value>& values : partition_key) {
    target->partition_key.push_back(values[0]);
  }
  target->clustering_key.clear();
  for (size_t i = 0; i < schema.clustering_key().size(); i++) {
    const ColumnDef& column = schema.clustering_column(i);
    const std::vector<const CqlRelation*>& relations = RelationsOf(by_column, column.id);
    if (relations.size() > 1 ||
        (relations.size() == 1 && relations[0]->op != RelationOperator::kEqual)) {
      return CqlErrorAt(
          relations[0]->column_token,
          std::string(statement) + " needs = on clustering column '" + column.name + "'");
    }
    if (relations.empty()) continue;
    target->clustering_key.emplace_back();
    s = BindLiteral(column, relations[0]->values[0], &target->clustering_key.back());
    if (!s.ok()) return s;
  }
  target->whole_partition = target->clustering_key.empty() && !schema.clustering_key().empty();
  if (target->clustering_key.size() != schema.clustering_key().size() &&
      !(allow_partition && target->whole_partition)) {
    return Status::InvalidArgument(
        allow_partition
            ? std::string(statement) +
                  " needs = on every clustering column (deletes a row) or on none (deletes the "
                  "partition)"
            : std::string(statement) + " needs = on every primary key column (one row)");
  }
  return Status::OK();
}

}  // namespace

Status BindUpdate(const TableSchema& schema, const UpdateStatement& update, RowWrite* write) {
  DeleteTarget key;
  Status s = BindKeyRelations(schema, update.where, "UPDATE", /*allow_partition=*/false, &key);
  if (!s.ok()) return s;
  write->values.assign(schema.columns().size(), Value());
  write->named.assign(schema.columns().size(), false);
  for (size_t i = 0; i < key.partition_key.size(); i++) {
    write->values[schema.partition_key()[i]] = key.partition_key[i];
  }
  for (size_t i = 0; i < key.clustering_key.size(); i++) {
    write->values[schema.clustering_key()[i]] = key.clustering_key[i];
  }
  for (size_t i = 0; i < update.columns.size(); i++) {
    const ColumnDef* column = schema.FindColumn(update.columns[i]);
    if (column == nullptr) {
      return CqlErrorAt(update.column_tokens[i], "unknown column '" + update.columns[i] + "'");
    }
    if (column->is_key()) {
      return CqlErrorAt(update.column_tokens[i], "cannot SET primary key column '" + column->name +
                                                     "' (it is in the WHERE)");
    }
    s = BindLiteral(*column, update.values[i], &write->values[column->id]);
    if (!s.ok()) return s;
    write->named[column->id] = true;
  }
  write->kind = WriteKind::kUpdate;
  write->options = RowWriteOptions();
  write->options.ttl_seconds = update.ttl_seconds;
  write->options.write_time_micros = update.timestamp_micros;
  return Status::OK();
}

Status BindDelete(const TableSchema& schema, const DeleteStatement& remove, DeleteTarget* target) {
  Status s = BindKeyRelations(schema, remove.where, "DELETE", remove.columns.empty(), target);
  if (!s.ok()) return s;
  if (schema.clustering_key().empty()) target->whole_partition = false;  // the row is the key
  target->columns.clear();
  for (size_t i = 0; i < remove.columns.size(); i++) {
    const ColumnDef* column = schema.FindColumn(remove.columns[i]);
    if (column == nullptr) {
      return CqlErrorAt(remove.column_tokens[i], "unknown column '" + remove.columns[i] + "'");
    }
    if (column->is_key()) {
      return CqlErrorAt(remove.column_tokens[i],
                        "cannot delete primary key column '" + column->name + "' (delete the row)");
    }
    target->columns.push_back(column->name);
  }
  target->options = RowWriteOptions();
  target->options.write_time_micros = remove.timestamp_micros;
  return Status::OK();
}

}  // namespace columnar
