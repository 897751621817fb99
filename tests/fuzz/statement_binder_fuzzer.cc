// The statement binder (table_api/statement_binding.h): CQL INSERT / SELECT / DELETE text,
// parsed and bound to the fuzz schema (every type, composite partition key, DESC clustering
// column, a dropped column). Binding either succeeds with values of the right types or fails
// with a Status.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "table_api/cql_statements.h"
#include "table_api/statement_binding.h"
#include "tests/fuzz/fuzz_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  const TableSchema& schema = fuzz::FuzzSchema();
  CqlStatement parsed;
  if (!ParseCqlStatement(Slice(reinterpret_cast<const char*>(data), size), &parsed).ok()) {
    return 0;
  }
  if (auto* insert = std::get_if<InsertStatement>(&parsed.statement)) {
    Row row;
    RowWriteOptions options;
    if (BindInsert(schema, *insert, &row, &options).ok()) {
      FUZZ_CHECK(row.size() <= schema.next_column_id());
      for (size_t id = 0; id < row.size(); id++) {
        if (row[id].is_null()) continue;
        const ColumnDef* column = schema.ColumnById(static_cast<uint32_t>(id));
        FUZZ_CHECK(column != nullptr && column->is_live());
        FUZZ_CHECK(row[id].type() == column->type);
      }
    }
  } else if (auto* select = std::get_if<SelectStatement>(&parsed.statement)) {
    SelectQuery query;
    if (BindSelect(schema, *select, &query).ok()) {
      SelectPlan plan;
      (void)PlanSelect(schema, query, &plan);
    }
  } else if (auto* remove = std::get_if<DeleteStatement>(&parsed.statement)) {
    DeleteTarget target;
    if (BindDelete(schema, *remove, &target).ok()) {
      FUZZ_CHECK(target.partition_key.size() == schema.partition_key().size());
      FUZZ_CHECK(target.whole_partition ||
                 target.clustering_key.size() == schema.clustering_key().size());
    }
  }
  return 0;
}
