// TemplateStreamMemos: the encodings one string column's template bodies (template.h) chose for
// their parameter streams, remembered while one table file is written.
//
// A template body's parameter streams (the numbers split off paths and addresses) went through
// the full auto chooser in every chunk: its integer estimates (runs, distinct values, huffman,
// rice, both mixed radixes) were a tenth of the instructions of flush and compaction on string
// columns with templates, and stream k of a column picks the same encoding chunk after chunk.
// Each stream gets an EncodingMemo (encoding_memo.h): the encoding is reused while its size per
// value does not grow past what the chooser obtained, and the chooser runs again every
// EncodingMemo::kReusedChunks chunks (BtrBlocks-style re-estimation). A local template body's
// templates column (the chooser over the bytes encodings: distinct counts, hashing, a trial
// dictionary, in every chunk) has one too.
//
// A column has one set for its local template bodies (owned by the column's EncodingMemo) and
// one per template form of its file dictionary (FileDictionaryWriter), whose streams differ.
// The bodies are normal template bodies: files read exactly as before; only which encoding a
// parameter stream uses may differ from a chooser run's.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "table_format/column_vector.h"

namespace columnar {

class EncodingMemo;

class TemplateStreamMemos {
 public:
  TemplateStreamMemos();
  ~TemplateStreamMemos();
  TemplateStreamMemos(const TemplateStreamMemos&) = delete;
  TemplateStreamMemos& operator=(const TemplateStreamMemos&) = delete;

  // The memo of parameter stream k (created on first use).
  EncodingMemo* Stream(size_t k);
  // The memo of the templates' encoding (local template bodies only: a file dictionary form's
  // templates are codes into the file's dictionary), whose chooser weighs every local bytes
  // encoding but template itself (created on first use).
  EncodingMemo* Templates();

  // Over all streams so far (tests, statistics).
  uint64_t chooser_runs() const;
  uint64_t reused_chunks() const;

 private:
  std::vector<std::unique_ptr<EncodingMemo>> streams_;
  std::unique_ptr<EncodingMemo> templates_;
};

// While alive, the template codec's body of exactly `values` (the object, during the scope)
// built on this thread encodes its parameter streams through `memos`; bodies of other values
// (a chooser's nested trials on run values or exceptions) do not. Scopes nest; null `memos`
// hides an outer scope.
class TemplateStreamScope {
 public:
  TemplateStreamScope(TemplateStreamMemos* memos, const ColumnVector* values);
  ~TemplateStreamScope();
  TemplateStreamScope(const TemplateStreamScope&) = delete;
  TemplateStreamScope& operator=(const TemplateStreamScope&) = delete;

  // The memos of the innermost scope when it was opened for `values`, else nullptr.
  static TemplateStreamMemos* For(const ColumnVector& values);

 private:
  TemplateStreamMemos* previous_memos_;
  const ColumnVector* previous_values_;
};

}  // namespace columnar
