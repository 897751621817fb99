#include "table_api/write_order.h"

#include <algorithm>
#include <charconv>

namespace columnar {
namespace {

// Slack added to the stored bound, so steady ingestion rewrites it about once a second.
constexpr int64_t kStoredSlackMicros = 1000000;
constexpr size_t kBuckets = 65536;
// Lock stripes: enough that writers of different partitions rarely share one.
constexpr size_t kStripes = 1024;

}  // namespace

WriteOrder::WriteOrder(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* metadata, std::string table,
                       std::function<int64_t()> now_micros)
    : db_(db),
      metadata_(metadata),
      key_(HighWaterKey(table)),
      now_micros_(std::move(now_micros)),
      stripe_locks_(new std::mutex[kStripes]),
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
  const bool malformed = ec != std::errc() || ptr != end;
  if (malformed) value = INT64_MAX;
  // Called before the table is shared: no writer holds a stripe.
  stored_high_water_.store(value);
  buckets_.assign(kBuckets, value);  // what each partition held is unknown: the bound
  return malformed ? Status::Corruption("write high-water mark of " + key_ + " is not a number")
                   : Status::OK();
}

Status WriteOrder::DeleteStored() { return db_->Delete(rocksdb::WriteOptions(), metadata_, key_); }

int64_t WriteOrder::NextServerTime() {
  const int64_t now = now_micros_();
  int64_t last = last_server_time_.load();
  int64_t next;
  do {
    next = last == INT64_MIN || now > last ? now : last + 1;
  } while (!last_server_time_.compare_exchange_weak(last, next));
  return next;
}

std::unique_ptr<WriteOrder::Turn> WriteOrder::Lock(const std::vector<Slice>& partitions) {
  std::vector<size_t> buckets;
  buckets.reserve(partitions.size());
  for (const Slice& partition : partitions) buckets.push_back(BucketOf(partition));
  std::unique_ptr<Turn> turn(new Turn(this, std::move(buckets)));
  for (size_t stripe : turn->stripes_) stripe_locks_[stripe].lock();
  return turn;
}

WriteOrder::Turn::Turn(WriteOrder* order, std::vector<size_t> buckets)
    : order_(order), buckets_(std::move(buckets)) {
  stripes_.reserve(buckets_.size());
  for (size_t bucket : buckets_) stripes_.push_back(bucket % kStripes);
  std::sort(stripes_.begin(), stripes_.end());
  stripes_.erase(std::unique(stripes_.begin(), stripes_.end()), stripes_.end());
}

WriteOrder::Turn::~Turn() {
  if (stored_lock_.owns_lock()) stored_lock_.unlock();
  for (auto it = stripes_.rbegin(); it != stripes_.rend(); ++it) {
    order_->stripe_locks_[*it].unlock();
  }
}

bool WriteOrder::Turn::AboveHighWater(size_t i, int64_t timestamp) const {
  // Buckets change only in Written(), so this is the value before the turn's batch.
  return timestamp > order_->buckets_[buckets_[i]];
}

void WriteOrder::Turn::Raise(size_t i, int64_t timestamp) {
  raised_.emplace_back(buckets_[i], timestamp);
  batch_high_ = std::max(batch_high_, timestamp);
}

void WriteOrder::Turn::AddStoredBound(rocksdb::WriteBatch* batch) {
  if (batch_high_ <= order_->stored_high_water_.load()) return;
  stored_lock_ = std::unique_lock<std::mutex>(order_->stored_mutex_);
  // Another turn may have raised it while this one waited.
  if (batch_high_ <= order_->stored_high_water_.load()) {
    stored_lock_.unlock();
    return;
  }
  pending_stored_ =
      batch_high_ > INT64_MAX - kStoredSlackMicros ? INT64_MAX : batch_high_ + kStoredSlackMicros;
  batch->Put(order_->metadata_, order_->key_, std::to_string(pending_stored_))
      .PermitUncheckedError();
}

void WriteOrder::Turn::Written(bool ok) {
  for (const auto& [bucket, timestamp] : raised_) {
    order_->buckets_[bucket] = std::max(order_->buckets_[bucket], timestamp);
  }
  if (stored_lock_.owns_lock()) {
    if (ok) order_->stored_high_water_.store(pending_stored_);
    stored_lock_.unlock();
  }
}

}  // namespace columnar
