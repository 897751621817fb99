#include "filter/evaluation_plan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace columnar {

namespace {

using Kind = BoundPredicate::Kind;

struct Estimate {
  double cost;
  double selectivity;
};

Estimate LeafEstimate(const BoundPredicate& leaf) {
  const bool bytes = leaf.physical_type == PhysicalType::kBytes;
  const double compare_cost = bytes ? 8.0 : 1.0;
  switch (leaf.kind) {
    case Kind::kIsNull:
      return {0.1, 0.1};
    case Kind::kIsNotNull:
      return {0.1, 0.9};
    case Kind::kIn: {
      const double k = static_cast<double>(leaf.in_datums.size());
      const double cost = bytes ? compare_cost + std::log2(k + 1) : std::min(k, 8.0);
      return {cost, std::min(0.05 * k, 0.9)};
    }
    case Kind::kComparison:
      switch (leaf.op) {
        case CompareOp::kEq:
          return {compare_cost, 0.05};
        case CompareOp::kNe:
          return {compare_cost, 0.95};
        default:
          return {compare_cost, 0.3};
      }
    case Kind::kAnd:
    case Kind::kOr:
      break;
  }
  return {1.0, 0.5};
}

// Combined estimate of children under AND or OR, treating them as independent.
template <typename Child, typename EstimateOf>
Estimate CombineEstimates(bool is_and, const std::vector<Child>& children, EstimateOf of) {
  double cost = 0;
  double pass = 1;  // AND: all pass; OR: none passes
  for (const Child& child : children) {
    const Estimate e = of(child);
    cost += e.cost;
    pass *= is_and ? e.selectivity : 1 - e.selectivity;
  }
  return {cost, is_and ? pass : 1 - pass};
}

// Cost per row removed (AND) or decided (OR): lower runs first.
double Rank(bool parent_is_and, const Estimate& e) {
  const double decided = parent_is_and ? 1 - e.selectivity : e.selectivity;
  return e.cost / std::max(decided, 1e-3);
}

template <typename Child, typename EstimateOf>
void OrderChildren(bool is_and, std::vector<Child>* children, EstimateOf of) {
  std::stable_sort(children->begin(), children->end(), [&](const Child& a, const Child& b) {
    return Rank(is_and, of(a)) < Rank(is_and, of(b));
  });
}

Estimate PredicateEstimate(const BoundPredicate& p) {
  if (p.is_leaf()) return LeafEstimate(p);
  return CombineEstimates(p.kind == Kind::kAnd, p.children, PredicateEstimate);
}

Estimate NodeEstimate(const PlanNode& node) { return {node.cost, node.selectivity}; }

// Copies `p` with nested same-kind nodes merged into their parent.
BoundPredicate Flatten(const BoundPredicate& p) {
  if (p.is_leaf()) return p;
  BoundPredicate flat;
  flat.kind = p.kind;
  for (const BoundPredicate& child : p.children) {
    BoundPredicate c = Flatten(child);
    if (c.kind == p.kind) {
      for (BoundPredicate& grandchild : c.children) flat.children.push_back(std::move(grandchild));
    } else {
      flat.children.push_back(std::move(c));
    }
  }
  return flat;
}

// Orders the children of a one-column subtree, recursively.
void OrderSubtree(BoundPredicate* p) {
  if (p->is_leaf()) return;
  for (BoundPredicate& child : p->children) OrderSubtree(&child);
  OrderChildren(p->kind == Kind::kAnd, &p->children, PredicateEstimate);
}

PlanNode SingleColumnNode(uint32_t column_id, BoundPredicate predicate) {
  PlanNode node;
  node.single_column = true;
  node.column_id = column_id;
  OrderSubtree(&predicate);
  const Estimate e = PredicateEstimate(predicate);
  node.cost = e.cost;
  node.selectivity = e.selectivity;
  node.predicate = std::move(predicate);
  return node;
}

// True when `p` has leaves and all of them read one column, returned in *column.
bool ReadsOneColumn(const BoundPredicate& p, uint32_t* column) {
  const std::vector<uint32_t> columns = p.ReferencedColumns();
  if (columns.size() != 1) return false;
  *column = columns[0];
  return true;
}

PlanNode PlanFlat(const BoundPredicate& p) {
  uint32_t column;
  if (ReadsOneColumn(p, &column)) return SingleColumnNode(column, p);
  PlanNode node;
  node.is_and = p.kind == Kind::kAnd;
  // Siblings on one column become one single-column node, in order of first appearance.
  std::vector<uint32_t> order;
  std::map<uint32_t, BoundPredicate> by_column;
  for (const BoundPredicate& child : p.children) {
    if (!ReadsOneColumn(child, &column)) {
      node.children.push_back(PlanFlat(child));
      continue;
    }
    auto [it, inserted] = by_column.try_emplace(column);
    if (inserted) {
      order.push_back(column);
      it->second.kind = p.kind;
    }
    it->second.children.push_back(child);
  }
  for (uint32_t id : order) {
    BoundPredicate& group = by_column[id];
    node.children.push_back(SingleColumnNode(
        id, group.children.size() == 1 ? std::move(group.children[0]) : std::move(group)));
  }
  OrderChildren(node.is_and, &node.children, NodeEstimate);
  const Estimate e = CombineEstimates(node.is_and, node.children, NodeEstimate);
  node.cost = e.cost;
  node.selectivity = e.selectivity;
  return node;
}

}  // namespace

std::string PlanNode::ToString() const {
  if (single_column) return "[" + predicate.ToString() + "]";
  if (children.empty()) return is_and ? "TRUE" : "FALSE";
  std::string out = "(";
  for (size_t i = 0; i < children.size(); i++) {
    if (i > 0) out += is_and ? " AND " : " OR ";
    out += children[i].ToString();
  }
  return out + ")";
}

PlanNode PlanEvaluation(const BoundPredicate& predicate) { return PlanFlat(Flatten(predicate)); }

}  // namespace columnar
