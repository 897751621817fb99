// Writes the same thing to every table under test and to the model, so a differential test
// states each write once. `tables` is any range of Table* (an array of the tables compared).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "table_api/table.h"
#include "tests/table_api/table_model.h"

namespace columnar::test {

template <typename Tables>
void InsertEverywhere(const Tables& tables, TableModel* model, const TableSchema& schema,
                      const std::vector<RowWrite>& rows, int64_t now_micros) {
  for (Table* table : tables) ASSERT_TRUE(table->InsertBatch(rows).ok());
  for (const RowWrite& row : rows) model->Insert(schema, row.values, row.options, now_micros);
}

template <typename Tables>
void DeleteRowEverywhere(const Tables& tables, TableModel* model, const TableSchema& schema,
                         const std::vector<Value>& partition,
                         const std::vector<Value>& clustering) {
  for (Table* table : tables) ASSERT_TRUE(table->DeleteRow(partition, clustering).ok());
  model->DeleteRow(schema, partition, clustering);
}

template <typename Tables>
void DeletePartitionEverywhere(const Tables& tables, TableModel* model, const TableSchema& schema,
                               const std::vector<Value>& partition) {
  for (Table* table : tables) ASSERT_TRUE(table->DeletePartition(partition).ok());
  model->DeletePartition(schema, partition);
}

}  // namespace columnar::test
