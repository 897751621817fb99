#include "table_format/schema.h"

#include <cctype>
#include <charconv>
#include <set>

#include "table_format/chunk.h"
#include "table_format/cql_lexer.h"
#include "table_format/cql_parser.h"
#include "table_format/encoding.h"

namespace columnar {
namespace {

constexpr char kSerializedMagic[] = "columnar-schema";
constexpr uint64_t kSerializedFormatVersion = 1;
constexpr char kDefaultCompressionKey[] = "default";

// Options with a typed field in TableOptions (never stored in `other`); CLUSTERING ORDER is
// part of the key structure.
constexpr const char* kTypedOptionNames[] = {"column_encodings", "column_compression",
                                             "default_time_to_live", "clustering"};

bool IsTypedOptionName(const std::string& name) {
  for (const char* typed : kTypedOptionNames) {
    if (name == typed) return true;
  }
  return false;
}

std::string Quoted(const std::string& name) { return "'" + name + "'"; }

// ---- serialized-form primitives ----

bool IsSafeChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
}

void AppendEscaped(const std::string& text, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (char c : text) {
    if (IsSafeChar(c)) {
      out->push_back(c);
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out->push_back('%');
      out->push_back(kHex[byte >> 4]);
      out->push_back(kHex[byte & 15]);
    }
  }
}

char RoleCode(ColumnRole role) {
  switch (role) {
    case ColumnRole::kPartitionKey:
      return 'p';
    case ColumnRole::kClustering:
      return 'c';
    case ColumnRole::kRegular:
      return 'r';
  }
  return 'r';
}

void AppendIdList(const std::vector<uint32_t>& ids, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < ids.size(); i++) {
    if (i > 0) out->push_back(',');
    out->append(std::to_string(ids[i]));
  }
  out->push_back(']');
}

void AppendPairList(const std::map<std::string, std::string>& pairs, std::string* out) {
  out->push_back('[');
  bool first = true;
  for (const auto& [key, value] : pairs) {
    if (!first) out->push_back(',');
    first = false;
    out->push_back('(');
    AppendEscaped(key, out);
    out->push_back(':');
    AppendEscaped(value, out);
    out->push_back(')');
  }
  out->push_back(']');
}

// Reads the serialized form; every method returns false on malformed input and never reads
// past the end.
class SerializedReader {
 public:
  explicit SerializedReader(const Slice& in) : in_(in) {}

  size_t position() const { return pos_; }
  bool AtEnd() const { return pos_ == in_.size(); }

  bool Char(char c) {
    if (pos_ < in_.size() && in_[pos_] == c) {
      pos_++;
      return true;
    }
    return false;
  }

  bool Word(const char* word) {
    for (const char* p = word; *p != '\0'; p++) {
      if (!Char(*p)) return false;
    }
    return true;
  }

  // Decimal, no leading zeros, at most `max`.
  bool Number(uint64_t max, uint64_t* value) {
    const size_t start = pos_;
    uint64_t v = 0;
    while (pos_ < in_.size() && in_[pos_] >= '0' && in_[pos_] <= '9') {
      const uint64_t digit = in_[pos_] - '0';
      if (v > (max - digit) / 10) return false;
      v = v * 10 + digit;
      pos_++;
    }
    const size_t digits = pos_ - start;
    if (digits == 0 || (digits > 1 && in_[start] == '0')) return false;
    *value = v;
    return true;
  }

  bool Uint32(uint32_t* value) {
    uint64_t wide;
    if (!Number(UINT32_MAX, &wide)) return false;
    *value = static_cast<uint32_t>(wide);
    return true;
  }

  // A run of safe characters and %XX escapes, unescaped.
  bool Text(std::string* out) {
    out->clear();
    while (pos_ < in_.size()) {
      const char c = in_[pos_];
      if (IsSafeChar(c)) {
        out->push_back(c);
        pos_++;
      } else if (c == '%') {
        if (in_.size() - pos_ < 3) return false;
        const int hi = HexValue(in_[pos_ + 1]), lo = HexValue(in_[pos_ + 2]);
        if (hi < 0 || lo < 0) return false;
        out->push_back(static_cast<char>(hi << 4 | lo));
        pos_ += 3;
      } else {
        break;
      }
    }
    return true;
  }

  // '[' [item (',' item)*] ']'
  template <typename ReadItem>
  bool List(ReadItem read_item) {
    if (!Char('[')) return false;
    if (Char(']')) return true;
    do {
      if (!read_item()) return false;
    } while (Char(','));
    return Char(']');
  }

  bool PairList(std::map<std::string, std::string>* pairs) {
    return List([&]() {
      std::string key, value;
      return Char('(') && Text(&key) && Char(':') && Text(&value) && Char(')') &&
             pairs->emplace(std::move(key), std::move(value)).second;
    });
  }

 private:
  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  Slice in_;
  size_t pos_ = 0;
};

bool ReadColumn(SerializedReader* in, uint32_t id, ColumnDef* column) {
  std::string type_name, role, order;
  column->id = id;
  if (!in->Char('(') || !in->Text(&column->name) || !in->Char(':') || !in->Text(&type_name) ||
      !in->Char(':') || !in->Text(&role) || !in->Char(':') || !in->Text(&order) || !in->Char(':') ||
      !in->Uint32(&column->added_in_version) || !in->Char(':') ||
      !in->Uint32(&column->dropped_in_version) || !in->Char(')')) {
    return false;
  }
  if (!ParseCqlTypeName(type_name, &column->type).ok() ||
      type_name != LogicalTypeName(column->type)) {
    return false;
  }
  if (role == "p") {
    column->role = ColumnRole::kPartitionKey;
  } else if (role == "c") {
    column->role = ColumnRole::kClustering;
  } else if (role == "r") {
    column->role = ColumnRole::kRegular;
  } else {
    return false;
  }
  if (order != "a" && order != "d") return false;
  column->order = order == "a" ? ClusteringOrder::kAsc : ClusteringOrder::kDesc;
  return true;
}

std::string CqlMap(const std::map<std::string, std::string>& pairs) {
  std::string out = "{";
  for (const auto& [key, value] : pairs) {
    if (out.size() > 1) out += ", ";
    out += QuoteCqlString(key) + ": " + QuoteCqlString(value);
  }
  return out + "}";
}

}  // namespace

bool operator==(const ColumnDef& a, const ColumnDef& b) {
  return a.name == b.name && a.type == b.type && a.role == b.role && a.order == b.order &&
         a.id == b.id && a.added_in_version == b.added_in_version &&
         a.dropped_in_version == b.dropped_in_version;
}

bool operator==(const TableOptions& a, const TableOptions& b) {
  return a.column_encodings == b.column_encodings && a.column_compression == b.column_compression &&
         a.default_time_to_live == b.default_time_to_live && a.other == b.other;
}

bool operator==(const TableSchema& a, const TableSchema& b) {
  return a.keyspace_ == b.keyspace_ && a.table_ == b.table_ && a.version_ == b.version_ &&
         a.columns_ == b.columns_ && a.partition_key_ == b.partition_key_ &&
         a.clustering_key_ == b.clustering_key_ && a.options_ == b.options_;
}

// ---- lookups ----

std::string TableSchema::QualifiedName() const {
  return keyspace_.empty() ? table_ : keyspace_ + "." + table_;
}

const ColumnDef* TableSchema::FindColumn(const std::string& name) const {
  for (const ColumnDef& column : columns_) {
    if (column.is_live() && column.name == name) return &column;
  }
  return nullptr;
}

const ColumnDef* TableSchema::ColumnById(uint32_t id) const {
  return id < columns_.size() ? &columns_[id] : nullptr;
}

std::vector<std::string> TableSchema::LiveColumnNamesInKeyOrder() const {
  std::vector<std::string> names;
  for (uint32_t id : partition_key_) names.push_back(columns_[id].name);
  for (uint32_t id : clustering_key_) names.push_back(columns_[id].name);
  for (uint32_t id : LiveRegularColumns()) names.push_back(columns_[id].name);
  return names;
}

std::vector<uint32_t> TableSchema::RegularColumnsAt(uint32_t version) const {
  std::vector<uint32_t> ids;
  for (const ColumnDef& column : columns_) {
    if (column.role == ColumnRole::kRegular && column.LiveAt(version)) ids.push_back(column.id);
  }
  return ids;
}

// ---- validation ----

namespace {

Status CheckColumnVersions(const ColumnDef& column, uint32_t schema_version) {
  if (column.added_in_version == 0 || column.added_in_version > schema_version) {
    return Status::InvalidArgument("column " + Quoted(column.name) + " added in version " +
                                   std::to_string(column.added_in_version) +
                                   ", outside schema versions 1.." +
                                   std::to_string(schema_version));
  }
  if (!column.is_live() && (column.dropped_in_version <= column.added_in_version ||
                            column.dropped_in_version > schema_version)) {
    return Status::InvalidArgument("column " + Quoted(column.name) + " dropped in version " +
                                   std::to_string(column.dropped_in_version) +
                                   ", not after it was added and not after the schema version");
  }
  if (column.is_key() && !column.is_live()) {
    return Status::InvalidArgument("primary key column " + Quoted(column.name) +
                                   " cannot be dropped");
  }
  return Status::OK();
}

Status CheckKeyList(const std::vector<ColumnDef>& columns, const std::vector<uint32_t>& ids,
                    ColumnRole role, const char* what) {
  size_t columns_with_role = 0;
  for (const ColumnDef& column : columns) columns_with_role += column.role == role;
  std::set<uint32_t> seen;
  for (uint32_t id : ids) {
    if (id >= columns.size() || columns[id].role != role || !seen.insert(id).second) {
      return Status::InvalidArgument(std::string(what) + " lists column id " + std::to_string(id) +
                                     " that is not one of its columns");
    }
  }
  if (seen.size() != columns_with_role) {
    return Status::InvalidArgument(std::string(what) + " does not list all of its columns");
  }
  return Status::OK();
}

}  // namespace

Status TableSchema::Validate() const {
  if (table_.empty()) return Status::InvalidArgument("table name is empty");
  if (version_ == 0) return Status::InvalidArgument("schema version 0 is not valid");
  std::set<std::string> live_names;
  for (size_t id = 0; id < columns_.size(); id++) {
    const ColumnDef& column = columns_[id];
    if (column.id != id) return Status::InvalidArgument("column ids are not dense");
    if (column.name.empty()) {
      return Status::InvalidArgument("column " + std::to_string(id) + " has an empty name");
    }
    Status s = CheckColumnVersions(column, version_);
    if (!s.ok()) return s;
    if (column.is_live() && !live_names.insert(column.name).second) {
      return Status::InvalidArgument("duplicate column name " + Quoted(column.name));
    }
  }
  if (partition_key_.empty()) {
    return Status::InvalidArgument("table " + QualifiedName() +
                                   " needs at least one partition key column");
  }
  Status s = CheckKeyList(columns_, partition_key_, ColumnRole::kPartitionKey, "partition key");
  if (s.ok())
    s = CheckKeyList(columns_, clustering_key_, ColumnRole::kClustering, "clustering key");
  return s.ok() ? ValidateOptions() : s;
}

Status TableSchema::ValidateOptions() const {
  for (const auto& [name, encoding_name] : options_.column_encodings) {
    const ColumnDef* column = FindColumn(name);
    if (column == nullptr) {
      return Status::InvalidArgument("column_encodings names unknown column " + Quoted(name));
    }
    Encoding encoding;
    if (!ParseEncodingName(encoding_name, &encoding)) {
      return Status::InvalidArgument("column_encodings: unknown encoding " + Quoted(encoding_name) +
                                     " for column " + Quoted(name));
    }
    if (encoding != Encoding::kAuto &&
        !EncodingSupports(encoding, PhysicalTypeOfLogical(column->type))) {
      return Status::InvalidArgument("column_encodings: encoding " + Quoted(encoding_name) +
                                     " cannot encode column " + Quoted(name) + " of type " +
                                     LogicalTypeName(column->type));
    }
  }
  for (const auto& [name, compression_name] : options_.column_compression) {
    if (name != kDefaultCompressionKey && FindColumn(name) == nullptr) {
      return Status::InvalidArgument("column_compression names unknown column " + Quoted(name));
    }
    ColumnCompression compression;
    if (!ParseColumnCompressionName(compression_name, &compression)) {
      return Status::InvalidArgument("column_compression: " + Quoted(compression_name) + " for " +
                                     Quoted(name) + " is not 'none' or 'zstd'");
    }
  }
  if (options_.default_time_to_live < 0 || options_.default_time_to_live > kMaxTimeToLiveSeconds) {
    return Status::InvalidArgument("default_time_to_live must be between 0 and " +
                                   std::to_string(kMaxTimeToLiveSeconds) + " seconds, got " +
                                   std::to_string(options_.default_time_to_live));
  }
  for (const auto& [name, value] : options_.other) {
    if (name.empty() || value.empty() || IsTypedOptionName(name)) {
      return Status::InvalidArgument("invalid table option " + Quoted(name));
    }
  }
  return Status::OK();
}

int64_t GcGraceSeconds(const TableOptions& options) {
  const auto it = options.other.find("gc_grace_seconds");
  int64_t seconds = 0;
  return it != options.other.end() && ParseGcGraceSeconds(it->second, &seconds)
             ? seconds
             : kDefaultGcGraceSeconds;
}

bool ParseGcGraceSeconds(const std::string& text, int64_t* seconds) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, *seconds);
  return ec == std::errc() && ptr == end && *seconds >= 0 && *seconds <= kMaxGcGraceSeconds;
}

// ---- ALTER ----

Status TableSchema::Alter(const TableAlteration& alteration, TableSchema* altered) const {
  if (version_ == UINT32_MAX) return Status::InvalidArgument("schema version exhausted");
  TableSchema next = *this;
  next.version_ = version_ + 1;
  for (const std::string& name : alteration.dropped_columns) {
    const ColumnDef* column = next.FindColumn(name);
    if (column == nullptr) {
      return Status::InvalidArgument("cannot drop unknown column " + Quoted(name));
    }
    if (column->is_key()) {
      return Status::InvalidArgument("cannot drop primary key column " + Quoted(name));
    }
    next.columns_[column->id].dropped_in_version = next.version_;
    next.options_.column_encodings.erase(name);
    next.options_.column_compression.erase(name);
  }
  for (const auto& [name, type] : alteration.added_columns) {
    if (next.FindColumn(name) != nullptr) {
      return Status::InvalidArgument("cannot add column " + Quoted(name) + ": it already exists");
    }
    ColumnDef column;
    column.name = name;
    column.type = type;
    column.id = next.next_column_id();
    column.added_in_version = next.version_;
    next.columns_.push_back(std::move(column));
  }
  if (alteration.column_encodings) next.options_.column_encodings = *alteration.column_encodings;
  if (alteration.column_compression) {
    next.options_.column_compression = *alteration.column_compression;
  }
  if (alteration.default_time_to_live) {
    next.options_.default_time_to_live = *alteration.default_time_to_live;
  }
  for (const auto& [name, value] : alteration.other_options) next.options_.other[name] = value;
  Status s = next.Validate();
  if (!s.ok()) return s;
  *altered = std::move(next);
  return Status::OK();
}

// ---- serialized form ----

std::string TableSchema::Serialize() const {
  std::string out = kSerializedMagic;
  out += ":" + std::to_string(kSerializedFormatVersion) + ":";
  AppendEscaped(keyspace_, &out);
  out.push_back(':');
  AppendEscaped(table_, &out);
  out += ":" + std::to_string(version_) + ":[";
  for (const ColumnDef& column : columns_) {
    if (column.id > 0) out.push_back(',');
    out.push_back('(');
    AppendEscaped(column.name, &out);
    out.push_back(':');
    AppendEscaped(LogicalTypeName(column.type), &out);  // frozen<map<text, int>> has ' ' ','
    out += std::string(":") + RoleCode(column.role) + ":" +
           (column.order == ClusteringOrder::kAsc ? "a" : "d") + ":" +
           std::to_string(column.added_in_version) + ":" +
           std::to_string(column.dropped_in_version) + ")";
  }
  out += "]:";
  AppendIdList(partition_key_, &out);
  out.push_back(':');
  AppendIdList(clustering_key_, &out);
  out += ":" + std::to_string(options_.default_time_to_live) + ":";
  AppendPairList(options_.column_encodings, &out);
  out.push_back(':');
  AppendPairList(options_.column_compression, &out);
  out.push_back(':');
  AppendPairList(options_.other, &out);
  return out;
}

Status TableSchema::Deserialize(const Slice& serialized, TableSchema* schema) {
  SerializedReader in(serialized);
  TableSchema parsed;
  uint64_t format_version, ttl;
  auto read_id = [&](std::vector<uint32_t>* ids) {
    return in.List([&]() {
      uint32_t id;
      if (!in.Uint32(&id)) return false;
      ids->push_back(id);
      return true;
    });
  };
  const bool well_formed =
      in.Word(kSerializedMagic) && in.Char(':') && in.Number(UINT32_MAX, &format_version) &&
      format_version == kSerializedFormatVersion && in.Char(':') && in.Text(&parsed.keyspace_) &&
      in.Char(':') && in.Text(&parsed.table_) && in.Char(':') && in.Uint32(&parsed.version_) &&
      in.Char(':') && in.List([&]() {
        ColumnDef column;
        if (!ReadColumn(&in, parsed.next_column_id(), &column)) return false;
        parsed.columns_.push_back(std::move(column));
        return true;
      }) &&
      in.Char(':') && read_id(&parsed.partition_key_) && in.Char(':') &&
      read_id(&parsed.clustering_key_) && in.Char(':') && in.Number(kMaxTimeToLiveSeconds, &ttl) &&
      in.Char(':') && in.PairList(&parsed.options_.column_encodings) && in.Char(':') &&
      in.PairList(&parsed.options_.column_compression) && in.Char(':') &&
      in.PairList(&parsed.options_.other) && in.AtEnd();
  if (!well_formed) {
    return Status::Corruption("malformed serialized table schema at byte " +
                              std::to_string(in.position()));
  }
  parsed.options_.default_time_to_live = static_cast<int64_t>(ttl);
  Status s = parsed.Validate();
  if (!s.ok()) return Status::Corruption("invalid serialized table schema", s.getState());
  *schema = std::move(parsed);
  return Status::OK();
}

// ---- CQL ----

std::string TableSchema::ToCql() const {
  std::string out = "CREATE TABLE ";
  if (!keyspace_.empty()) out += CqlIdentifier(keyspace_) + ".";
  out += CqlIdentifier(table_) + " (\n";
  for (const ColumnDef& column : columns_) {
    if (column.is_live()) {
      out += "    " + CqlIdentifier(column.name) + " " + LogicalTypeName(column.type) + ",\n";
    }
  }
  std::string partition;
  for (uint32_t id : partition_key_) {
    partition += (partition.empty() ? "" : ", ") + CqlIdentifier(columns_[id].name);
  }
  out += "    PRIMARY KEY (" + (partition_key_.size() > 1 ? "(" + partition + ")" : partition);
  for (uint32_t id : clustering_key_) out += ", " + CqlIdentifier(columns_[id].name);
  out += ")\n)";

  std::vector<std::string> with;
  if (!clustering_key_.empty()) {
    std::string order;
    for (uint32_t id : clustering_key_) {
      order += (order.empty() ? "" : ", ") + CqlIdentifier(columns_[id].name) +
               (columns_[id].order == ClusteringOrder::kAsc ? " ASC" : " DESC");
    }
    with.push_back("CLUSTERING ORDER BY (" + order + ")");
  }
  if (!options_.column_encodings.empty()) {
    with.push_back("column_encodings = " + CqlMap(options_.column_encodings));
  }
  if (!options_.column_compression.empty()) {
    with.push_back("column_compression = " + CqlMap(options_.column_compression));
  }
  if (options_.default_time_to_live != 0) {
    with.push_back("default_time_to_live = " + std::to_string(options_.default_time_to_live));
  }
  for (const auto& [name, value] : options_.other) {
    with.push_back(CqlIdentifier(name) + " = " + value);
  }
  for (size_t i = 0; i < with.size(); i++) out += (i == 0 ? " WITH " : "\n    AND ") + with[i];
  return out + ";";
}

// ---- builder ----

TableSchemaBuilder::TableSchemaBuilder(std::string keyspace, std::string table)
    : keyspace_(std::move(keyspace)), table_(std::move(table)) {}

TableSchemaBuilder& TableSchemaBuilder::AddColumn(std::string name, LogicalType type) {
  columns_.emplace_back(std::move(name), type);
  return *this;
}

TableSchemaBuilder& TableSchemaBuilder::SetPartitionKey(std::vector<std::string> names) {
  partition_key_ = std::move(names);
  return *this;
}

TableSchemaBuilder& TableSchemaBuilder::AddClusteringColumn(std::string name,
                                                            ClusteringOrder order) {
  clustering_.emplace_back(std::move(name), order);
  return *this;
}

TableSchemaBuilder& TableSchemaBuilder::SetOptions(TableOptions options) {
  options_ = std::move(options);
  return *this;
}

Status TableSchemaBuilder::Build(TableSchema* schema) const {
  TableSchema built;
  built.keyspace_ = keyspace_;
  built.table_ = table_;
  built.version_ = 1;
  built.options_ = options_;
  for (const auto& [name, type] : columns_) {
    if (built.FindColumn(name) != nullptr) {
      return Status::InvalidArgument("duplicate column name " + Quoted(name));
    }
    ColumnDef column;
    column.name = name;
    column.type = type;
    column.id = built.next_column_id();
    built.columns_.push_back(std::move(column));
  }
  auto assign_key_role = [&](const std::string& name, ColumnRole role, ClusteringOrder order,
                             std::vector<uint32_t>* ids) {
    const ColumnDef* found = built.FindColumn(name);
    if (found == nullptr) {
      return Status::InvalidArgument("primary key names unknown column " + Quoted(name));
    }
    ColumnDef& column = built.columns_[found->id];
    if (column.is_key()) {
      return Status::InvalidArgument("column " + Quoted(name) +
                                     " appears more than once in the primary key");
    }
    column.role = role;
    column.order = order;
    ids->push_back(column.id);
    return Status::OK();
  };
  for (const std::string& name : partition_key_) {
    Status s = assign_key_role(name, ColumnRole::kPartitionKey, ClusteringOrder::kAsc,
                               &built.partition_key_);
    if (!s.ok()) return s;
  }
  for (const auto& [name, order] : clustering_) {
    Status s = assign_key_role(name, ColumnRole::kClustering, order, &built.clustering_key_);
    if (!s.ok()) return s;
  }
  Status s = built.Validate();
  if (!s.ok()) return s;
  *schema = std::move(built);
  return Status::OK();
}

}  // namespace columnar
