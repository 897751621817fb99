// ColumnSource: how the evaluator obtains the decoded columns of one row group. The evaluator
// asks for a column only when it needs it (a conjunction that is already false for every row
// asks for nothing more), so a reader can decode lazily and skip the rest.
//
// A column arrives in one of two forms:
//   plain       a ColumnVector with one value (or null) per row;
//   dictionary  the decoded dictionary (distinct values, no nulls; encodings/dictionary.h),
//               one code per present row, and the chunk's presence bitmap (chunk.h: bit i,
//               LSB-first, set = row i present; empty when the chunk has no nulls).
// or is unavailable (the reader cannot provide it): the evaluator then treats every row as a
// possible match for the predicates on that column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

struct ColumnData {
  enum class Form : uint8_t { kUnavailable, kPlain, kDictionary };

  Form form = Form::kUnavailable;
  const ColumnVector* values = nullptr;      // kPlain
  const ColumnVector* dictionary = nullptr;  // kDictionary
  const uint32_t* codes = nullptr;           // kDictionary: one per present row
  size_t code_count = 0;
  Slice presence;  // kDictionary: ceil(rows / 8) bytes, or empty when no row is null

  static ColumnData Plain(const ColumnVector* values);
  static ColumnData Dictionary(const ColumnVector* dictionary, const uint32_t* codes,
                               size_t code_count, Slice presence);
};

class ColumnSource {
 public:
  virtual ~ColumnSource() = default;
  // Fills *data with column `column_id` of the row group being evaluated. What it points to
  // must stay valid until the evaluation returns. A non-OK status (a damaged chunk, say) ends
  // the evaluation with that status.
  virtual Status Fetch(uint32_t column_id, ColumnData* data) = 0;
};

// A ColumnSource over columns already in memory; columns never added are unavailable.
class MemoryColumnSource : public ColumnSource {
 public:
  void Add(uint32_t column_id, const ColumnData& data) { columns_[column_id] = data; }
  Status Fetch(uint32_t column_id, ColumnData* data) override;

 private:
  std::map<uint32_t, ColumnData> columns_;
};

}  // namespace columnar
