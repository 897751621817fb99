#include "filter/prune.h"

namespace columnar {

namespace {

PruneResult Verdict(bool none, bool all) {
  if (none) return PruneResult::kNoRowMatches;
  return all ? PruneResult::kAllRowsMatch : PruneResult::kMaybe;
}

// Where a constant lies relative to the bounds. A cut (inexact) bound is strict: a truncated
// min is a proper prefix of the real min, a rounded-up max lies above every value.
class BoundsView {
 public:
  BoundsView(const ZoneMap& zm, const Datum& c)
      : min_order_(CompareDatums(zm.min, c)),
        min_strict_(!zm.min_exact),
        has_max_(zm.has_max),
        max_order_(zm.has_max ? CompareDatums(zm.max, c) : 1),
        max_strict_(zm.has_max && !zm.max_exact) {}

  // Every value > c / >= c / < c / <= c.
  bool AllAbove() const { return min_order_ > 0 || (min_strict_ && min_order_ == 0); }
  bool AllAtLeast() const { return min_order_ >= 0; }
  bool AllBelow() const { return has_max_ && (max_order_ < 0 || (max_strict_ && max_order_ == 0)); }
  bool AllAtMost() const { return has_max_ && max_order_ <= 0; }
  // No value equals c.
  bool Excludes() const { return AllAbove() || AllBelow(); }

 private:
  int min_order_;
  bool min_strict_;
  bool has_max_;
  int max_order_;
  bool max_strict_;
};

// Every non-null value equals c.
bool OnlyValueIs(const ZoneMap& zm, const Datum& c) {
  return zm.min_exact && zm.has_max && zm.max_exact && zm.min == zm.max && zm.min == c;
}

PruneResult PruneComparison(const BoundPredicate& leaf, const ZoneMap& zm) {
  const Datum& c = leaf.constant;
  const BoundsView bounds(zm, c);
  const bool no_nulls = zm.null_count == 0;
  switch (leaf.op) {
    case CompareOp::kEq:
      return Verdict(bounds.Excludes(), no_nulls && OnlyValueIs(zm, c));
    case CompareOp::kNe:
      return Verdict(OnlyValueIs(zm, c), no_nulls && bounds.Excludes());
    case CompareOp::kLt:
      return Verdict(bounds.AllAtLeast(), no_nulls && bounds.AllBelow());
    case CompareOp::kLe:
      return Verdict(bounds.AllAbove(), no_nulls && bounds.AllAtMost());
    case CompareOp::kGt:
      return Verdict(bounds.AllAtMost(), no_nulls && bounds.AllAbove());
    case CompareOp::kGe:
      return Verdict(bounds.AllBelow(), no_nulls && bounds.AllAtLeast());
  }
  return PruneResult::kMaybe;
}

PruneResult PruneIn(const BoundPredicate& leaf, const ZoneMap& zm) {
  bool none = true;
  bool all = false;
  for (const Datum& c : leaf.in_datums) {
    none = none && BoundsView(zm, c).Excludes();
    all = all || (zm.null_count == 0 && OnlyValueIs(zm, c));
  }
  return Verdict(none, all);
}

// Whether the zone map lists every distinct value (an all-null run has none to list).
bool KnowsAllValues(const ZoneMap& zm) { return zm.has_value_set || zm.non_null_count() == 0; }

// Exact verdict of a one-column predicate from the column's value set.
PruneResult PruneByValueSet(const BoundPredicate& predicate, const ZoneMap& zm) {
  size_t matching = 0;
  for (const Datum& v : zm.value_set) matching += SingleColumnMatchesDatum(predicate, &v);
  const bool has_nulls = zm.null_count > 0;
  const bool null_result = SingleColumnMatchesDatum(predicate, nullptr);
  return Verdict(matching == 0 && (!has_nulls || !null_result),
                 matching == zm.value_set.size() && (!has_nulls || null_result));
}

// True when the predicate has leaves and all of them read one column (*column, *type).
bool ReadsOneColumn(const BoundPredicate& p, bool* seen, uint32_t* column, PhysicalType* type) {
  if (p.is_leaf()) {
    if (*seen && p.column_id != *column) return false;
    *seen = true;
    *column = p.column_id;
    *type = p.physical_type;
    return true;
  }
  for (const BoundPredicate& child : p.children) {
    if (!ReadsOneColumn(child, seen, column, type)) return false;
  }
  return *seen;
}

PruneResult PruneNode(const BoundPredicate& p, const ZoneMapSet& zone_maps);

PruneResult CombineChildren(const BoundPredicate& p, const ZoneMapSet& zone_maps) {
  const bool is_and = p.kind == BoundPredicate::Kind::kAnd;
  // AND: one child without matches decides; OR: one child matching everywhere decides.
  const PruneResult decisive = is_and ? PruneResult::kNoRowMatches : PruneResult::kAllRowsMatch;
  const PruneResult neutral = is_and ? PruneResult::kAllRowsMatch : PruneResult::kNoRowMatches;
  PruneResult combined = neutral;
  for (const BoundPredicate& child : p.children) {
    const PruneResult r = PruneNode(child, zone_maps);
    if (r == decisive) return decisive;
    if (r == PruneResult::kMaybe) combined = PruneResult::kMaybe;
  }
  return combined;
}

PruneResult PruneNode(const BoundPredicate& p, const ZoneMapSet& zone_maps) {
  bool seen = false;
  uint32_t column = 0;
  PhysicalType type = PhysicalType::kInt64;
  if (ReadsOneColumn(p, &seen, &column, &type)) {
    const ZoneMap* zm = zone_maps.Find(column);
    if (zm == nullptr || zm->type != type) return PruneResult::kMaybe;
    if (KnowsAllValues(*zm)) return PruneByValueSet(p, *zm);
    if (p.is_leaf()) return PruneLeaf(p, *zm);
  }
  return CombineChildren(p, zone_maps);
}

}  // namespace

const char* PruneResultName(PruneResult result) {
  switch (result) {
    case PruneResult::kNoRowMatches:
      return "no row matches";
    case PruneResult::kAllRowsMatch:
      return "all rows match";
    case PruneResult::kMaybe:
      return "maybe";
  }
  return "?";
}

PruneResult PruneLeaf(const BoundPredicate& leaf, const ZoneMap& zm) {
  if (zm.type != leaf.physical_type) return PruneResult::kMaybe;
  if (KnowsAllValues(zm)) return PruneByValueSet(leaf, zm);
  switch (leaf.kind) {
    case BoundPredicate::Kind::kIsNull:
      return Verdict(zm.null_count == 0, zm.non_null_count() == 0);
    case BoundPredicate::Kind::kIsNotNull:
      return Verdict(zm.non_null_count() == 0, zm.null_count == 0);
    case BoundPredicate::Kind::kComparison:
      return PruneComparison(leaf, zm);
    case BoundPredicate::Kind::kIn:
      return PruneIn(leaf, zm);
    case BoundPredicate::Kind::kAnd:
    case BoundPredicate::Kind::kOr:
      break;
  }
  return PruneResult::kMaybe;
}

PruneResult Prune(const BoundPredicate& predicate, const ZoneMapSet& zone_maps) {
  return PruneNode(predicate, zone_maps);
}

}  // namespace columnar
