#include "filter/binder.h"

#include <algorithm>
#include <string>
#include <utility>

namespace columnar {

namespace {

std::string Quoted(const std::string& name) { return "'" + name + "'"; }

Status TypeMismatch(const ColumnDef& column, const Value& literal, const std::string& context) {
  return Status::InvalidArgument("filter: " + context + "column " + Quoted(column.name) + " is " +
                                 LogicalTypeName(column.type) + ", but the literal " +
                                 literal.ToCqlLiteral() + " is " + LogicalTypeName(literal.type()));
}

// `literal` as a value of the column's logical type, when the binder's typing rules allow it.
Status CoerceLiteral(const ColumnDef& column, const Value& literal, const std::string& context,
                     Value* out) {
  if (literal.is_null()) {
    return Status::InvalidArgument("filter: " + context + "column " + Quoted(column.name) +
                                   " compared with null (use IS NULL or IS NOT NULL)");
  }
  const LogicalType from = literal.type();
  const LogicalType to = column.type;
  if (from == to) {
    *out = literal;
  } else if (from == LogicalType::kInt && to == LogicalType::kBigInt) {
    *out = Value::BigInt(literal.int32_value());
  } else if ((from == LogicalType::kText && to == LogicalType::kAscii) ||
             (from == LogicalType::kAscii && to == LogicalType::kText)) {
    *out = Value::FromBytes(to, literal.bytes());
  } else {
    return TypeMismatch(column, literal, context);
  }
  if (IsBytesType(to) && !IsWellFormedBytes(to, out->bytes())) {
    return Status::InvalidArgument("filter: " + context + "column " + Quoted(column.name) + " is " +
                                   LogicalTypeName(to) + ", but the literal " +
                                   literal.ToCqlLiteral() + " is not a well-formed " +
                                   LogicalTypeName(to) + " value");
  }
  return Status::OK();
}

void SetColumn(const ColumnDef& column, BoundPredicate* leaf) {
  leaf->column_id = column.id;
  leaf->column_name = column.name;
  leaf->column_type = column.type;
  leaf->physical_type = PhysicalTypeOfLogical(column.type);
}

Status BindIn(const ColumnDef& column, const Predicate& predicate, BoundPredicate* leaf) {
  const std::string context = "IN list of ";
  std::vector<Value> values;
  values.reserve(predicate.in_list.size());
  for (const Value& literal : predicate.in_list) {
    Value coerced;
    Status s = CoerceLiteral(column, literal, context, &coerced);
    if (!s.ok()) return s;
    values.push_back(std::move(coerced));
  }
  std::sort(values.begin(), values.end(),
            [](const Value& a, const Value& b) { return CompareValues(a, b) < 0; });
  values.erase(std::unique(values.begin(), values.end()), values.end());
  leaf->in_datums.clear();
  for (const Value& v : values) leaf->in_datums.push_back(Datum::FromValue(v));
  leaf->in_values = std::move(values);
  return Status::OK();
}

Status BindLeaf(const TableSchema& schema, const Predicate& predicate, BoundPredicate* leaf) {
  const ColumnDef* column = schema.FindColumn(predicate.column);
  if (column == nullptr) {
    return Status::InvalidArgument("filter: unknown column " + Quoted(predicate.column) +
                                   " in table " + schema.QualifiedName());
  }
  leaf->kind = predicate.kind;
  SetColumn(*column, leaf);
  if (predicate.kind == Predicate::Kind::kIn) return BindIn(*column, predicate, leaf);
  if (predicate.kind != Predicate::Kind::kComparison) return Status::OK();
  leaf->op = predicate.op;
  Status s = CoerceLiteral(*column, predicate.literal, "", &leaf->literal);
  if (!s.ok()) return s;
  leaf->constant = Datum::FromValue(leaf->literal);
  return Status::OK();
}

Status BindNode(const TableSchema& schema, const Predicate& predicate, int depth,
                BoundPredicate* bound) {
  if (depth > kMaxPredicateDepth) {
    return Status::InvalidArgument("filter: predicate nested deeper than " +
                                   std::to_string(kMaxPredicateDepth) + " levels");
  }
  if (predicate.is_leaf()) return BindLeaf(schema, predicate, bound);
  bound->kind = predicate.kind;
  bound->children.resize(predicate.children.size());
  for (size_t i = 0; i < predicate.children.size(); i++) {
    Status s = BindNode(schema, predicate.children[i], depth + 1, &bound->children[i]);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace

Status Bind(const TableSchema& schema, const Predicate& predicate, BoundPredicate* bound) {
  BoundPredicate result;
  Status s = BindNode(schema, predicate, 1, &result);
  if (s.ok()) *bound = std::move(result);
  return s;
}

}  // namespace columnar
