#include "table_api/statement_binding.h"

#include <map>
#include <optional>

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
    if (i + 1 < schema.partition_key().size()) {
      return CqlErrorAt(relation.column_token,
                        "IN is only supported on the last partition key column ('" +
                            schema.partition_column(schema.partition_key().size() - 1).name + "')");
    }
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
      if (relation->op == RelationOperator::kIn) {
        return NotSupportedAt(relation->column_token,
                              "IN on clustering column '" + column.name + "' is not supported");
      }
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

Status BindSelectors(const TableSchema& schema, const std::vector<CqlSelector>& selectors,
                     std::vector<std::string>* columns) {
  for (const CqlSelector& selector : selectors) {
    if (schema.FindColumn(selector.column) == nullptr) {
      return CqlErrorAt(selector.token, "unknown column '" + selector.column + "'");
    }
    switch (selector.function) {
      case CqlSelector::Function::kNone:
        columns->push_back(selector.column);
        break;
      case CqlSelector::Function::kWriteTime:
        columns->push_back("writetime(" + selector.column + ")");
        break;
      case CqlSelector::Function::kTtl:
        columns->push_back("ttl(" + selector.column + ")");
        break;
    }
  }
  return Status::OK();
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

// SELECT without the whole partition key, with ALLOW FILTERING: a scan of every partition
// (select_query.h) with every relation, key columns included, as the filter.
Status BindWholeTableSelect(const TableSchema& schema, const SelectStatement& select,
                            SelectQuery* query) {
  if (!select.order_by.empty()) {
    return CqlErrorAt(select.order_by[0].token,
                      "ORDER BY needs every partition key column restricted by = or IN");
  }
  std::vector<const CqlRelation*> relations;
  for (const CqlRelation& relation : select.where) relations.push_back(&relation);
  Status s = BindRegularRelations(schema, relations, /*allow_filtering=*/true, &query->filter);
  if (s.ok()) s = BindSelectors(schema, select.selectors, &query->columns);
  query->limit = select.limit.value_or(0);
  return s;
}

}  // namespace

Status BindSelect(const TableSchema& schema, const SelectStatement& select, SelectQuery* query) {
  *query = SelectQuery();
  RelationsByColumn by_column;
  std::vector<const CqlRelation*> regular;
  Status s = GroupRelations(schema, select.where, &by_column, &regular);
  if (s.ok() && select.allow_filtering && !RestrictsWholePartitionKey(schema, by_column)) {
    return BindWholeTableSelect(schema, select, query);
  }
  if (s.ok()) s = BindRegularRelations(schema, regular, select.allow_filtering, &query->filter);
  if (s.ok()) s = BindPartitionKey(schema, by_column, /*allow_in=*/true, &query->partition_key);
  if (s.ok()) s = BindClustering(schema, by_column, query);
  if (s.ok()) s = BindOrderBy(schema, select.order_by, &query->reversed);
  if (s.ok()) s = BindSelectors(schema, select.selectors, &query->columns);
  query->limit = select.limit.value_or(0);
  return s;
}

Status BindDelete(const TableSchema& schema, const DeleteStatement& remove, DeleteTarget* target) {
  RelationsByColumn by_column;
  std::vector<const CqlRelation*> regular;
  Status s = GroupRelations(schema, remove.where, &by_column, &regular);
  if (s.ok() && !regular.empty()) {
    return CqlErrorAt(regular[0]->column_token, "DELETE can only restrict primary key columns; '" +
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
      return CqlErrorAt(relations[0]->column_token,
                        "DELETE needs = on clustering column '" + column.name + "'");
    }
    if (relations.empty()) continue;
    target->clustering_key.emplace_back();
    s = BindLiteral(column, relations[0]->values[0], &target->clustering_key.back());
    if (!s.ok()) return s;
  }
  target->whole_partition = target->clustering_key.empty();
  if (!target->whole_partition && target->clustering_key.size() != schema.clustering_key().size()) {
    return Status::InvalidArgument(
        "DELETE needs = on every clustering column (deletes a row) or on none (deletes the "
        "partition)");
  }
  return Status::OK();
}

}  // namespace columnar
