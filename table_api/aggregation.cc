#include "table_api/aggregation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "table_format/column_values.h"

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
    : aggregation_(*plan.aggregation), result_(result), states_(aggregation_.items.size()) {
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

bool AggregateOutput::AddBatch(const ColumnBatch& batch) {
  if (pending_.row_count > 0) {
    const bool more = Consume(pending_);
    pending_.Clear();
    if (!more) return false;
  }
  return Consume(batch);
}

void AggregateOutput::GroupKey(const ColumnBatch& batch, size_t row,
                               std::vector<Value>* key) const {
  key->resize(aggregation_.group_columns);
  for (size_t c = 0; c < aggregation_.group_columns; c++) {
    batch.GetValue(c, row, &(*key)[c]);
  }
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

bool AggregateOutput::Consume(const ColumnBatch& batch) {
  size_t begin = 0;
  while (begin < batch.row_count && !done_) {
    size_t end = batch.row_count;
    if (aggregation_.group_columns > 0) {
      GroupKey(batch, begin, &scratch_key_);
      if (!in_group_ || scratch_key_ != key_) {
        if (in_group_) Emit();
        if (done_) break;
        key_.swap(scratch_key_);
        in_group_ = true;
      }
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
            const Slice bytes = column.GetBytes(row);
            const int order = state.has_best ? bytes.compare(state.best_bytes) : 0;
            if (!state.has_best || (min ? order < 0 : order > 0)) {
              state.best_bytes.assign(bytes.data(), bytes.size());
            }
          } else {
            const uint64_t bits = FixedBitsAt(column, row);
            const uint64_t key = OrderKey(item.input_type, bits);
            if (!state.has_best || (min ? key < state.best_key : key > state.best_key)) {
              state.best_key = key;
              state.best_bits = bits;
            }
          }
          state.has_best = true;
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
  if (pending_.row_count > 0) {
    Consume(pending_);
    pending_.Clear();
  }
  if (done_) return;
  // Without GROUP BY there is always one group, even over no rows.
  if (in_group_ || aggregation_.group_columns == 0) Emit();
}

}  // namespace columnar
