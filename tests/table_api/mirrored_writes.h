// Writes the same thing to every table under test and to the model, so a differential test
// states each write once. `tables` is any range of Table* (an array of the tables compared).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "table_api/table.h"
#include "tests/table_api/table_model.h"

namespace columnar::test {

template <typename Tables>
void InsertEverywhere(const Tables& tables, TableModel* model, const TableSchema& schema,
                      const std::vector<RowWrite>& rows, int64_t now_micros) {
  for (Table* table : tables) ASSERT_TRUE(table->InsertBatch(rows).ok());
  model->Write(schema, rows, now_micros);
}

template <typename Tables>
void DeleteRowEverywhere(const Tables& tables, TableModel* model, const TableSchema& schema,
                         const std::vector<Value>& partition, const std::vector<Value>& clustering,
                         int64_t now_micros, std::optional<int64_t> timestamp = std::nullopt) {
  RowWriteOptions options;
  options.write_time_micros = timestamp;
  for (Table* table : tables) ASSERT_TRUE(table->DeleteRow(partition, clustering, options).ok());
  model->DeleteRow(schema, partition, clustering, now_micros, timestamp);
}

// Any writes (RowWrite::kind), as one batch.
template <typename Tables>
void WriteEverywhere(const Tables& tables, TableModel* model, const TableSchema& schema,
                     const std::vector<RowWrite>& writes, int64_t now_micros) {
  for (Table* table : tables) ASSERT_TRUE(table->ApplyBatch(writes).ok());
  model->Write(schema, writes, now_micros);
}

template <typename Tables>
void DeletePartitionEverywhere(const Tables& tables, TableModel* model, const TableSchema& schema,
                               const std::vector<Value>& partition, int64_t now_micros,
                               std::optional<int64_t> timestamp = std::nullopt) {
  RowWriteOptions options;
  options.write_time_micros = timestamp;
  for (Table* table : tables) ASSERT_TRUE(table->DeletePartition(partition, options).ok());
  model->DeletePartition(schema, partition, now_micros, timestamp);
}

}  // namespace columnar::test
