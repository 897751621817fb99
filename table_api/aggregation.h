// AggregateOutput: the aggregates of a SELECT (SelectQuery::aggregates, GROUP BY a primary key
// prefix and a time bucket), computed on column vectors as the scan hands them over.
//
// Rows arrive in key order (or its reverse) from either read path (scan_executor.h): batches
// of the columnar path are aggregated as they are; rows of the row path are first gathered
// into batches, so one piece of code computes every aggregate whichever path served the rows.
// Groups are key prefixes, so each group's rows are contiguous: groups are closed as the key
// changes, with no hash table.
//
// Results: count -> bigint; min / max -> the column's type, ordered as CompareValues orders
// values (floats by their total order: -NaN < -inf < ... < -0.0 < 0.0 < ... < NaN); sum ->
// bigint for int and bigint columns (wrapping on overflow), double for float and double; avg ->
// double (sum / count). Nulls are skipped; min / max / avg of a group without values are null,
// its sum 0. Without GROUP BY an empty scan still gives one row (count 0).
// Floating-point sums are exact functions of the rows: values are added one at a time, as
// doubles, in scan order (key order, or reversed), which both read paths share, so every table
// format and read path gives bit-identical results. A NaN result is the canonical quiet NaN
// (its payload would depend on the order of operands, which compilers may swap).
//
// Row groups from statistics (AddStatistics): the columnar path offers row groups whose zone
// maps describe exactly the rows the scan returns (plugin/column_scan.h). Such a group is
// taken without decoding when its statistics answer every aggregate -- COUNT(*) from the row
// count, COUNT(col) from the null count, MIN / MAX from the exact bounds (byte strings only
// when the bound was not cut), SUM / AVG of int and bigint from the wrapping sum -- and all its
// rows fall into one group of the GROUP BY (one partition; each grouped clustering column, or
// its time bucket, the same at both bounds). These are exact, order-free results, equal to
// what adding the group's rows would give. SUM / AVG of float and double are never taken from
// statistics: a per-group sum added to the running sum is not the row-by-row sum in scan
// order, and results must not depend on which path served a group.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_api/column_batch.h"
#include "table_api/result_set.h"
#include "table_api/scan_executor.h"
#include "table_api/select_query.h"

namespace columnar {

class AggregateOutput : public ScanOutput {
 public:
  // `plan` must have an aggregation; the group rows are appended to *result.
  AggregateOutput(const SelectPlan& plan, ResultSet* result);

  bool AddRow(const Row& row) override;
  bool AddBatch(const ColumnBatch& batch) override;
  bool TakesStatistics() const override { return true; }
  bool AddStatistics(const TableSchema& schema, const ColumnScanStatistics& group,
                     bool* more) override;
  // Closes the last group. Call once, after the scan.
  void Finish();

  // The result's column names and types (group-by columns, then aggregates).
  static void ResultColumns(const SelectPlan& plan, std::vector<std::string>* names,
                            std::vector<LogicalType>* types);

 private:
  struct State {
    uint64_t count = 0;
    bool has_best = false;
    uint64_t best_key = 0;  // min / max of fixed-width values: the order key
    uint64_t best_bits = 0;
    std::string best_bytes;
    uint64_t int_sum = 0;  // wrapping
    double float_sum = 0;
  };

  bool Consume(const ColumnBatch& batch);
  // Aggregates the rows gathered from the row path; false once the LIMIT of groups is reached.
  bool ConsumePending();
  // The group key of row `row` of `batch` into *key.
  void GroupKey(const ColumnBatch& batch, size_t row, std::vector<Value>* key) const;
  // Replaces the last key column by its time bucket, when the plan has one.
  void BucketLast(std::vector<Value>* key) const;
  // The group key every row of a group from statistics has, into *key; false when its rows
  // may fall into several groups (or the statistics cannot tell).
  bool StatisticsGroupKey(const TableSchema& schema, const ColumnScanStatistics& group,
                          std::vector<Value>* key) const;
  // Makes *key the current group (closing the previous one when it differs; *key is left
  // unspecified); false once the LIMIT of groups is reached.
  bool EnterGroup(std::vector<Value>* key);
  void Accumulate(const ColumnBatch& batch, size_t begin, size_t end);
  static void OfferFixed(bool min, uint64_t order_key, uint64_t bits, State* state);
  static void OfferBytes(bool min, const Slice& bytes, State* state);
  void Emit();

  const SelectPlan& plan_;
  const AggregatePlan& aggregation_;
  ResultSet* result_;
  ColumnBatch pending_;  // rows of the row path
  std::vector<State> states_;
  std::vector<Value> key_;
  std::vector<Value> scratch_key_;
  std::vector<Value> statistics_key_;  // apart from scratch_key_, which Consume overwrites
  bool in_group_ = false;
  uint64_t groups_ = 0;
  bool done_ = false;  // the LIMIT of groups is reached
};

}  // namespace columnar
