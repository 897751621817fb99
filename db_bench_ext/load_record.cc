#include "db_bench_ext/load_record.h"

#include <fstream>
#include <sstream>
#include <type_traits>
#include <vector>

namespace columnar {
namespace bench {

namespace {

constexpr char kFileName[] = "DB_BENCH_EXT_LOAD";
constexpr char kFormatLine[] = "db_bench_ext load 1";

// The record's fields as text, in file order.
std::vector<std::pair<std::string, std::string>> Fields(const LoadRecord& record) {
  return {{"workload", record.workload},
          {"config", record.config},
          {"series", std::to_string(record.series)},
          {"instances", std::to_string(record.instances)},
          {"hosts", std::to_string(record.hosts)},
          {"duration_s", std::to_string(record.duration_s)},
          {"seed", std::to_string(record.seed)},
          {"end_time_s", std::to_string(record.end_time_s)},
          {"rows", std::to_string(record.rows)}};
}

template <typename Int>
bool ParseInteger(const std::string& text, Int* value) {
  // istream reads "-1" into an unsigned as its wrap-around.
  if (std::is_unsigned_v<Int> && text.find('-') != std::string::npos) {
    return false;
  }
  std::istringstream in(text);
  Int parsed{};
  if (!(in >> parsed) || !in.eof()) {
    return false;
  }
  *value = parsed;
  return true;
}

// Sets the field `name` of *record from `text`; false when the name is unknown or the text is
// not a number where one is expected.
bool SetField(const std::string& name, const std::string& text, LoadRecord* record) {
  if (name == "workload" || name == "config") {
    (name == "workload" ? record->workload : record->config) = text;
    return !text.empty();
  }
  using Counter = uint64_t LoadRecord::*;
  for (const auto& [field, member] :
       {std::pair<const char*, Counter>{"series", &LoadRecord::series},
        {"instances", &LoadRecord::instances},
        {"hosts", &LoadRecord::hosts},
        {"seed", &LoadRecord::seed},
        {"rows", &LoadRecord::rows}}) {
    if (name == field) return ParseInteger(text, &(record->*member));
  }
  if (name == "duration_s") return ParseInteger(text, &record->duration_s);
  if (name == "end_time_s") return ParseInteger(text, &record->end_time_s);
  return false;
}

}  // namespace

std::string LoadRecordPath(const std::string& db_path) { return db_path + "/" + kFileName; }

std::string WriteLoadRecord(const std::string& db_path, const LoadRecord& record) {
  const std::string path = LoadRecordPath(db_path);
  std::ofstream out(path, std::ios::trunc);
  out << kFormatLine << "\n";
  for (const auto& [name, value] : Fields(record)) {
    out << name << " " << value << "\n";
  }
  out.close();
  return out ? "" : "cannot write " + path;
}

std::string ReadLoadRecord(const std::string& db_path, LoadRecord* record) {
  const std::string path = LoadRecordPath(db_path);
  std::ifstream in(path);
  if (!in) {
    return "no load record " + path + " (load the database with --keep_db first)";
  }
  std::string line;
  if (!std::getline(in, line) || line != kFormatLine) {
    return path + ": not a db_bench_ext load record of this version";
  }
  LoadRecord parsed;
  const auto order = Fields(parsed);
  size_t fields = 0;
  while (std::getline(in, line)) {
    const size_t space = line.find(' ');
    const std::string name = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    if (fields >= order.size() || name != order[fields].first || !SetField(name, value, &parsed)) {
      return path + ": unexpected line '" + line.append("'");
    }
    fields++;
  }
  if (fields != order.size()) {
    return path + ": incomplete";
  }
  *record = parsed;
  return "";
}

std::string LoadRecordMismatch(const LoadRecord& found, const LoadRecord& wanted) {
  const auto found_fields = Fields(found);
  const auto wanted_fields = Fields(wanted);
  for (size_t i = 0; i < found_fields.size(); i++) {
    const std::string& name = found_fields[i].first;
    if (name == "end_time_s" || name == "rows") {
      continue;
    }
    if (found_fields[i].second != wanted_fields[i].second) {
      return "loaded with " + name + " " + found_fields[i].second + ", this run asks for " +
             wanted_fields[i].second;
    }
  }
  return "";
}

}  // namespace bench
}  // namespace columnar
