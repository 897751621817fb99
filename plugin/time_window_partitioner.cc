#include "plugin/time_window_partitioner.h"

#include "table_format/key_codec.h"

namespace columnar {

namespace {

// Bytes of a `date` key component (big-endian int32, key_codec.h).
constexpr size_t kDateComponentBytes = 4;

// Both modes are one rule: cut where the key's window changes, once the file holds at least
// `min_file_bytes`. The window of a key is its partition key, or only the partition key's
// last component (the day) in kDay mode.
class TimeWindowSstPartitioner : public rocksdb::SstPartitioner {
 public:
  TimeWindowSstPartitioner(std::shared_ptr<const TableSchema> schema, bool day_only,
                           uint64_t min_file_bytes)
      : schema_(std::move(schema)), day_only_(day_only), min_file_bytes_(min_file_bytes) {}

  const char* Name() const override { return "columnar.TimeWindowSstPartitioner"; }

  rocksdb::PartitionerResult ShouldPartition(const rocksdb::PartitionerRequest& request) override {
    if (request.current_output_file_size < min_file_bytes_) return rocksdb::kNotRequired;
    Slice previous, current;
    if (!WindowOf(*request.prev_user_key, &previous) ||
        !WindowOf(*request.current_user_key, &current) || previous == current) {
      return rocksdb::kNotRequired;
    }
    return rocksdb::kRequired;
  }

  // A file may move to the next level unchanged unless it could hold a window boundary that
  // must be cut: with a size threshold no boundary must be, without one only a file within a
  // single partition is certain to hold one window.
  bool CanDoTrivialMove(const Slice& smallest_user_key, const Slice& largest_user_key) override {
    if (min_file_bytes_ > 0) return true;
    Slice smallest, largest;
    return PartitionPrefix(smallest_user_key, &smallest) &&
           PartitionPrefix(largest_user_key, &largest) && smallest == largest;
  }

 private:
  // False when `key` is not a key of the schema.
  bool PartitionPrefix(const Slice& key, Slice* prefix) const {
    size_t length = 0;
    if (!PartitionKeyLength(*schema_, key, &length).ok()) return false;
    *prefix = Slice(key.data(), length);
    return true;
  }

  bool WindowOf(const Slice& key, Slice* window) const {
    if (!PartitionPrefix(key, window)) return false;
    if (day_only_) window->remove_prefix(window->size() - kDateComponentBytes);
    return true;
  }

  const std::shared_ptr<const TableSchema> schema_;
  const bool day_only_;
  const uint64_t min_file_bytes_;
};

}  // namespace

TimeWindowSstPartitionerFactory::TimeWindowSstPartitionerFactory(
    const TableSchema& schema, const TimeWindowPartitionerOptions& options)
    : schema_(std::make_shared<const TableSchema>(schema)),
      options_(options),
      mode_(ModeFor(schema)) {}

TimeWindowSstPartitionerFactory::Mode TimeWindowSstPartitionerFactory::ModeFor(
    const TableSchema& schema) {
  const size_t columns = schema.partition_key().size();
  return columns > 0 && schema.partition_column(columns - 1).type == LogicalType::kDate
             ? Mode::kDay
             : Mode::kPartition;
}

std::unique_ptr<rocksdb::SstPartitioner> TimeWindowSstPartitionerFactory::CreatePartitioner(
    const rocksdb::SstPartitioner::Context& /*context*/) const {
  const bool day_only = mode_ == Mode::kDay;
  return std::make_unique<TimeWindowSstPartitioner>(schema_, day_only,
                                                    day_only ? 0 : options_.min_file_bytes);
}

}  // namespace columnar
