#include "filter/bound_predicate.h"

#include <algorithm>

namespace columnar {

namespace {

void CollectColumns(const BoundPredicate& p, std::vector<uint32_t>* ids) {
  if (p.is_leaf()) {
    ids->push_back(p.column_id);
    return;
  }
  for (const BoundPredicate& child : p.children) CollectColumns(child, ids);
}

// The unbound form, which prints the same text.
Predicate Unbind(const BoundPredicate& p) {
  switch (p.kind) {
    case BoundPredicate::Kind::kComparison:
      return Predicate::Compare(p.column_name, p.op, p.literal);
    case BoundPredicate::Kind::kIn:
      return Predicate::In(p.column_name, p.in_values);
    case BoundPredicate::Kind::kIsNull:
      return Predicate::IsNull(p.column_name);
    case BoundPredicate::Kind::kIsNotNull:
      return Predicate::IsNotNull(p.column_name);
    case BoundPredicate::Kind::kAnd:
    case BoundPredicate::Kind::kOr: {
      std::vector<Predicate> children;
      children.reserve(p.children.size());
      for (const BoundPredicate& child : p.children) children.push_back(Unbind(child));
      return p.kind == BoundPredicate::Kind::kAnd ? Predicate::And(std::move(children))
                                                  : Predicate::Or(std::move(children));
    }
  }
  return Predicate();
}

}  // namespace

std::vector<uint32_t> BoundPredicate::ReferencedColumns() const {
  std::vector<uint32_t> ids;
  CollectColumns(*this, &ids);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::string BoundPredicate::ToString() const { return Unbind(*this).ToString(); }

bool LeafMatchesDatum(const BoundPredicate& leaf, const Datum* value) {
  switch (leaf.kind) {
    case BoundPredicate::Kind::kIsNull:
      return value == nullptr;
    case BoundPredicate::Kind::kIsNotNull:
      return value != nullptr;
    case BoundPredicate::Kind::kComparison:
      return value != nullptr && OrderSatisfies(leaf.op, CompareDatums(*value, leaf.constant));
    case BoundPredicate::Kind::kIn:
      return value != nullptr &&
             std::binary_search(leaf.in_datums.begin(), leaf.in_datums.end(), *value);
    case BoundPredicate::Kind::kAnd:
    case BoundPredicate::Kind::kOr:
      break;
  }
  return false;
}

bool SingleColumnMatchesDatum(const BoundPredicate& predicate, const Datum* value) {
  if (predicate.is_leaf()) return LeafMatchesDatum(predicate, value);
  const bool is_and = predicate.kind == BoundPredicate::Kind::kAnd;
  for (const BoundPredicate& child : predicate.children) {
    if (SingleColumnMatchesDatum(child, value) != is_and) return !is_and;
  }
  return is_and;
}

}  // namespace columnar
