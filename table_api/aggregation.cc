#include "table_api/aggregation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "filter/zone_map_set.h"
#include "plugin/column_scan.h"
#include "table_format/column_values.h"
#include "table_format/key_codec.h"

namespace columnar {
namespace {

// The order of CompareValues as an unsigned key of a fixed-width value's bits.
uint64_t OrderKey(LogicalType type, uint64_t bits) {
  switch (type) {
    case LogicalType::kInt:
    case LogicalType::kDate:
      return static_cast<uint32_t>(bits) ^ 0x80000000u;
    case LogicalType::kBigInt:
    case LogicalType::kTimestamp:
      return bits ^ (uint64_t{1} << 63);
    case LogicalType::kFloat:
      return FloatOrderKey(static_cast<uint32_t>(bits));
    case LogicalType::kDouble:
      return DoubleOrderKey(bits);
    default:
      return bits;
  }
}

// The start of value's bucket. A value less than `width` above the type's minimum can have a
// bucket starting below it, which the type cannot hold: that bucket is labelled with the
// minimum (`lowest`).
int64_t FloorToBucket(int64_t value, int64_t width, int64_t lowest) {
  int64_t quotient = value / width;
  if (value % width != 0 && value < 0) quotient--;
  int64_t bucket;
  if (__builtin_mul_overflow(quotient, width, &bucket)) return lowest;
  return std::max(bucket, lowest);
}

constexpr size_t kGatherRows = 1024;

// NaN's payload after additions depends on operand order, which compilers may swap: one NaN.
double CanonicalNaN(double v) {
  return std::isnan(v) ? std::numeric_limits<double>::quiet_NaN() : v;
}

}  // namespace

void AggregateOutput::ResultColumns(const SelectPlan& plan, std::vector<std::string>* names,
                                    std::vector<LogicalType>* types) {
  const AggregatePlan& aggregation = *plan.aggregation;
  for (size_t i = 0; i < aggregation.group_columns; i++) {
    names->push_back(plan.columns[i].name);
    types->push_back(plan.columns[i].type);
  }
  for (const AggregatePlan::Item& item : aggregation.items) {
    names->push_back(item.name);
    types->push_back(item.result_type);
  }
}

AggregateOutput::AggregateOutput(const SelectPlan& plan, ResultSet* result)
    : plan_(plan),
      aggregation_(*plan.aggregation),
      result_(result),
      states_(aggregation_.items.size()) {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  for (const ProjectedColumn& column : plan.columns) {
    names.push_back(column.name);
    types.push_back(column.type);
  }
  pending_.Reset(names, types);
}

bool AggregateOutput::AddRow(const Row& row) {
  pending_.AppendRow(row);
  if (pending_.row_count < kGatherRows) return true;
  const bool more = Consume(pending_);
  pending_.Clear();
  return more;
}

bool AggregateOutput::ConsumePending() {
  if (pending_.row_count == 0) return !done_;
  const bool more = Consume(pending_);
  pending_.Clear();
  return more;
}

bool AggregateOutput::AddBatch(const ColumnBatch& batch) {
  return ConsumePending() && Consume(batch);
}

namespace {

// The zone map of a projected clustering or regular column in a file of schema `schema`, or
// nullptr.
const ZoneMap* ZoneMapOf(const ProjectedColumn& column, const TableSchema& schema,
                         const ColumnScanStatistics& group) {
  uint32_t id;
  switch (column.source) {
    case ProjectedColumn::Source::kClustering:
      if (column.index >= schema.clustering_key().size()) return nullptr;
      id = schema.clustering_key()[column.index];
      break;
    case ProjectedColumn::Source::kRegular:
      id = static_cast<uint32_t>(column.index);
      break;
    default:
      return nullptr;
  }
  const ZoneMap* zone_map = group.zone_maps->Find(id);
  const bool fits = zone_map != nullptr && zone_map->row_count == group.rows &&
                    zone_map->type == PhysicalTypeOfLogical(column.type);
  return fits ? zone_map : nullptr;
}

// Whether `zone_map` answers `item` exactly.
bool Answers(const AggregatePlan::Item& item, const ZoneMap& zone_map) {
  switch (item.function) {
    case Aggregate::Function::kCount:
      return true;
    case Aggregate::Function::kMin:
      return zone_map.non_null_count() == 0 || zone_map.min_exact;
    case Aggregate::Function::kMax:
      return zone_map.non_null_count() == 0 || (zone_map.has_max && zone_map.max_exact);
    case Aggregate::Function::kSum:
    case Aggregate::Function::kAvg:
      return (item.input_type == LogicalType::kInt || item.input_type == LogicalType::kBigInt) &&
             zone_map.has_sum;
  }
  return false;
}

}  // namespace

bool AggregateOutput::StatisticsGroupKey(const TableSchema& schema,
                                         const ColumnScanStatistics& group,
                                         std::vector<Value>* key) const {
  // The key at the group's lowest and highest values of each key column: equal (after
  // bucketing) when every row has the same key, since key columns are a prefix of the key.
  std::vector<Value> low(aggregation_.group_columns);
  std::vector<Value> high(aggregation_.group_columns);
  std::vector<Value> partition;
  for (size_t c = 0; c < aggregation_.group_columns; c++) {
    const ProjectedColumn& column = plan_.columns[c];
    if (column.source == ProjectedColumn::Source::kPartitionKey) {
      if (!group.one_partition) return false;
      if (partition.empty() && !DecodePartitionKey(schema, group.partition, &partition).ok()) {
        return false;
      }
      if (column.index >= partition.size()) return false;
      low[c] = high[c] = partition[column.index];
      continue;
    }
    const ZoneMap* zone_map = ZoneMapOf(column, schema, group);
    if (column.source != ProjectedColumn::Source::kClustering || zone_map == nullptr ||
        zone_map->null_count != 0 || zone_map->row_count == 0 || !zone_map->min_exact ||
        !zone_map->has_max || !zone_map->max_exact) {
      return false;
    }
    low[c] = zone_map->min.ToValue(column.type);
    high[c] = zone_map->max.ToValue(column.type);
  }
  BucketLast(&low);
  BucketLast(&high);
  if (low != high) return false;
  key->swap(low);
  return true;
}

bool AggregateOutput::AddStatistics(const TableSchema& schema, const ColumnScanStatistics& group,
                                    bool* more) {
  *more = !done_;
  if (done_) return false;
  for (const AggregatePlan::Item& item : aggregation_.items) {
    if (item.input < 0) continue;
    const ZoneMap* zone_map =
        ZoneMapOf(plan_.columns[static_cast<size_t>(item.input)], schema, group);
    if (zone_map == nullptr || !Answers(item, *zone_map)) return false;
  }
  if (aggregation_.group_columns > 0 && !StatisticsGroupKey(schema, group, &statistics_key_)) {
    return false;
  }
  // Rows of the row path gathered so far come first, in scan order.
  if (!ConsumePending()) {
    *more = false;
    return false;
  }
  if (aggregation_.group_columns > 0) {
    if (!EnterGroup(&statistics_key_)) {
      *more = false;
      return true;  // the LIMIT of groups was reached before this group: nothing to add
    }
  } else {
    in_group_ = true;
  }
  for (size_t i = 0; i < aggregation_.items.size(); i++) {
    const AggregatePlan::Item& item = aggregation_.items[i];
    State& state = states_[i];
    if (item.input < 0) {
      state.count += group.rows;
      continue;
    }
    const ZoneMap& zone_map =
        *ZoneMapOf(plan_.columns[static_cast<size_t>(item.input)], schema, group);
    state.count += zone_map.non_null_count();
    if (zone_map.non_null_count() == 0) continue;
    switch (item.function) {
      case Aggregate::Function::kCount:
        break;
      case Aggregate::Function::kMin:
      case Aggregate::Function::kMax: {
        const bool min = item.function == Aggregate::Function::kMin;
        const Datum& bound = min ? zone_map.min : zone_map.max;
        if (bound.type == PhysicalType::kBytes) {
          OfferBytes(min, bound.bytes, &state);
        } else {
          OfferFixed(min, OrderKey(item.input_type, bound.bits), bound.bits, &state);
        }
        break;
      }
      case Aggregate::Function::kSum:
      case Aggregate::Function::kAvg:
        state.int_sum += zone_map.sum;
        break;
    }
  }
  return true;
}

void AggregateOutput::GroupKey(const ColumnBatch& batch, size_t row,
                               std::vector<Value>* key) const {
  key->resize(aggregation_.group_columns);
  for (size_t c = 0; c < aggregation_.group_columns; c++) {
    batch.GetValue(c, row, &(*key)[c]);
  }
  BucketLast(key);
}

void AggregateOutput::BucketLast(std::vector<Value>* key) const {
  if (aggregation_.bucket_width && !key->empty() && !key->back().is_null()) {
    Value& last = key->back();
    const bool wide = FixedWidth(PhysicalTypeOfLogical(last.type())) == 8;
    const int64_t value = wide ? last.int64_value() : last.int32_value();
    const int64_t bucket = FloorToBucket(
        value, *aggregation_.bucket_width,
        wide ? std::numeric_limits<int64_t>::min() : int64_t{std::numeric_limits<int32_t>::min()});
    last.AssignFixedBits(last.type(), wide ? static_cast<uint64_t>(bucket)
                                           : static_cast<uint32_t>(static_cast<int32_t>(bucket)));
  }
}

bool AggregateOutput::EnterGroup(std::vector<Value>* key) {
  if (in_group_ && *key == key_) return true;
  if (in_group_) Emit();
  if (done_) return false;
  key_.swap(*key);
  in_group_ = true;
  return true;
}

bool AggregateOutput::Consume(const ColumnBatch& batch) {
  size_t begin = 0;
  while (begin < batch.row_count && !done_) {
    size_t end = batch.row_count;
    if (aggregation_.group_columns > 0) {
      GroupKey(batch, begin, &scratch_key_);
      if (!EnterGroup(&scratch_key_)) break;
      // The group's rows in this batch: up to the first row of another key.
      for (end = begin + 1; end < batch.row_count; end++) {
        GroupKey(batch, end, &scratch_key_);
        if (scratch_key_ != key_) break;
      }
    } else {
      in_group_ = true;
    }
    Accumulate(batch, begin, end);
    begin = end;
  }
  return !done_;
}

void AggregateOutput::Accumulate(const ColumnBatch& batch, size_t begin, size_t end) {
  for (size_t i = 0; i < aggregation_.items.size(); i++) {
    const AggregatePlan::Item& item = aggregation_.items[i];
    State& state = states_[i];
    if (item.input < 0) {
      state.count += end - begin;
      continue;
    }
    const ColumnVector& column = batch.columns[static_cast<size_t>(item.input)];
    for (size_t row = begin; row < end; row++) {
      if (column.IsNull(row)) continue;
      state.count++;
      switch (item.function) {
        case Aggregate::Function::kCount:
          break;
        case Aggregate::Function::kMin:
        case Aggregate::Function::kMax: {
          const bool min = item.function == Aggregate::Function::kMin;
          if (column.type() == PhysicalType::kBytes) {
            OfferBytes(min, column.GetBytes(row), &state);
          } else {
            const uint64_t bits = FixedBitsAt(column, row);
            OfferFixed(min, OrderKey(item.input_type, bits), bits, &state);
          }
          break;
        }
        case Aggregate::Function::kSum:
        case Aggregate::Function::kAvg:
          switch (column.type()) {
            case PhysicalType::kInt32:
              state.int_sum +=
                  static_cast<uint64_t>(static_cast<int64_t>(column.Get<int32_t>(row)));
              break;
            case PhysicalType::kInt64:
              state.int_sum += static_cast<uint64_t>(column.Get<int64_t>(row));
              break;
            case PhysicalType::kFloat32:
              state.float_sum += static_cast<double>(column.Get<float>(row));
              break;
            case PhysicalType::kFloat64:
              state.float_sum += column.Get<double>(row);
              break;
            case PhysicalType::kBytes:
              break;
          }
          break;
      }
    }
  }
}

void AggregateOutput::OfferFixed(bool min, uint64_t order_key, uint64_t bits, State* state) {
  if (!state->has_best || (min ? order_key < state->best_key : order_key > state->best_key)) {
    state->best_key = order_key;
    state->best_bits = bits;
  }
  state->has_best = true;
}

void AggregateOutput::OfferBytes(bool min, const Slice& bytes, State* state) {
  const int order = state->has_best ? bytes.compare(state->best_bytes) : 0;
  if (!state->has_best || (min ? order < 0 : order > 0)) {
    state->best_bytes.assign(bytes.data(), bytes.size());
  }
  state->has_best = true;
}

void AggregateOutput::Emit() {
  if (aggregation_.group_limit != 0 && groups_ >= aggregation_.group_limit) {
    done_ = true;
    return;
  }
  Row* row = result_->AppendRow();
  row->assign(key_.begin(), key_.end());
  for (size_t i = 0; i < aggregation_.items.size(); i++) {
    const AggregatePlan::Item& item = aggregation_.items[i];
    State& state = states_[i];
    const bool floating =
        item.input_type == LogicalType::kFloat || item.input_type == LogicalType::kDouble;
    switch (item.function) {
      case Aggregate::Function::kCount:
        row->push_back(Value::BigInt(static_cast<int64_t>(state.count)));
        break;
      case Aggregate::Function::kMin:
      case Aggregate::Function::kMax:
        if (!state.has_best) {
          row->push_back(Value());
        } else if (IsBytesType(item.input_type)) {
          row->push_back(Value::FromBytes(item.input_type, state.best_bytes));
        } else {
          row->push_back(Value::FromFixedBits(item.input_type, state.best_bits));
        }
        break;
      case Aggregate::Function::kSum:
        row->push_back(floating ? Value::Double(CanonicalNaN(state.float_sum))
                                : Value::BigInt(static_cast<int64_t>(state.int_sum)));
        break;
      case Aggregate::Function::kAvg:
        if (state.count == 0) {
          row->push_back(Value());
        } else {
          const double sum =
              floating ? state.float_sum : static_cast<double>(static_cast<int64_t>(state.int_sum));
          row->push_back(Value::Double(CanonicalNaN(sum / static_cast<double>(state.count))));
        }
        break;
    }
    state = State();
  }
  groups_++;
  if (aggregation_.group_limit != 0 && groups_ >= aggregation_.group_limit) done_ = true;
}

void AggregateOutput::Finish() {
  ConsumePending();
  if (done_) return;
  // Without GROUP BY there is always one group, even over no rows.
  if (in_group_ || aggregation_.group_columns == 0) Emit();
}

}  // namespace columnar
