#include "tests/plugin/differential_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

namespace columnar {

namespace {

constexpr size_t kMaxFailures = 5;

struct ReadResult {
  bool valid = false;
  std::string key;
  std::string value;
  std::string columns;

  bool operator==(const ReadResult& o) const {
    return valid == o.valid && key == o.key && value == o.value && columns == o.columns;
  }
};

std::string Printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s.substr(0, 60)) {
    if (c >= 32 && c < 127) {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
  }
  return s.size() > 60 ? out + "..." : out;
}

std::string DescribeColumns(const rocksdb::WideColumns& columns) {
  std::string out;
  for (const auto& column : columns) {
    out += column.name().ToString() + "=" + column.value().ToString() + ";";
  }
  return out;
}

ReadResult Capture(rocksdb::Iterator* it) {
  ReadResult r;
  r.valid = it->Valid();
  if (r.valid) {
    r.key = it->key().ToString();
    r.value = it->value().ToString();
    r.columns = DescribeColumns(it->columns());
  }
  return r;
}

std::string Describe(const ReadResult& r) {
  return r.valid ? "[" + Printable(r.key) + " => " + Printable(r.value) + "]" : "[invalid]";
}

}  // namespace

DifferentialHarness::DifferentialHarness(const std::string& name, DifferentialOptions options)
    : dir_(name),
      options_(std::move(options)),
      rng_(options_.seed),
      merge_operator_(std::make_shared<AppendMergeOperator>()) {
  Open();
}

DifferentialHarness::~DifferentialHarness() { Close(); }

rocksdb::Options DifferentialHarness::MakeOptions(bool tested) const {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.merge_operator = merge_operator_;
  // Small buffers and files so that flushes, compactions and multi-level files happen often.
  options.write_buffer_size = 96 * 1024;
  options.target_file_size_base = 128 * 1024;
  options.max_bytes_for_level_base = 512 * 1024;
  options.level0_file_num_compaction_trigger = 3;
  options.num_levels = 4;
  if (options_.configure_both) options_.configure_both(&options);
  if (tested && options_.configure_test) options_.configure_test(&options);
  return options;
}

void DifferentialHarness::Open() {
  rocksdb::Status s;
  const rocksdb::Options tested_options = MakeOptions(true);
  prefix_length_ = 0;
  if (tested_options.prefix_extractor != nullptr) {
    // The harness's keys are ASCII; probe the extractor for its prefix length.
    prefix_length_ = tested_options.prefix_extractor->Transform("k0000000000").size();
  }
  reference_ = OpenDb(MakeOptions(false), dir_.Sub("reference"), &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  tested_ = OpenDb(tested_options, dir_.Sub("tested"), &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

void DifferentialHarness::ReleaseAllSnapshots() {
  for (const SnapshotPair& pair : snapshots_) {
    reference_->ReleaseSnapshot(pair.reference);
    tested_->ReleaseSnapshot(pair.tested);
  }
  snapshots_.clear();
}

void DifferentialHarness::Close() {
  if (reference_ == nullptr) return;
  ReleaseAllSnapshots();
  reference_.reset();
  tested_.reset();
}

std::string DifferentialHarness::RandomKey() {
  if (options_.random_key) {
    if (std::optional<std::string> key = options_.random_key(rng_)) return *key;
  }
  const uint64_t pick = rng_() % 100;
  char buf[32];
  if (pick < 70) {
    snprintf(buf, sizeof(buf), "k%06llu",
             static_cast<unsigned long long>(rng_() % options_.key_space));
  } else if (pick < 85) {
    snprintf(buf, sizeof(buf), "e%05llu",
             static_cast<unsigned long long>(rng_() % (options_.key_space / 4 + 1)));
  } else if (pick < 95) {
    snprintf(buf, sizeof(buf), "s%07llu",
             static_cast<unsigned long long>(rng_() % (single_delete_next_ + 1)));
  } else {
    // Keys outside every namespace, including binary ones and the empty key (but none outside
    // a prefix extractor's domain: RocksDB asserts on those during prefix iteration).
    const size_t length = prefix_length_ + rng_() % 4;
    std::string key(length, '\0');
    for (char& c : key) c = static_cast<char>(rng_() % 256);
    return key;
  }
  return buf;
}

std::string DifferentialHarness::RandomValue() {
  if (options_.random_value) {
    if (std::optional<std::string> value = options_.random_value(rng_)) return *value;
  }
  const uint64_t kind = rng_() % 10;
  size_t length = kind < 2 ? 0 : (kind < 8 ? rng_() % 40 : rng_() % 2000);
  std::string value(length, '\0');
  const bool binary = rng_() % 4 == 0;
  for (char& c : value) {
    c = binary ? static_cast<char>(rng_() % 256) : static_cast<char>('a' + rng_() % 6);
  }
  return value;
}

void DifferentialHarness::RandomWrite() {
  rocksdb::WriteOptions wo;
  const uint64_t pick = rng_() % 100;
  std::string key = RandomKey();
  const bool entity_key = !key.empty() && key[0] == 'e';
  const bool single_delete_key = !key.empty() && key[0] == 's';
  if (single_delete_key) {
    // Single-delete keys are written once and single-deleted once, the only use RocksDB
    // defines.
    char buf[32];
    if (pick < 60) {
      snprintf(buf, sizeof(buf), "s%07llu", static_cast<unsigned long long>(single_delete_next_++));
      ASSERT_TRUE(reference_->Put(wo, buf, "single").ok());
      ASSERT_TRUE(tested_->Put(wo, buf, "single").ok());
    } else if (single_delete_next_ > 0) {
      snprintf(buf, sizeof(buf), "s%07llu",
               static_cast<unsigned long long>(rng_() % single_delete_next_));
      ASSERT_TRUE(reference_->SingleDelete(wo, buf).ok());
      ASSERT_TRUE(tested_->SingleDelete(wo, buf).ok());
    }
    return;
  }
  if (pick < 55) {
    const std::string value = RandomValue();
    ASSERT_TRUE(reference_->Put(wo, key, value).ok());
    ASSERT_TRUE(tested_->Put(wo, key, value).ok());
  } else if (pick < 68) {
    ASSERT_TRUE(reference_->Delete(wo, key).ok());
    ASSERT_TRUE(tested_->Delete(wo, key).ok());
  } else if (pick < 85) {
    if (entity_key) {
      rocksdb::WideColumns columns;
      std::vector<std::string> storage;
      const size_t count = rng_() % 4;
      storage.reserve(count * 2 + 1);
      if (rng_() % 2 == 0) {
        storage.push_back(RandomValue());
        columns.emplace_back(rocksdb::kDefaultWideColumnName, storage.back());
      }
      for (size_t i = 0; i < count; i++) {
        storage.push_back("col" + std::to_string(i));
        const std::string& name = storage.back();
        storage.push_back(RandomValue());
        columns.emplace_back(name, storage.back());
      }
      ASSERT_TRUE(reference_->PutEntity(wo, reference_->DefaultColumnFamily(), key, columns).ok());
      ASSERT_TRUE(tested_->PutEntity(wo, tested_->DefaultColumnFamily(), key, columns).ok());
    } else {
      const std::string operand = RandomValue().substr(0, 12);
      ASSERT_TRUE(reference_->Merge(wo, key, operand).ok());
      ASSERT_TRUE(tested_->Merge(wo, key, operand).ok());
    }
  } else {
    std::string end = RandomKey();
    if (end < key) std::swap(key, end);
    ASSERT_TRUE(reference_->DeleteRange(wo, reference_->DefaultColumnFamily(), key, end).ok());
    ASSERT_TRUE(tested_->DeleteRange(wo, tested_->DefaultColumnFamily(), key, end).ok());
  }
}

void DifferentialHarness::RandomBatch() {
  rocksdb::WriteBatch reference_batch;
  rocksdb::WriteBatch tested_batch;
  const size_t count = 1 + rng_() % 20;
  for (size_t i = 0; i < count; i++) {
    char buf[32];
    snprintf(buf, sizeof(buf), "k%06llu",
             static_cast<unsigned long long>(rng_() % options_.key_space));
    const uint64_t pick = rng_() % 10;
    if (pick < 6) {
      const std::string value = RandomValue();
      reference_batch.Put(buf, value);
      tested_batch.Put(buf, value);
    } else if (pick < 8) {
      reference_batch.Delete(buf);
      tested_batch.Delete(buf);
    } else {
      const std::string operand = RandomValue().substr(0, 8);
      reference_batch.Merge(buf, operand);
      tested_batch.Merge(buf, operand);
    }
  }
  ASSERT_TRUE(reference_->Write(rocksdb::WriteOptions(), &reference_batch).ok());
  ASSERT_TRUE(tested_->Write(rocksdb::WriteOptions(), &tested_batch).ok());
}

void DifferentialHarness::Step() {
  const uint64_t pick = rng_() % 1000;
  if (pick < 800) {
    RandomWrite();
  } else if (pick < 880) {
    RandomBatch();
  } else if (pick < 910) {
    if (snapshots_.size() < 6) {
      snapshots_.push_back({reference_->GetSnapshot(), tested_->GetSnapshot()});
    }
  } else if (pick < 930) {
    if (!snapshots_.empty()) {
      const size_t i = rng_() % snapshots_.size();
      reference_->ReleaseSnapshot(snapshots_[i].reference);
      tested_->ReleaseSnapshot(snapshots_[i].tested);
      snapshots_.erase(snapshots_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  } else if (pick < 965) {
    ASSERT_TRUE(reference_->Flush(rocksdb::FlushOptions()).ok());
    const rocksdb::Status flushed = tested_->Flush(rocksdb::FlushOptions());
    ASSERT_TRUE(flushed.ok()) << flushed.ToString();
  } else if (pick < 985) {
    std::string begin = RandomKey();
    std::string end = RandomKey();
    if (end < begin) std::swap(begin, end);
    rocksdb::Slice b(begin), e(end);
    const bool whole = rng_() % 3 == 0;
    rocksdb::CompactRangeOptions cro;
    cro.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForceOptimized;
    ASSERT_TRUE(reference_->CompactRange(cro, whole ? nullptr : &b, whole ? nullptr : &e).ok());
    ASSERT_TRUE(tested_->CompactRange(cro, whole ? nullptr : &b, whole ? nullptr : &e).ok());
  } else if (pick < 988 && options_.allow_reopen) {
    Close();
    Open();
  } else {
    RandomWrite();
  }
}

void DifferentialHarness::MakeReadOptions(const SnapshotPair& pair, rocksdb::ReadOptions* ro_ref,
                                          rocksdb::ReadOptions* ro_test) const {
  ro_ref->snapshot = pair.reference;
  ro_test->snapshot = pair.tested;
  // With a prefix extractor, plain Seek only defines results inside the target's prefix;
  // the full comparisons use total order (prefix walks are compared separately).
  ro_ref->total_order_seek = ro_test->total_order_seek = true;
}

bool DifferentialHarness::ComparePrefixWalks(const SnapshotPair& pair, const std::string& where) {
  if (prefix_length_ == 0) return true;
  for (int walk = 0; walk < 20; walk++) {
    rocksdb::ReadOptions ro_ref, ro_test;
    MakeReadOptions(pair, &ro_ref, &ro_test);
    ro_ref.total_order_seek = ro_test.total_order_seek = false;
    ro_ref.prefix_same_as_start = ro_test.prefix_same_as_start = true;
    std::unique_ptr<rocksdb::Iterator> a(reference_->NewIterator(ro_ref));
    std::unique_ptr<rocksdb::Iterator> b(tested_->NewIterator(ro_test));
    const std::string target = RandomKey();
    if (target.size() < prefix_length_) continue;
    a->Seek(target);
    b->Seek(target);
    for (int step = 0; step < 20; step++, a->Next(), b->Next()) {
      const ReadResult ra = Capture(a.get());
      const ReadResult rb = Capture(b.get());
      if (!(ra == rb)) {
        ADD_FAILURE() << where << " prefix walk from " << Printable(target) << " step " << step
                      << ": reference " << Describe(ra) << " tested " << Describe(rb);
        return false;
      }
      if (!ra.valid) break;
    }
  }
  return true;
}

bool DifferentialHarness::CompareScans(const SnapshotPair& pair, const std::string& where) {
  rocksdb::ReadOptions ro_ref, ro_test;
  MakeReadOptions(pair, &ro_ref, &ro_test);
  std::unique_ptr<rocksdb::Iterator> a(reference_->NewIterator(ro_ref));
  std::unique_ptr<rocksdb::Iterator> b(tested_->NewIterator(ro_test));
  size_t position = 0;
  for (a->SeekToFirst(), b->SeekToFirst();; a->Next(), b->Next(), position++) {
    const ReadResult ra = Capture(a.get());
    const ReadResult rb = Capture(b.get());
    if (!(ra == rb)) {
      ADD_FAILURE() << where << " forward scan differs at position " << position << ": reference "
                    << Describe(ra) << " tested " << Describe(rb);
      return false;
    }
    if (!ra.valid) break;
  }
  position = 0;
  for (a->SeekToLast(), b->SeekToLast();; a->Prev(), b->Prev(), position++) {
    const ReadResult ra = Capture(a.get());
    const ReadResult rb = Capture(b.get());
    if (!(ra == rb)) {
      ADD_FAILURE() << where << " backward scan differs at position " << position << ": reference "
                    << Describe(ra) << " tested " << Describe(rb);
      return false;
    }
    if (!ra.valid) break;
  }
  if (!a->status().ok() || !b->status().ok()) {
    ADD_FAILURE() << where << " iterator status: reference " << a->status().ToString() << " tested "
                  << b->status().ToString();
    return false;
  }
  return true;
}

bool DifferentialHarness::CompareSeeks(const SnapshotPair& pair, const std::string& where) {
  for (int walk = 0; walk < 25; walk++) {
    rocksdb::ReadOptions ro_ref, ro_test;
    MakeReadOptions(pair, &ro_ref, &ro_test);
    std::string lower = RandomKey();
    std::string upper = RandomKey();
    if (upper < lower) std::swap(lower, upper);
    rocksdb::Slice lower_slice(lower), upper_slice(upper);
    std::string target = RandomKey();
    const bool forward = walk % 2 == 0;
    if (walk % 3 == 2 && prefix_length_ > 0 && target.size() >= prefix_length_) {
      // Bounds confining the scan to the target's partition (the partition filter may then
      // end it), with the edges: an upper bound at the partition's successor, SeekForPrev
      // from exactly that successor.
      lower = target.substr(0, prefix_length_);
      upper = lower;
      upper.back() = static_cast<char>(upper.back() + 1);
      if (!forward && rng_() % 3 == 0) target = upper;
      lower_slice = rocksdb::Slice(lower);
      upper_slice = rocksdb::Slice(upper);
      ro_ref.iterate_lower_bound = ro_test.iterate_lower_bound = &lower_slice;
      if (rng_() % 4 != 0) ro_ref.iterate_upper_bound = ro_test.iterate_upper_bound = &upper_slice;
    } else if (walk % 3 == 1) {
      ro_ref.iterate_lower_bound = ro_test.iterate_lower_bound = &lower_slice;
      ro_ref.iterate_upper_bound = ro_test.iterate_upper_bound = &upper_slice;
    }
    std::unique_ptr<rocksdb::Iterator> a(reference_->NewIterator(ro_ref));
    std::unique_ptr<rocksdb::Iterator> b(tested_->NewIterator(ro_test));
    if (forward) {
      a->Seek(target);
      b->Seek(target);
    } else {
      a->SeekForPrev(target);
      b->SeekForPrev(target);
    }
    for (int step = 0; step < 8; step++) {
      const ReadResult ra = Capture(a.get());
      const ReadResult rb = Capture(b.get());
      if (!(ra == rb)) {
        ADD_FAILURE() << where << (forward ? " Seek(" : " SeekForPrev(") << Printable(target)
                      << ") step " << step << ": reference " << Describe(ra) << " tested "
                      << Describe(rb);
        return false;
      }
      if (!ra.valid) break;
      // Mostly continue in the seek's direction, sometimes turn around.
      const bool next = (rng_() % 4 == 0) ? !forward : forward;
      if (next) {
        a->Next();
        b->Next();
      } else {
        a->Prev();
        b->Prev();
      }
    }
    if (!a->status().ok() || !b->status().ok()) {
      ADD_FAILURE() << where << " seek status: reference " << a->status().ToString() << " tested "
                    << b->status().ToString();
      return false;
    }
  }
  return true;
}

bool DifferentialHarness::ComparePointReads(const SnapshotPair& pair, const std::string& where) {
  rocksdb::ReadOptions ro_ref, ro_test;
  MakeReadOptions(pair, &ro_ref, &ro_test);
  std::vector<std::string> keys;
  for (int i = 0; i < 40; i++) keys.push_back(RandomKey());
  for (const std::string& key : keys) {
    std::string va, vb;
    const rocksdb::Status sa = reference_->Get(ro_ref, key, &va);
    const rocksdb::Status sb = tested_->Get(ro_test, key, &vb);
    if (sa.code() != sb.code() || va != vb) {
      ADD_FAILURE() << where << " Get(" << Printable(key) << "): reference " << sa.ToString() << " "
                    << Printable(va) << " tested " << sb.ToString() << " " << Printable(vb);
      return false;
    }
    // GetEntity only on entity keys: RocksDB 7.8 crashes in GetEntity when merge operands
    // are involved (both table formats alike).
    if (key.empty() || key[0] != 'e') continue;
    rocksdb::PinnableWideColumns ca, cb;
    const rocksdb::Status ea =
        reference_->GetEntity(ro_ref, reference_->DefaultColumnFamily(), key, &ca);
    const rocksdb::Status eb =
        tested_->GetEntity(ro_test, tested_->DefaultColumnFamily(), key, &cb);
    if (ea.code() != eb.code() || DescribeColumns(ca.columns()) != DescribeColumns(cb.columns())) {
      ADD_FAILURE() << where << " GetEntity(" << Printable(key) << ") differs";
      return false;
    }
  }
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<std::string> values_a, values_b;
  const std::vector<rocksdb::Status> statuses_a = reference_->MultiGet(ro_ref, slices, &values_a);
  const std::vector<rocksdb::Status> statuses_b = tested_->MultiGet(ro_test, slices, &values_b);
  for (size_t i = 0; i < keys.size(); i++) {
    if (statuses_a[i].code() != statuses_b[i].code() || values_a[i] != values_b[i]) {
      ADD_FAILURE() << where << " MultiGet(" << Printable(keys[i]) << "): reference "
                    << statuses_a[i].ToString() << " tested " << statuses_b[i].ToString();
      return false;
    }
  }
  return true;
}

bool DifferentialHarness::Compare(const SnapshotPair& pair, const std::string& where) {
  return CompareScans(pair, where) && CompareSeeks(pair, where) &&
         ComparePrefixWalks(pair, where) && ComparePointReads(pair, where);
}

bool DifferentialHarness::VerifyAll() {
  if (!Compare({nullptr, nullptr}, "latest")) return false;
  for (size_t i = 0; i < snapshots_.size(); i++) {
    if (!Compare(snapshots_[i], "snapshot " + std::to_string(i))) return false;
  }
  return true;
}

bool DifferentialHarness::Run() {
  size_t operations = options_.operations;
  size_t verify_every = options_.verify_every;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // Under ASan + UBSan or TSan (make sanitize, make tsan; gcc defines these macros) every
  // differential test runs on every configuration with half its operations, its full
  // comparisons at the same fractions of the run: an operation costs 3-10 times more there,
  // and half the run still takes every code path (per 1,000 operations some 35 flushes, 20
  // compactions, snapshots taken and released). make test runs the full count.
  operations = std::max<size_t>(1, operations / 2);
  verify_every = std::max<size_t>(1, verify_every / 2);
#endif
  for (size_t op = 1; op <= operations; op++) {
    Step();
    if (::testing::Test::HasFatalFailure()) return false;
    if (op % verify_every == 0 || op == operations) {
      if (!VerifyAll() && ++failures_ >= 1) {
        ADD_FAILURE() << "seed " << options_.seed << ": first difference after operation " << op;
        return false;
      }
    }
  }
  return failures_ == 0;
}

}  // namespace columnar
