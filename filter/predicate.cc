#include "filter/predicate.h"

#include <utility>

namespace columnar {

namespace {

Predicate Leaf(Predicate::Kind kind, std::string column) {
  Predicate p;
  p.kind = kind;
  p.column = std::move(column);
  return p;
}

Predicate Inner(Predicate::Kind kind, std::vector<Predicate> children) {
  Predicate p;
  p.kind = kind;
  p.children = std::move(children);
  return p;
}

std::string InnerToString(const Predicate& p) {
  const bool is_and = p.kind == Predicate::Kind::kAnd;
  if (p.children.empty()) return is_and ? "TRUE" : "FALSE";
  std::string out;
  for (size_t i = 0; i < p.children.size(); i++) {
    if (i > 0) out += is_and ? " AND " : " OR ";
    const Predicate& child = p.children[i];
    const bool parenthesise = !child.is_leaf() && child.children.size() > 1;
    out += parenthesise ? "(" + child.ToString() + ")" : child.ToString();
  }
  return out;
}

}  // namespace

Predicate Predicate::Compare(std::string column, CompareOp op, Value literal) {
  Predicate p = Leaf(Kind::kComparison, std::move(column));
  p.op = op;
  p.literal = std::move(literal);
  return p;
}

Predicate Predicate::In(std::string column, std::vector<Value> values) {
  Predicate p = Leaf(Kind::kIn, std::move(column));
  p.in_list = std::move(values);
  return p;
}

Predicate Predicate::IsNull(std::string column) { return Leaf(Kind::kIsNull, std::move(column)); }

Predicate Predicate::IsNotNull(std::string column) {
  return Leaf(Kind::kIsNotNull, std::move(column));
}

Predicate Predicate::And(std::vector<Predicate> children) {
  return Inner(Kind::kAnd, std::move(children));
}

Predicate Predicate::Or(std::vector<Predicate> children) {
  return Inner(Kind::kOr, std::move(children));
}

std::string Predicate::ToString() const {
  switch (kind) {
    case Kind::kComparison:
      return column + " " + CompareOpSymbol(op) + " " + literal.ToCqlLiteral();
    case Kind::kIn: {
      std::string out = column + " IN (";
      for (size_t i = 0; i < in_list.size(); i++) {
        if (i > 0) out += ", ";
        out += in_list[i].ToCqlLiteral();
      }
      return out + ")";
    }
    case Kind::kIsNull:
      return column + " IS NULL";
    case Kind::kIsNotNull:
      return column + " IS NOT NULL";
    case Kind::kAnd:
    case Kind::kOr:
      return InnerToString(*this);
  }
  return "?";
}

}  // namespace columnar
