#include "plugin/compaction_inputs.h"

#include <algorithm>

#include "table_format/row_layout.h"

namespace columnar {

CompactionInputs& CompactionInputs::OfThisThread() {
  thread_local CompactionInputs inputs;
  return inputs;
}

void CompactionInputs::Register(const CompactionInputGroup* input) { inputs_.push_back(input); }

void CompactionInputs::Unregister(const CompactionInputGroup* input) {
  inputs_.erase(std::remove(inputs_.begin(), inputs_.end(), input), inputs_.end());
}

bool CompactionInputs::Registered(const CompactionInputGroup* input) const {
  return std::find(inputs_.begin(), inputs_.end(), input) != inputs_.end();
}

const CompactionInputGroup* CompactionInputs::GroupStartingWith(const rocksdb::Slice& key,
                                                                size_t min_bytes) const {
  for (const CompactionInputGroup* input : inputs_) {
    if (input->bytes >= min_bytes && input->rows != nullptr && input->rows->row_count() > 0 &&
        input->rows->internal_key(0) == key) {
      return input;
    }
  }
  return nullptr;
}

}  // namespace columnar
