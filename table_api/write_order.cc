#include "table_api/write_order.h"

#include <algorithm>
#include <charconv>

namespace columnar {
namespace {

// Slack added to the stored mark, so steady ingestion rewrites it about once a second.
constexpr int64_t kStoredSlackMicros = 1000000;
constexpr size_t kBuckets = 65536;

}  // namespace

WriteOrder::WriteOrder(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* metadata, std::string table,
                       std::function<int64_t()> now_micros)
    : db_(db),
      metadata_(metadata),
      key_(HighWaterKey(table)),
      now_micros_(std::move(now_micros)),
      buckets_(kBuckets, INT64_MIN) {}

size_t WriteOrder::BucketOf(const Slice& partition) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; i < partition.size(); i++) {
    hash = (hash ^ static_cast<uint8_t>(partition[i])) * 1099511628211ull;
  }
  return static_cast<size_t>(hash % kBuckets);
}

std::string WriteOrder::HighWaterKey(const std::string& table) {
  return "columnar.write_high_water/" + table;
}

Status WriteOrder::Load() {
  std::string stored;
  Status s = db_->Get(rocksdb::ReadOptions(), metadata_, key_, &stored);
  if (s.IsNotFound()) return Status::OK();
  if (!s.ok()) return s;
  int64_t value = 0;
  const char* end = stored.data() + stored.size();
  auto [ptr, ec] = std::from_chars(stored.data(), end, value);
  if (ec != std::errc() || ptr != end) {
    std::lock_guard<std::mutex> lock(mutex_);
    high_water_ = stored_high_water_ = INT64_MAX;
    buckets_.assign(kBuckets, INT64_MAX);
    return Status::Corruption("write high-water mark of " + key_ + " is not a number");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  high_water_ = stored_high_water_ = value;
  buckets_.assign(kBuckets, value);  // what each partition held is unknown: the bound
  return Status::OK();
}

Status WriteOrder::DeleteStored() { return db_->Delete(rocksdb::WriteOptions(), metadata_, key_); }

std::unique_ptr<WriteOrder::Ticket> WriteOrder::Begin() {
  const int64_t now = now_micros_();
  std::lock_guard<std::mutex> lock(mutex_);
  const int64_t server_time =
      last_server_time_ == INT64_MIN || now > last_server_time_ ? now : last_server_time_ + 1;
  last_server_time_ = server_time;
  return std::unique_ptr<Ticket>(new Ticket(this, next_ticket_++, server_time, now));
}

WriteOrder::Ticket::Ticket(WriteOrder* order, uint64_t number, int64_t server_time,
                           int64_t now_micros)
    : order_(order), number_(number), server_time_(server_time), now_micros_(now_micros) {}

WriteOrder::Ticket::~Ticket() {
  std::unique_lock<std::mutex> lock(order_->mutex_);
  if (!turn_) {
    // Never took its turn (an invalid write): still wait for it, so later tickets move on.
    order_->turn_changed_.wait(lock, [&] { return order_->serving_ == number_; });
  }
  order_->serving_ = number_ + 1;
  order_->turn_changed_.notify_all();
}

void WriteOrder::Ticket::WaitTurn() {
  std::unique_lock<std::mutex> lock(order_->mutex_);
  order_->turn_changed_.wait(lock, [&] { return order_->serving_ == number_; });
  turn_ = true;
  pending_high_water_ = order_->high_water_;
  pending_stored_ = order_->stored_high_water_;
}

bool WriteOrder::Ticket::AboveHighWater(const Slice& partition, int64_t timestamp) const {
  // Buckets change only in Committed(), so this is the value before the turn's batch.
  return timestamp > order_->buckets_[BucketOf(partition)];
}

void WriteOrder::Ticket::Raise(const Slice& partition, int64_t timestamp,
                               rocksdb::WriteBatch* batch) {
  raised_.emplace_back(BucketOf(partition), timestamp);
  if (timestamp <= pending_high_water_) return;
  pending_high_water_ = timestamp;
  if (timestamp <= pending_stored_) return;
  pending_stored_ =
      timestamp > INT64_MAX - kStoredSlackMicros ? INT64_MAX : timestamp + kStoredSlackMicros;
  batch->Put(order_->metadata_, order_->key_, std::to_string(pending_stored_))
      .PermitUncheckedError();
}

void WriteOrder::Ticket::Committed() {
  // Only the turn's holder touches these; the mutex orders them for the next holder.
  std::lock_guard<std::mutex> lock(order_->mutex_);
  order_->high_water_ = pending_high_water_;
  order_->stored_high_water_ = pending_stored_;
  for (const auto& [bucket, timestamp] : raised_) {
    order_->buckets_[bucket] = std::max(order_->buckets_[bucket], timestamp);
  }
}

}  // namespace columnar
