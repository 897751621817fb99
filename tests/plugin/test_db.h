// Helpers for plugin tests: temporary directories and databases opened with a chosen table
// factory.
#pragma once

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace columnar {

// A fresh directory under the system temp dir, removed when the object goes away.
class TempDir {
 public:
  explicit TempDir(const std::string& name) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("columnar-" + name + "-XXXXXX")).string();
    char* made = mkdtemp(pattern.data());
    path_ = made != nullptr ? made : pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline std::unique_ptr<rocksdb::DB> OpenDb(const rocksdb::Options& options, const std::string& path,
                                           rocksdb::Status* status = nullptr) {
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &raw);
  if (status != nullptr) *status = s;
  return std::unique_ptr<rocksdb::DB>(s.ok() ? raw : nullptr);
}

// Every entry a forward scan of `db` finds, in order, is the model's, and nothing more.
inline void ExpectScanMatches(rocksdb::DB* db, const std::map<std::string, std::string>& model,
                              const rocksdb::ReadOptions& read_options = rocksdb::ReadOptions()) {
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read_options));
  auto expected = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++expected) {
    ASSERT_NE(expected, model.end()) << "extra key " << it->key().ToString();
    ASSERT_EQ(it->key().ToString(), expected->first);
    ASSERT_EQ(it->value().ToString(), expected->second) << expected->first;
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(expected, model.end());
}

// "key00000042": keys in the order of their numbers.
inline std::string NumberedKey(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

}  // namespace columnar
