// Table::ImportCsv (csv_import.h). Every row before a bad record is written and nothing from it
// on: records are parsed and checked a batch at a time, and a batch the table refuses is written
// again row by row up to the row it refuses.
#include <memory>

#include "table_api/csv_import.h"
#include "table_api/csv_reader.h"
#include "table_api/status_context.h"
#include "table_api/table.h"

namespace columnar {
namespace {

Status ImportColumns(const TableSchema& schema, const ImportCsvOptions& options,
                     const std::vector<CsvField>* header, std::vector<const ColumnDef*>* columns) {
  std::vector<std::string> names = options.columns;
  if (names.empty() && header != nullptr) {
    for (const CsvField& field : *header) names.push_back(field.text);
  }
  if (names.empty()) names = schema.LiveColumnNamesInKeyOrder();
  for (const std::string& name : names) {
    const ColumnDef* column = schema.FindColumn(name);
    if (column == nullptr) return Status::InvalidArgument("unknown column '" + name + "'");
    for (const ColumnDef* seen : *columns) {
      if (seen == column) return Status::InvalidArgument("column '" + name + "' given twice");
    }
    columns->push_back(column);
  }
  return Status::OK();
}

Status RecordToRow(const std::vector<const ColumnDef*>& columns,
                   const std::vector<CsvField>& fields, size_t column_count, Row* row) {
  if (fields.size() != columns.size()) {
    return Status::InvalidArgument(std::to_string(fields.size()) + " fields where " +
                                   std::to_string(columns.size()) + " columns are imported");
  }
  row->assign(column_count, Value());
  for (size_t i = 0; i < fields.size(); i++) {
    Status s = CsvReader::ParseField(columns[i]->type, fields[i], &(*row)[columns[i]->id]);
    if (!s.ok()) return WithContext("column '" + columns[i]->name + "'", s);
  }
  return Status::OK();
}

std::string AtLine(uint64_t line) { return "line " + std::to_string(line); }

// Whether every field of a record names a column: a header read as data.
bool LooksLikeHeader(const TableSchema& schema, const std::vector<CsvField>& fields) {
  for (const CsvField& field : fields) {
    if (schema.FindColumn(field.text) == nullptr) return false;
  }
  return true;
}

}  // namespace

Status Table::ImportCsv(const std::string& path, const ImportCsvOptions& options,
                        ImportCsvResult* result) {
  ImportCsvResult ignored;
  if (result == nullptr) result = &ignored;
  *result = ImportCsvResult();
  if (options.batch_rows == 0) return WithName(Status::InvalidArgument("batch_rows must be > 0"));
  const std::shared_ptr<const RowCodec> current = codec();
  const TableSchema& schema = current->schema();
  std::unique_ptr<CsvReader> reader;
  Status s = CsvReader::Open(path, &reader);
  if (!s.ok()) return WithName(s);
  std::vector<CsvField> fields;
  bool done = false;
  if (options.header) s = reader->Next(&fields, &done);
  std::vector<const ColumnDef*> columns;
  if (s.ok()) s = ImportColumns(schema, options, options.header ? &fields : nullptr, &columns);
  if (!s.ok()) return WithName(s);

  std::vector<RowWrite> batch;
  std::vector<uint64_t> lines;  // each batched row's line
  // Writes the batch and empties it; when the table refuses it, the rows before the refused
  // one.
  auto flush = [&]() {
    Status written = InsertBatch(batch);
    if (written.ok()) {
      result->rows += batch.size();
    } else {
      for (size_t i = 0; i < batch.size(); i++) {
        written = Insert(batch[i].values, batch[i].options);
        if (!written.ok()) {
          written = WithContext(AtLine(lines[i]), written);
          break;
        }
        result->rows++;
      }
    }
    batch.clear();
    lines.clear();
    if (written.ok() && options.progress) options.progress(result->rows);
    return written;
  };
  while (s.ok()) {
    s = reader->Next(&fields, &done);
    if (!s.ok()) s = WithName(s);
    if (!s.ok() || done) break;
    if (fields.size() == 1 && fields[0].text.empty() && !fields[0].quoted) continue;  // blank
    Row row;
    s = RecordToRow(columns, fields, schema.columns().size(), &row);
    if (!s.ok()) {
      if (reader->record_line() == 1 && !options.header && LooksLikeHeader(schema, fields)) {
        s = Status::InvalidArgument(std::string(s.getState() != nullptr ? s.getState() : "") +
                                    " (the line names columns: is it a header? COPY TO writes "
                                    "one; import it with WITH HEADER = true)");
      }
      s = WithName(WithContext(AtLine(reader->record_line()), s));
      break;
    }
    batch.emplace_back(std::move(row), options.write_options);
    lines.push_back(reader->record_line());
    if (batch.size() == options.batch_rows) s = flush();
  }
  // Rows before a bad record are written too.
  const Status written = batch.empty() ? Status::OK() : flush();
  if (s.ok()) s = written;
  // Errors name the table (Insert's own do) and the file.
  return s.ok() ? s : WithContext(path, s);
}

}  // namespace columnar
