#include "table_api/expired_files.h"

#include <rocksdb/comparator.h>
#include <rocksdb/convenience.h>
#include <rocksdb/metadata.h>

#include <set>
#include <string>
#include <vector>

#include "plugin/row_expiry_properties.h"

namespace columnar {

namespace {

struct Candidate {
  const rocksdb::SstFileMetaData* file;
  bool expired;
};

// Files at level >= 1 (L0 files may overlap anything: never deleted), with their verdict.
std::vector<Candidate> JudgeFiles(const rocksdb::ColumnFamilyMetaData& metadata,
                                  const rocksdb::TablePropertiesCollection& properties,
                                  int64_t now_seconds) {
  std::vector<Candidate> files;
  for (const rocksdb::LevelMetaData& level : metadata.levels) {
    if (level.level == 0) continue;
    for (const rocksdb::SstFileMetaData& file : level.files) {
      const auto props = properties.find(file.db_path + file.name);
      const bool expired = props != properties.end() && !file.being_compacted &&
                           FileFullyExpired(*props->second, now_seconds);
      files.push_back({&file, expired});
    }
  }
  return files;
}

// True when every file lying inside [smallest, largest] is expired.
bool RangeHoldsOnlyExpired(const std::vector<Candidate>& files, const rocksdb::Slice& smallest,
                           const rocksdb::Slice& largest, const rocksdb::Comparator* cmp) {
  for (const Candidate& other : files) {
    const bool inside = cmp->Compare(other.file->smallestkey, smallest) >= 0 &&
                        cmp->Compare(other.file->largestkey, largest) <= 0;
    if (inside && !other.expired) return false;
  }
  return true;
}

// Adds the files of `before` that the column family no longer has to *result.
void CountRemoved(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                  const rocksdb::ColumnFamilyMetaData& before, ExpiredFilesResult* result) {
  rocksdb::ColumnFamilyMetaData after;
  db->GetColumnFamilyMetaData(column_family, &after);
  std::set<uint64_t> remaining;
  for (const rocksdb::LevelMetaData& level : after.levels) {
    for (const rocksdb::SstFileMetaData& file : level.files) remaining.insert(file.file_number);
  }
  for (const rocksdb::LevelMetaData& level : before.levels) {
    for (const rocksdb::SstFileMetaData& file : level.files) {
      if (remaining.count(file.file_number) != 0) continue;
      result->files++;
      result->bytes += file.size;
    }
  }
}

}  // namespace

Status DropExpiredFiles(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                        int64_t now_seconds, ExpiredFilesResult* result,
                        const std::function<void()>& after_inspection) {
  *result = ExpiredFilesResult();
  Status s = db->PauseBackgroundWork();
  if (!s.ok()) return s;
  rocksdb::ColumnFamilyMetaData metadata;
  db->GetColumnFamilyMetaData(column_family, &metadata);
  rocksdb::TablePropertiesCollection properties;
  s = db->GetPropertiesOfAllTables(column_family, &properties);
  std::vector<std::string> doomed;  // file names, as DB::DeleteFile takes them
  if (s.ok()) {
    const rocksdb::Comparator* cmp = column_family->GetComparator();
    const std::vector<Candidate> files = JudgeFiles(metadata, properties, now_seconds);
    for (const Candidate& candidate : files) {
      if (candidate.expired && RangeHoldsOnlyExpired(files, candidate.file->smallestkey,
                                                     candidate.file->largestkey, cmp)) {
        doomed.push_back(candidate.file->name);
      }
    }
  }
  if (after_inspection) after_inspection();
  for (size_t i = 0; s.ok() && i < doomed.size(); i++) {
    s = db->DeleteFile(doomed[i]);
    // A file that left the last level (a file ingested below it), or is gone, stays as it is
    // or was: not an error, the count below says what was removed.
    if (s.IsInvalidArgument()) s = Status::OK();
  }
  if (s.ok() && !doomed.empty()) CountRemoved(db, column_family, metadata, result);
  Status resumed = db->ContinueBackgroundWork();
  if (!s.ok()) {
    *result = ExpiredFilesResult();
    return s;
  }
  return resumed;
}

}  // namespace columnar
