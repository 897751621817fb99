#include "filter/evaluator.h"

#include <algorithm>
#include <string>
#include <utility>

#include "filter/bitmap_combine.h"
#include "filter/prune.h"
#include "filter/single_column_evaluator.h"

namespace columnar {

namespace {

// The first leaf of a predicate that reads a column (empty ANDs / ORs have no leaves).
const BoundPredicate* FirstLeaf(const BoundPredicate& p) {
  if (p.is_leaf()) return &p;
  for (const BoundPredicate& child : p.children) {
    if (const BoundPredicate* leaf = FirstLeaf(child)) return leaf;
  }
  return nullptr;
}

Status CheckVector(const BoundPredicate& leaf, const ColumnVector* values, size_t rows,
                   const char* what) {
  const bool type_ok = values != nullptr && values->type() == leaf.physical_type;
  if (type_ok && (rows == SIZE_MAX || values->size() == rows)) return Status::OK();
  std::string message = "filter: column '" + leaf.column_name + "': ";
  if (values == nullptr) {
    message += std::string("no ") + what + " given";
  } else if (!type_ok) {
    message += std::string(what) + " hold " + PhysicalTypeName(values->type()) +
               " values, the predicate compares " + PhysicalTypeName(leaf.physical_type);
  } else {
    message += std::to_string(values->size()) + " " + what + " for a row group of " +
               std::to_string(rows) + " rows";
  }
  return Status::InvalidArgument(message);
}

Status CheckColumnData(const BoundPredicate& p, const ColumnData& data, size_t rows) {
  const BoundPredicate& leaf = *FirstLeaf(p);
  switch (data.form) {
    case ColumnData::Form::kUnavailable:
      return Status::OK();
    case ColumnData::Form::kPlain:
      return CheckVector(leaf, data.values, rows, "values");
    case ColumnData::Form::kDictionary: {
      Status s = CheckVector(leaf, data.dictionary, SIZE_MAX, "dictionary entries");
      if (!s.ok()) return s;
      if (data.dictionary->has_nulls() || (data.codes == nullptr && data.code_count > 0)) {
        return Status::InvalidArgument("filter: column '" + leaf.column_name +
                                       "': malformed dictionary form");
      }
      return Status::OK();
    }
  }
  return Status::InvalidArgument("filter: unknown column data form");
}

// The evaluation of one row group.
class RowGroupEvaluation {
 public:
  RowGroupEvaluation(size_t rows, ColumnSource* source, SimdLevel level,
                     const ZoneMapSet* zone_maps, EvaluationResult* result)
      : rows_(rows), source_(source), level_(level), zone_maps_(zone_maps), result_(result) {
    fetched_.reserve(4);
  }

  Status Evaluate(const PlanNode& node, const SelectionBitmap& care, SelectionBitmap* out) {
    if (care.None()) {
      out->Reset(rows_, false);
      return Status::OK();
    }
    if (node.single_column) return EvaluateSingleColumn(node, care, out);
    const auto eval_child = [this](const PlanNode& child, const SelectionBitmap& child_care,
                                   SelectionBitmap* child_out) {
      return Evaluate(child, child_care, child_out);
    };
    return CombineChildren(node.is_and, node.children, care, eval_child, out);
  }

 private:
  Status EvaluateSingleColumn(const PlanNode& node, const SelectionBitmap& care,
                              SelectionBitmap* out) {
    const PruneResult verdict =
        zone_maps_ == nullptr ? PruneResult::kMaybe : Prune(node.predicate, *zone_maps_);
    if (verdict != PruneResult::kMaybe) {
      out->Reset(rows_, verdict == PruneResult::kAllRowsMatch);
      return Status::OK();
    }
    const ColumnData* data;
    Status s = Fetch(node, &data);
    if (!s.ok()) return s;
    switch (data->form) {
      case ColumnData::Form::kUnavailable:
        result_->exact = false;
        *out = care;
        return Status::OK();
      case ColumnData::Form::kPlain:
        EvaluateOnColumn(node.predicate, *data->values, care, level_, out);
        return Status::OK();
      case ColumnData::Form::kDictionary:
        return EvaluateOnDictionary(node.predicate, *data, rows_, level_, out);
    }
    return Status::OK();
  }

  // The node's column, fetched and checked on first use.
  Status Fetch(const PlanNode& node, const ColumnData** data) {
    for (const auto& [id, fetched] : fetched_) {
      if (id == node.column_id) {
        *data = &fetched;
        return Status::OK();
      }
    }
    ColumnData fetched;
    Status s = source_->Fetch(node.column_id, &fetched);
    if (!s.ok()) return s;
    s = CheckColumnData(node.predicate, fetched, rows_);
    if (!s.ok()) return s;
    result_->fetched_columns.push_back(node.column_id);
    fetched_.emplace_back(node.column_id, fetched);
    *data = &fetched_.back().second;
    return Status::OK();
  }

  size_t rows_;
  ColumnSource* source_;
  SimdLevel level_;
  const ZoneMapSet* zone_maps_;
  EvaluationResult* result_;
  // Few columns per predicate: a vector beats a map. Stable addresses are not needed: a
  // pointer handed out is used before the next fetch.
  std::vector<std::pair<uint32_t, ColumnData>> fetched_;
};

}  // namespace

FilterEvaluator::FilterEvaluator(const BoundPredicate& predicate, SimdLevel level)
    : plan_(PlanEvaluation(predicate)),
      level_(SimdLevelAvailable(level) ? level : SimdLevel::kBest) {}

Status FilterEvaluator::Evaluate(size_t rows, ColumnSource* source, EvaluationResult* result,
                                 const ZoneMapSet* zone_maps) const {
  result->fetched_columns.clear();
  result->exact = true;
  RowGroupEvaluation evaluation(rows, source, level_, zone_maps, result);
  Status s = evaluation.Evaluate(plan_, SelectionBitmap(rows, true), &result->selection);
  if (!s.ok()) result->selection.Reset(rows, false);
  return s;
}

}  // namespace columnar
