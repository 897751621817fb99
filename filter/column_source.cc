#include "filter/column_source.h"

namespace columnar {

ColumnData ColumnData::Plain(const ColumnVector* values) {
  ColumnData data;
  data.form = Form::kPlain;
  data.values = values;
  return data;
}

ColumnData ColumnData::Dictionary(const ColumnVector* dictionary, const uint32_t* codes,
                                  size_t code_count, Slice presence) {
  ColumnData data;
  data.form = Form::kDictionary;
  data.dictionary = dictionary;
  data.codes = codes;
  data.code_count = code_count;
  data.presence = presence;
  return data;
}

Status MemoryColumnSource::Fetch(uint32_t column_id, ColumnData* data) {
  auto it = columns_.find(column_id);
  *data = it == columns_.end() ? ColumnData() : it->second;
  return Status::OK();
}

}  // namespace columnar
