#include "table_api/scan_executor.h"

#include <algorithm>
#include <limits>

#include "plugin/column_scan.h"
#include "table_format/column_values.h"

namespace columnar {
namespace {

bool Selected(const uint64_t* words, size_t row) { return (words[row >> 6] >> (row & 63)) & 1; }

// The rows a group returns, in scan order, at most `max_rows`.
std::vector<uint32_t> RowsInOrder(const ColumnScanGroup& group, bool reversed, uint64_t max_rows) {
  std::vector<uint32_t> rows;
  rows.reserve(group.selected_count);
  for (uint32_t row = 0; row < group.columns->rows; row++) {
    if (Selected(group.selected, row)) rows.push_back(row);
  }
  if (reversed) std::reverse(rows.begin(), rows.end());
  if (rows.size() > max_rows) rows.resize(max_rows);
  return rows;
}

// The group's column of regular column `id`, or nullptr where the group has none (no cell in
// any of its rows).
const ColumnVector* RegularColumn(const ColumnScanGroup& group, uint32_t id) {
  return id < group.regular.size() ? group.regular[id] : nullptr;
}

bool CellPresent(const ColumnScanGroup& group, uint32_t id, uint32_t row) {
  const ColumnVector* column = RegularColumn(group, id);
  return column != nullptr && !column->IsNull(row);
}

// The projection of select_query.h (ProjectRow) on a group's column vectors: appends the
// selected rows of `group` (a file of schema `schema`) to *out.
Status ProjectGroup(const SelectPlan& plan, const TableSchema& schema, const ColumnScanGroup& group,
                    const std::vector<uint32_t>& rows, int64_t now_seconds, ColumnBatch* out) {
  const TypedGroupColumns& columns = *group.columns;
  std::vector<Value> partition;
  Slice decoded_partition;
  bool partition_decoded = false;
  for (size_t c = 0; c < plan.columns.size(); c++) {
    const ProjectedColumn& column = plan.columns[c];
    ColumnVector& target = out->columns[c];
    const auto id = static_cast<uint32_t>(column.index);
    switch (column.source) {
      case ProjectedColumn::Source::kPartitionKey:
        for (uint32_t row : rows) {
          if (!partition_decoded || columns.partitions[row] != decoded_partition) {
            decoded_partition = columns.partitions[row];
            partition_decoded = true;
            Status s = DecodePartitionKey(schema, decoded_partition, &partition);
            if (!s.ok()) return s;
          }
          AppendValue(partition[column.index], &target);
        }
        break;
      case ProjectedColumn::Source::kClustering:
        target.AppendRows(columns.clustering[column.index], rows.data(), rows.size());
        break;
      case ProjectedColumn::Source::kRegular: {
        // A cell is present where the column's value is (CellPresent).
        const ColumnVector* source = RegularColumn(group, id);
        if (source != nullptr) {
          target.AppendRows(*source, rows.data(), rows.size());
        } else {
          target.AppendNulls(rows.size());
        }
        break;
      }
      case ProjectedColumn::Source::kWriteTime:
        for (uint32_t row : rows) {
          if (CellPresent(group, id, row) && !columns.write_times.IsNull(row)) {
            target.Append<int64_t>(columns.write_times.Get<int64_t>(row));
          } else {
            target.AppendNull();
          }
        }
        break;
      case ProjectedColumn::Source::kTtl: {
        const int64_t now = std::max<int64_t>(now_seconds, 0);
        for (uint32_t row : rows) {
          if (!CellPresent(group, id, row) || columns.expiries.IsNull(row)) {
            target.AppendNull();
            continue;
          }
          const int64_t expiry = columns.expiries.Get<int64_t>(row);
          const int64_t left = expiry > now ? expiry - now : 0;
          target.Append<int32_t>(
              static_cast<int32_t>(std::min<int64_t>(left, std::numeric_limits<int32_t>::max())));
        }
        break;
      }
    }
  }
  out->row_count += rows.size();
  return Status::OK();
}

}  // namespace

ScanExecutor::ScanExecutor(const SelectPlan& plan, ScanSettings settings)
    : plan_(plan),
      settings_(std::move(settings)),
      scanner_(settings_.db, settings_.column_family, settings_.codec, settings_.latest_codec,
               settings_.now_seconds) {
  if (plan_.whole_table) scanner_.DecodePartitions();
  if (settings_.columnar && plan_.filter != nullptr) {
    evaluator_ = std::make_shared<FilterEvaluator>(*plan_.filter);
  }
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  for (const ProjectedColumn& column : plan_.columns) {
    names.push_back(column.name);
    types.push_back(column.type);
  }
  batch_.Reset(names, types);
}

bool ScanExecutor::EmitRow(const std::vector<Value>& partition_key, const ScannedRow& row,
                           ScanOutput* output) {
  // The full predicate, again, on the merged row (the reconciliation rule, pushdown.h).
  if (!RowMatchesFilter(plan_, scanner_.schema(), partition_key, row)) {
    rejected_++;
    return true;
  }
  ProjectRow(plan_, partition_key, row, settings_.now_seconds, &row_);
  returned_++;
  partition_returned_++;
  rows_row_path_++;
  if (!output->AddRow(row_)) stopped_ = true;
  return !stopped_;
}

Status ScanExecutor::ReadRows(const PartitionScan& partition, const KeyRange& range,
                              ScanOutput* output) {
  return scanner_.Scan(settings_.read_options, range, plan_.reversed, [&](const ScannedRow& row) {
    const std::vector<Value>& partition_key =
        plan_.whole_table ? row.partition : partition.partition_key;
    return EmitRow(partition_key, row, output) && !LimitReached() && !PartitionDone();
  });
}

Status ScanExecutor::ReadFirstRowsOfEachPartition(const PartitionScan& whole, ScanOutput* output) {
  KeyRange range = whole.range;
  std::vector<Value> current;
  for (;;) {
    bool partition_done = false;
    Status s = scanner_.Scan(settings_.read_options, range, /*reversed=*/false,
                             [&](const ScannedRow& row) {
                               if (row.partition != current) {
                                 current = row.partition;
                                 partition_returned_ = 0;
                               }
                               if (!EmitRow(row.partition, row, output) || LimitReached()) {
                                 return false;
                               }
                               partition_done = PartitionDone();
                               return !partition_done;
                             });
    if (!s.ok() || !partition_done) return s;
    // Seek past the rest of the partition: its keys all start with its encoded key.
    std::string prefix;
    s = EncodePartitionKey(scanner_.schema(), current, &prefix);
    if (!s.ok()) return s;
    if (!PrefixSuccessor(prefix, &range.start)) return Status::OK();
    if (!range.limit_unbounded && range.start >= range.limit) return Status::OK();
  }
}

uint64_t ScanExecutor::RowsLeft() const {
  uint64_t left = std::numeric_limits<uint64_t>::max();
  if (plan_.limit != 0) left = plan_.limit - std::min(returned_, plan_.limit);
  if (plan_.per_partition_limit != 0) {
    left = std::min(
        left, plan_.per_partition_limit - std::min(partition_returned_, plan_.per_partition_limit));
  }
  return left;
}

Status ScanExecutor::ReadColumnar(const PartitionScan& partition, ScanOutput* output,
                                  SelectStats* stats) {
  std::unique_ptr<ColumnScan> scan;
  Status s = ColumnScan::Open(settings_.db, settings_.column_family,
                              settings_.read_options.snapshot, partition.range, &scan);
  if (!s.ok()) return s;
  ColumnScanRequest request;
  request.predicate = plan_.filter;
  request.evaluator = evaluator_;
  // The filter is evaluated on the groups' own vectors: only the projection's columns are
  // decoded for the output (the row path also keeps the filter's, to check merged rows).
  request.regular_columns = plan_.projected_columns;
  request.fill_cache = settings_.read_options.fill_cache;
  request.now_seconds = settings_.now_seconds;
  // ProjectGroup reads only the key and metadata columns the plan projects.
  request.wanted = ScanColumnsWanted{false, false, false, false};
  for (const ProjectedColumn& column : plan_.columns) {
    request.wanted.partitions |= column.source == ProjectedColumn::Source::kPartitionKey;
    request.wanted.clustering |= column.source == ProjectedColumn::Source::kClustering;
    request.wanted.write_times |= column.source == ProjectedColumn::Source::kWriteTime;
    request.wanted.expiries |= column.source == ProjectedColumn::Source::kTtl;
  }
  const TableSchema* piece_schema = nullptr;
  if (output->TakesStatistics()) {
    request.answer_from_statistics = [&](const ColumnScanStatistics& group, bool* keep_going) {
      bool more = true;
      const bool answered = output->AddStatistics(*piece_schema, group, &more);
      if (!more) {
        stopped_ = true;
        *keep_going = false;
      }
      return answered;
    };
  }
  const size_t count = scan->pieces().size();
  for (size_t i = 0; i < count && s.ok() && !stopped_ && RowsLeft() > 0; i++) {
    const size_t index = plan_.reversed ? count - 1 - i : i;
    const ColumnScan::Piece& piece = scan->pieces()[index];
    if (!piece.columnar) {
      s = ReadRows(partition, piece.range, output);
      continue;
    }
    const TableSchema& schema = scan->schema_of(index);
    piece_schema = &schema;
    Status inner;
    s = scan->ReadPiece(index, request, plan_.reversed, [&](const ColumnScanGroup& group) {
      if (!group.columnar) {
        inner = ReadRows(partition, group.range, output);
      } else {
        batch_.Clear();
        inner = ProjectGroup(plan_, schema, group, RowsInOrder(group, plan_.reversed, RowsLeft()),
                             settings_.now_seconds, &batch_);
        if (inner.ok() && batch_.row_count > 0) {
          returned_ += batch_.row_count;
          partition_returned_ += batch_.row_count;
          if (stats != nullptr) stats->rows_columnar += batch_.row_count;
          if (!output->AddBatch(batch_)) stopped_ = true;
        }
      }
      return inner.ok() && !stopped_ && RowsLeft() > 0;
    });
    if (s.ok()) s = inner;
  }
  if (stats != nullptr) {
    const ColumnScanCounters& counters = scan->counters();
    stats->columnar_pieces += counters.columnar_pieces;
    stats->row_pieces += counters.row_pieces;
    stats->columnar_row_groups += counters.row_groups_read;
    stats->columnar_columns_decoded += counters.columns_decoded;
    stats->columnar_columns_cached += counters.columns_cached;
    stats->row_groups_pruned += counters.row_groups_pruned;
    stats->rows_from_stats += counters.rows_from_statistics;
    stats->row_groups_from_stats += counters.row_groups_from_statistics;
  }
  return s;
}

Status ScanExecutor::ReadScan(const PartitionScan& scan, ScanOutput* output, SelectStats* stats) {
  if (plan_.whole_table && plan_.per_partition_limit != 0) {
    return ReadFirstRowsOfEachPartition(scan, output);
  }
  return settings_.columnar ? ReadColumnar(scan, output, stats)
                            : ReadRows(scan, scan.range, output);
}

Status ScanExecutor::Run(ScanOutput* output, SelectStats* stats) {
  Status s;
  const std::vector<PartitionScan>& scans = plan_.partitions;
  // Partitions in key order; a partition's scans (one per clustering IN value) in its
  // clustering order, or the reverse.
  for (size_t first = 0; first < scans.size() && s.ok() && !stopped_ && !LimitReached();) {
    size_t end = first + 1;
    while (end < scans.size() && scans[end].partition_key == scans[first].partition_key) end++;
    partition_returned_ = 0;
    for (size_t i = 0; i < end - first && s.ok() && !stopped_ && RowsLeft() > 0; i++) {
      s = ReadScan(scans[plan_.reversed ? end - 1 - i : first + i], output, stats);
    }
    first = end;
  }
  if (!s.ok()) return s;
  if (stats != nullptr) {
    stats->rows_rejected_after_merge += rejected_;
    stats->rows_row_path += rows_row_path_;
  }
  return s;
}

}  // namespace columnar
