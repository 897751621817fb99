// Table::ImportCsv (the shell's COPY ... FROM): rows from a CSV file (csv_reader.h has the
// format) written through the Table API in batches.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "table_api/row_writer.h"

namespace columnar {

struct ImportCsvOptions {
  // The columns of the fields, in order. Empty: the header's names when `header` is set,
  // otherwise every column in the order COPY TO writes them (partition key, clustering key,
  // then the regular columns).
  std::vector<std::string> columns;
  // The first line holds column names (skipped when `columns` is given).
  bool header = false;
  // Rows written in one atomic batch (InsertBatch); must be positive.
  size_t batch_rows = 1000;
  // TTL and write time of every row (USING TTL / TIMESTAMP).
  RowWriteOptions write_options;
  // Called after each batch with the rows imported so far (a progress line).
  std::function<void(uint64_t rows)> progress;
};

struct ImportCsvResult {
  uint64_t rows = 0;  // rows written
};

}  // namespace columnar
