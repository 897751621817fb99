#include "tools/sst_dumper.h"

#include <rocksdb/comparator.h>
#include <rocksdb/convenience.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/table_properties.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "plugin/column_entropy.h"
#include "plugin/columnar_table.h"
#include "plugin/raw_table_entries.h"
#include "plugin/table_file.h"
#include "table_format/column_stats.h"

namespace columnar {

namespace {

using rocksdb::Status;

std::string Format(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list measure;
  va_copy(measure, args);
  const int length = vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  std::string text(length > 0 ? static_cast<size_t>(length) : 0, '\0');
  vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  return text;
}

std::string Quoted(const rocksdb::Slice& bytes, bool hex) {
  return hex ? EscapeBytes(bytes, true) : "'" + EscapeBytes(bytes, false) + "'";
}

// The columnar.* properties shown by name (the column stats get their own table).
const std::set<std::string>& ColumnarPropertyNames() {
  static const auto* names =
      new std::set<std::string>{kLayoutProperty, kSchemaProperty, kColumnStatsProperty,
                                kRowGroupsProperty, kRowsPerGroupProperty};
  return *names;
}

rocksdb::Options ReaderOptions(const rocksdb::Comparator* comparator) {
  RegisterColumnarTableFactories();  // for files naming other factories of the plugin
  rocksdb::Options options;
  options.table_factory.reset(NewColumnarTableFactory());
  options.comparator = comparator;
  return options;
}

// Comparator::CreateFromString knows RocksDB's built-in comparators; null for others.
const rocksdb::Comparator* BuiltInComparator(const std::string& name) {
  const rocksdb::Comparator* comparator = nullptr;
  if (name.empty() ||
      !rocksdb::Comparator::CreateFromString(rocksdb::ConfigOptions(), name, &comparator).ok()) {
    return nullptr;
  }
  return comparator;
}

Status Explain(const Status& s) {
  if (s.IsCorruption() && s.ToString().find("magic number") != std::string::npos) {
    return Status::Corruption(s.getState() != nullptr ? s.getState() : "",
                              "not a ColumnarTable file (Debian's sst_dump reads BlockBasedTable "
                              "and PlainTable files)");
  }
  return s;
}

// Opens `path` with SstFileReader. A file written with another built-in comparator is
// reopened with it, so range tombstones are fragmented in the file's own order.
Status OpenReader(const std::string& path, rocksdb::Options* options,
                  std::unique_ptr<rocksdb::SstFileReader>* reader) {
  *options = ReaderOptions(rocksdb::BytewiseComparator());
  *reader = std::make_unique<rocksdb::SstFileReader>(*options);
  Status s = (*reader)->Open(path);
  if (!s.ok()) return Explain(s);
  const std::string& name = (*reader)->GetTableProperties()->comparator_name;
  const rocksdb::Comparator* comparator = BuiltInComparator(name);
  if (comparator == nullptr || comparator == options->comparator) return s;
  *options = ReaderOptions(comparator);
  *reader = std::make_unique<rocksdb::SstFileReader>(*options);
  return Explain((*reader)->Open(path));
}

std::string TrimTrailingSpace(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
  return text;
}

void PrintColumnarProperties(const rocksdb::UserCollectedProperties& props, std::ostream& out) {
  const auto value_of = [&props](const char* name) {
    const auto it = props.find(name);
    return it == props.end() ? std::string("(absent)") : it->second;
  };
  out << "ColumnarTable properties:\n";
  out << "  layout: " << value_of(kLayoutProperty) << "\n";
  const auto schema = props.find(kSchemaProperty);
  out << "  schema: " << (schema == props.end() ? std::string("(none)") : schema->second) << "\n";
  out << "  row groups: " << value_of(kRowGroupsProperty) << "\n";
  out << "  rows per group: " << value_of(kRowsPerGroupProperty) << "\n";
}

void PrintOtherUserProperties(const rocksdb::UserCollectedProperties& props, std::ostream& out) {
  bool header = false;
  for (const auto& [name, value] : props) {
    if (ColumnarPropertyNames().count(name) != 0) continue;
    if (!header) out << "Other user-collected properties:\n";
    header = true;
    out << "  " << name << ": " << Quoted(value, false) << "\n";
  }
}

std::string EncodingList(const ColumnStat& stat) {
  std::string list;
  for (const auto& [encoding, chunks] : stat.encodings) {
    if (!list.empty()) list += ", ";
    list += encoding + "=" + std::to_string(chunks);
  }
  return list;
}

// `entropy_bits`: each column's estimate, from the file read back (column_entropy.h); files
// written before estimates moved out of the writer may carry their own in the property.
void PrintColumnStorage(const rocksdb::UserCollectedProperties& props, uint64_t rows,
                        const std::map<std::string, double>& entropy_bits, std::ostream& out) {
  const auto serialized = props.find(kColumnStatsProperty);
  if (serialized == props.end()) return;
  ColumnStats stats;
  Status s = ColumnStats::Parse(serialized->second, &stats);
  if (!s.ok()) {
    out << "Column storage: unreadable (" << s.ToString() << ")\n";
    return;
  }
  const uint64_t total = stats.total_bytes();
  int width = 6;
  for (const auto& entry : stats.columns()) {
    width = std::max(width, static_cast<int>(entry.first.size()));
  }
  const auto bytes_per_row = [rows](uint64_t bytes) {
    return rows == 0 ? std::string("-") : Format("%.2f", static_cast<double>(bytes) / rows);
  };
  out << "Column storage (encoded chunk bytes, before outer block compression; " << rows
      << " rows):\n";
  // The entropy estimate (table_format/entropy_estimate.h), in bytes a row: how far each
  // column's bytes are from what its values carry ("-" when the file could not be read back).
  const auto entropy_per_row = [&](const std::string& name, const ColumnStat& stat) {
    const auto estimate = entropy_bits.find(name);
    const double bits = estimate != entropy_bits.end() ? estimate->second : stat.entropy_bits;
    return rows == 0 || bits < 0 ? std::string("-") : Format("%.2f", bits / 8 / rows);
  };
  out << Format("  %-*s %12s %10s %11s %7s %7s  %s\n", width, "column", "bytes", "bytes/row",
                "entropy/row", "share", "chunks", "encodings (chunks)");
  for (const auto& [name, stat] : stats.columns()) {
    const double share = total == 0 ? 0.0 : 100.0 * static_cast<double>(stat.bytes) / total;
    out << Format("  %-*s %12llu %10s %11s %6.1f%% %7llu  %s\n", width, name.c_str(),
                  static_cast<unsigned long long>(stat.bytes), bytes_per_row(stat.bytes).c_str(),
                  entropy_per_row(name, stat).c_str(), share,
                  static_cast<unsigned long long>(stat.chunks), EncodingList(stat).c_str());
  }
  out << Format("  %-*s %12llu %10s %11s %6.1f%%\n", width, "total",
                static_cast<unsigned long long>(total), bytes_per_row(total).c_str(), "",
                total == 0 ? 0.0 : 100.0);
}

void PrintProperties(const rocksdb::TableProperties& properties,
                     const std::map<std::string, double>& entropy_bits, std::ostream& out) {
  out << "Table properties:\n  " << TrimTrailingSpace(properties.ToString("\n  ", ": ")) << "\n";
  PrintColumnarProperties(properties.user_collected_properties, out);
  PrintOtherUserProperties(properties.user_collected_properties, out);
  // num_entries counts range deletions too (as BlockBasedTable does); they are not rows.
  PrintColumnStorage(properties.user_collected_properties,
                     properties.num_entries - properties.num_range_deletions, entropy_bits, out);
}

std::string EntityText(const rocksdb::Slice& value, bool hex) {
  std::string text;
  const bool parsed =
      VisitEntityColumns(value, [&](const rocksdb::Slice& name, const rocksdb::Slice& column) {
        if (!text.empty()) text += ", ";
        text += Quoted(name, hex) + ": " + Quoted(column, hex);
      });
  return parsed ? "{" + text + "}" : Quoted(value, hex) + " (malformed entity)";
}

std::string EntryLine(const RawEntry& entry, bool hex) {
  std::string line =
      Quoted(entry.user_key, hex) + " @" + std::to_string(entry.sequence) + " " + entry.type_name;
  if (std::string(entry.type_name) == "UNKNOWN") line += Format("(0x%02x)", entry.type);
  if (entry.range_deletion) return line + " => " + Quoted(entry.value, hex) + " (exclusive end)";
  if (std::string(entry.type_name) == "ENTITY") return line + " => " + EntityText(entry.value, hex);
  return line + " => " + Quoted(entry.value, hex);
}

Status PrintEntries(const rocksdb::Options& options, const std::string& path,
                    const DumpOptions& dump, std::ostream& out) {
  out << "Entries (user key @sequence TYPE => value):\n";
  uint64_t shown = 0;
  bool truncated = false;
  rocksdb::ReadOptions read_options;
  read_options.verify_checksums = dump.verify_reads;
  Status s = VisitRawEntries(options, path, read_options, [&](const RawEntry& entry) {
    if (shown == dump.entry_limit) {
      truncated = true;
      return false;
    }
    out << "  " << EntryLine(entry, dump.hex) << "\n";
    shown++;
    return true;
  });
  if (truncated) out << "  ... (first " << shown << " entries shown)\n";
  return s;
}

Status Verify(rocksdb::SstFileReader* reader, std::ostream& out) {
  Status s = reader->VerifyChecksum();
  out << "Checksum verification: " << (s.ok() ? std::string("OK") : s.ToString()) << "\n";
  return s;
}

}  // namespace

std::string EscapeBytes(const rocksdb::Slice& bytes, bool hex) {
  std::string out = hex ? "0x" : "";
  for (size_t i = 0; i < bytes.size(); i++) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (hex) {
      out += Format("%02X", c);
    } else if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
      out.push_back(static_cast<char>(c));
    } else {
      out += Format("\\x%02x", c);
    }
  }
  return out;
}

Status ListSstFiles(const std::string& path, std::vector<std::string>* files) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    if (!fs::exists(path, error)) return Status::NotFound(path, "no such file or directory");
    files->push_back(path);
    return Status::OK();
  }
  std::vector<std::string> found;
  for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
    if (entry.is_regular_file() && entry.path().extension() == ".sst") {
      found.push_back(entry.path().string());
    }
  }
  if (error) return Status::IOError(path, error.message());
  if (found.empty()) return Status::NotFound(path, "no .sst files in this directory");
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return Status::OK();
}

Status DumpSstFile(const std::string& path, const DumpOptions& options, std::ostream& out) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  out << "File: " << path;
  if (!error) out << " (" << size << " bytes)";
  out << "\n";
  rocksdb::Options reader_options;
  std::unique_ptr<rocksdb::SstFileReader> reader;
  Status s = OpenReader(path, &reader_options, &reader);
  if (!s.ok()) return s;
  if (options.show_properties) {
    // A file that does not read back still gets its properties printed (the verification
    // below reports what is wrong with it).
    std::map<std::string, double> entropy_bits;
    if (!EstimateColumnEntropy(reader_options, path, &entropy_bits).ok()) entropy_bits.clear();
    PrintProperties(*reader->GetTableProperties(), entropy_bits, out);
  }
  Status result;
  if (options.verify) result = Verify(reader.get(), out);
  if (options.show_entries) {
    s = PrintEntries(reader_options, path, options, out);
    if (result.ok()) result = s;
  }
  return result;
}

}  // namespace columnar
