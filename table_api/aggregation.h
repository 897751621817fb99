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
  // The group key of row `row` of `batch` into *key.
  void GroupKey(const ColumnBatch& batch, size_t row, std::vector<Value>* key) const;
  void Accumulate(const ColumnBatch& batch, size_t begin, size_t end);
  void Emit();

  const AggregatePlan& aggregation_;
  ResultSet* result_;
  ColumnBatch pending_;  // rows of the row path
  std::vector<State> states_;
  std::vector<Value> key_;
  std::vector<Value> scratch_key_;
  bool in_group_ = false;
  uint64_t groups_ = 0;
  bool done_ = false;  // the LIMIT of groups is reached
};

}  // namespace columnar
