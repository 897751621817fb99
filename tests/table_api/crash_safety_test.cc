// Crash safety: a child process runs a Table API load (single rows and batches, deletes,
// flushes, compactions, ALTER TABLE, expired-row files and DropExpiredFiles) on a real
// directory and is SIGKILLed at a random moment, again and again. After each kill the parent
// reopens the database and checks that
//   - every write the child acknowledged is there (a SIGKILL loses nothing the OS has: a write
//     that returned, synced or not, is in the WAL file),
//   - nothing is half-applied: the table equals the model replayed from the acknowledged
//     operations, or that model plus the one operation in flight when the child died
//     (a batch counts whole or not at all; so does an ALTER),
//   - VerifyChecksum passes.
// The child reports each operation on a pipe before it starts ("B <id> <op>") and after the
// call returned ("A <id>"). It is this test binary itself, re-executed with a gtest filter
// (fork without exec would inherit RocksDB's thread pools without their threads).
//
// COLUMNAR_CRASH_KILLS sets the number of kills (default 3; the long run uses 20).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <rocksdb/db.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "table_api/database.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr const char* kTable = "crash.t";
constexpr const char* kCreate =
    "CREATE TABLE IF NOT EXISTS crash.t (p int, c int, v bigint, s text, PRIMARY KEY (p, c))";
// Columns ALTER TABLE adds and drops (re-adding a dropped name must not bring old values back).
const std::vector<std::string> kExtraPool = {"x0", "x1", "x2", "x3"};
constexpr int kLivePartitions = 4;
constexpr int kExpiredPartition = 100;  // rows written already expired: never visible

struct RowValues {
  int64_t v = 0;
  std::string s;
  std::map<std::string, int32_t> extras;  // non-null extra columns
  bool operator==(const RowValues& o) const { return v == o.v && s == o.s && extras == o.extras; }
};

using Key = std::pair<int, int>;  // (p, c)

struct RowSpec {
  Key key;
  RowValues values;
};

// One operation of the load, as sent on the pipe (one line, space-separated tokens).
struct Op {
  std::string kind;           // ins batch delrow delpart flush compact add drop expired dropexp
  std::vector<RowSpec> rows;  // ins, batch
  Key key{0, 0};              // delrow (p, c), delpart (p)
  std::string column;         // add, drop

  std::string Encode() const {
    std::ostringstream out;
    out << kind << ' ' << key.first << ' ' << key.second << ' ' << (column.empty() ? "-" : column)
        << ' ' << rows.size();
    for (const RowSpec& row : rows) {
      out << ' ' << row.key.first << ':' << row.key.second << ':' << row.values.v << ':'
          << row.values.s << ':';
      std::string extras;
      for (const auto& [name, value] : row.values.extras) {
        extras += (extras.empty() ? "" : ",") + name + "=" + std::to_string(value);
      }
      out << (extras.empty() ? "-" : extras);
    }
    return out.str();
  }

  static Op Decode(const std::string& text) {
    std::istringstream in(text);
    Op op;
    size_t count = 0;
    in >> op.kind >> op.key.first >> op.key.second >> op.column >> count;
    if (op.column == "-") op.column.clear();
    for (size_t i = 0; i < count; i++) {
      std::string token;
      in >> token;
      std::vector<std::string> parts;
      std::stringstream fields(token);
      for (std::string part; std::getline(fields, part, ':');) parts.push_back(part);
      RowSpec row;
      row.key = {std::stoi(parts.at(0)), std::stoi(parts.at(1))};
      row.values.v = std::stoll(parts.at(2));
      row.values.s = parts.at(3);
      if (parts.at(4) != "-") {
        std::stringstream extras(parts.at(4));
        for (std::string pair; std::getline(extras, pair, ',');) {
          const size_t eq = pair.find('=');
          row.values.extras[pair.substr(0, eq)] = std::stoi(pair.substr(eq + 1));
        }
      }
      op.rows.push_back(row);
    }
    return op;
  }
};

// What the table should hold: rows of the live partitions and the live extra columns.
struct Model {
  std::map<Key, RowValues> rows;
  std::vector<std::string> extras;

  void Apply(const Op& op) {
    if (op.kind == "ins" || op.kind == "batch") {
      for (const RowSpec& row : op.rows) rows[row.key] = row.values;
    } else if (op.kind == "delrow") {
      rows.erase(op.key);
    } else if (op.kind == "delpart") {
      rows.erase(rows.lower_bound({op.key.first, INT32_MIN}),
                 rows.upper_bound({op.key.first, INT32_MAX}));
    } else if (op.kind == "add") {
      extras.push_back(op.column);
    } else if (op.kind == "drop") {
      auto live = std::find(extras.begin(), extras.end(), op.column);
      if (live != extras.end()) extras.erase(live);
      for (auto& [key, values] : rows) values.extras.erase(op.column);
    }
    // flush, compact, expired (rows already expired), dropexp: nothing visible changes.
  }
  bool operator==(const Model& o) const {
    std::vector<std::string> a = extras, b = o.extras;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return rows == o.rows && a == b;
  }
};

std::string Describe(const Model& model) {
  std::ostringstream out;
  out << model.rows.size() << " rows, extras:";
  for (const std::string& e : model.extras) out << ' ' << e;
  return out.str();
}

DatabaseOptions CrashDatabaseOptions(bool sync) {
  DatabaseOptions options;
  options.write_options.sync = sync;
  return options;
}

TableStorage CrashStorage() {
  TableStorage storage = test::ColumnarStorage();
  storage.columnar.rows_per_group = 16;
  storage.columnar.block_size = 2048;
  // Small memtables and an eager L0 trigger: background flushes and compactions run all the
  // time, so kills land in them too.
  storage.adjust_column_family = [](rocksdb::ColumnFamilyOptions* options) {
    options->write_buffer_size = 64 << 10;
    options->level0_file_num_compaction_trigger = 3;
    options->target_file_size_base = 128 << 10;
  };
  return storage;
}

// ---- the child: the load ----

void WriteLine(int fd, const std::string& line) {
  const std::string data = line + "\n";
  // One write() of less than PIPE_BUF bytes: atomic, never interleaved or torn.
  if (write(fd, data.data(), data.size()) != static_cast<ssize_t>(data.size())) _exit(4);
}

Op NextOp(std::mt19937_64& rng, const std::vector<std::string>& extras) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  auto random_row = [&](int partition) {
    RowSpec row;
    row.key = {partition, pick(50)};
    row.values.v = static_cast<int64_t>(rng() % 1000000) - 500000;
    row.values.s = "s" + std::to_string(pick(100000));
    for (const std::string& extra : extras) {
      if (pick(2)) row.values.extras[extra] = pick(1000) - 500;
    }
    return row;
  };
  Op op;
  const int roll = pick(100);
  if (roll < 35) {
    op.kind = "ins";
    op.rows.push_back(random_row(pick(kLivePartitions)));
  } else if (roll < 55) {
    op.kind = "batch";
    const int n = 2 + pick(20);
    // Distinct keys: two writes of a key in one batch share its timestamp, and Cassandra's tie
    // rule (the greater value) decides between them, not their order (cell_semantics_test).
    std::set<Key> keys;
    for (int i = 0; i < n; i++) {
      RowSpec row = random_row(pick(kLivePartitions));
      if (keys.insert(row.key).second) op.rows.push_back(std::move(row));
    }
  } else if (roll < 63) {
    op.kind = "delrow";
    op.key = {pick(kLivePartitions), pick(50)};
  } else if (roll < 65) {
    op.kind = "delpart";
    op.key = {pick(kLivePartitions), 0};
  } else if (roll < 73) {
    op.kind = "flush";
  } else if (roll < 77) {
    op.kind = "compact";
  } else if (roll < 81) {
    std::vector<std::string> free;
    for (const std::string& name : kExtraPool) {
      if (std::find(extras.begin(), extras.end(), name) == extras.end()) free.push_back(name);
    }
    if (free.empty()) return NextOp(rng, extras);
    op.kind = "add";
    op.column = free[pick(static_cast<int>(free.size()))];
  } else if (roll < 84) {
    if (extras.empty()) return NextOp(rng, extras);
    op.kind = "drop";
    op.column = extras[pick(static_cast<int>(extras.size()))];
  } else if (roll < 94) {
    op.kind = "expired";
    const int n = 5 + pick(20);
    for (int i = 0; i < n; i++) op.rows.push_back(random_row(kExpiredPartition));
  } else {
    op.kind = "dropexp";
  }
  return op;
}

NamedRow ToNamedRow(const RowSpec& row) {
  NamedRow named{{"p", Value::Int(row.key.first)},
                 {"c", Value::Int(row.key.second)},
                 {"v", Value::BigInt(row.values.v)},
                 {"s", Value::Text(row.values.s)}};
  for (const auto& [name, value] : row.values.extras) named[name] = Value::Int(value);
  return named;
}

Status RunOp(Database* database, Table* table, const Op& op) {
  rocksdb::DB* db = database->db();
  if (op.kind == "ins") return table->Insert(ToNamedRow(op.rows[0]));
  if (op.kind == "batch" || op.kind == "expired") {
    std::vector<NamedRow> rows;
    for (const RowSpec& row : op.rows) rows.push_back(ToNamedRow(row));
    RowWriteOptions options;
    if (op.kind == "expired") options.expiry_seconds = 1000;  // long past
    Status s = table->InsertBatch(rows, options);
    // Files of expired rows only: what DropExpiredFiles drops.
    if (s.ok() && op.kind == "expired")
      s = db->Flush(rocksdb::FlushOptions(), table->column_family());
    return s;
  }
  if (op.kind == "delrow") {
    return table->DeleteRow({Value::Int(op.key.first)}, {Value::Int(op.key.second)});
  }
  if (op.kind == "delpart") return table->DeletePartition({Value::Int(op.key.first)});
  if (op.kind == "flush") return db->Flush(rocksdb::FlushOptions(), table->column_family());
  if (op.kind == "compact") {
    return db->CompactRange(rocksdb::CompactRangeOptions(), table->column_family(), nullptr,
                            nullptr);
  }
  if (op.kind == "add")
    return database->AlterTable("ALTER TABLE crash.t ADD " + op.column + " int");
  if (op.kind == "drop") return database->AlterTable("ALTER TABLE crash.t DROP " + op.column);
  ExpiredFilesResult result;
  return table->DropExpiredFiles(&result);
}

std::vector<std::string> LiveExtras(const Table& table) {
  std::vector<std::string> extras;
  const auto schema = table.schema();
  for (uint32_t id : schema->LiveRegularColumns()) {
    const std::string& name = schema->columns()[id].name;
    if (name != "v" && name != "s") extras.push_back(name);
  }
  return extras;
}

// Runs until killed (or, should the parent never kill it, for a minute).
[[noreturn]] void RunChild(int fd, const std::string& path, uint64_t seed, bool sync) {
  std::unique_ptr<Database> database;
  Status s = Database::Open(CrashDatabaseOptions(sync), path, &database);
  Table* table = nullptr;
  if (s.ok()) s = database->CreateTable(kCreate, CrashStorage(), &table);
  if (!s.ok()) {
    fprintf(stderr, "child: open/create failed: %s\n", s.ToString().c_str());
    _exit(3);
  }
  std::vector<std::string> extras = LiveExtras(*table);
  std::mt19937_64 rng(seed);
  WriteLine(fd, "R");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (uint64_t id = 0; std::chrono::steady_clock::now() < deadline; id++) {
    const Op op = NextOp(rng, extras);
    WriteLine(fd, "B " + std::to_string(id) + " " + op.Encode());
    s = RunOp(database.get(), table, op);
    if (!s.ok()) {
      fprintf(stderr, "child: %s failed: %s\n", op.kind.c_str(), s.ToString().c_str());
      _exit(3);
    }
    WriteLine(fd, "A " + std::to_string(id));
    if (op.kind == "add") extras.push_back(op.column);
    if (op.kind == "drop") extras.erase(std::find(extras.begin(), extras.end(), op.column));
  }
  _exit(0);
}

// The child's entry point: skipped unless the parent test started this process.
TEST(CrashSafetyChild, RunLoad) {
  const char* spec = std::getenv("COLUMNAR_CRASH_CHILD");
  if (spec == nullptr) GTEST_SKIP() << "started by CrashSafetyTest only";
  std::istringstream in(spec);
  int fd = -1;
  std::string path;
  uint64_t seed = 0;
  int sync = 0;
  in >> fd >> path >> seed >> sync;
  RunChild(fd, path, seed, sync != 0);
}

// ---- the parent: kill, reopen, check ----

// The table's visible content as a model; the expired partition must be empty.
Status ReadTable(Database* database, Model* model) {
  Table* table = nullptr;
  Status s = database->GetTable(kTable, &table);
  if (!s.ok()) return s;
  model->extras = LiveExtras(*table);
  for (int p : {0, 1, 2, 3, kExpiredPartition}) {
    ResultSet result;
    s = table->Select(SelectQuery::ForPartition({Value::Int(p)}), &result);
    if (!s.ok()) return s;
    for (const Row& row : result.rows) {
      RowSpec spec;
      for (size_t i = 0; i < result.column_names.size(); i++) {
        const std::string& name = result.column_names[i];
        const Value& value = row[i];
        if (name == "p") {
          spec.key.first = value.int32_value();
        } else if (name == "c") {
          spec.key.second = value.int32_value();
        } else if (name == "v") {
          spec.values.v = value.int64_value();
        } else if (name == "s") {
          spec.values.s = value.bytes();
        } else if (!value.is_null()) {
          spec.values.extras[name] = value.int32_value();
        }
      }
      if (p == kExpiredPartition) {
        return Status::Corruption("an expired row is visible: c=" +
                                  std::to_string(spec.key.second));
      }
      model->rows[spec.key] = spec.values;
    }
  }
  return Status::OK();
}

struct ChildRun {
  std::vector<std::string> lines;
  int exit_status = 0;
  bool killed = false;
};

// Starts the child, waits for it to be ready, lets it run for `run_ms` and kills it.
ChildRun RunAndKill(const std::string& path, uint64_t seed, bool sync, int run_ms) {
  ChildRun run;
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const std::string spec =
      std::to_string(fds[1]) + " " + path + " " + std::to_string(seed) + " " + (sync ? "1" : "0");
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    // gtest's banner of the child would interleave with the parent's output.
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) dup2(null_fd, STDOUT_FILENO);
    setenv("COLUMNAR_CRASH_CHILD", spec.c_str(), 1);
    execl("/proc/self/exe", "crash_child", "--gtest_filter=CrashSafetyChild.RunLoad",
          static_cast<char*>(nullptr));
    _exit(5);
  }
  close(fds[1]);
  std::string buffer;
  bool ready = false;
  auto kill_at = std::chrono::steady_clock::now() + std::chrono::seconds(120);  // until ready
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (!run.killed && now >= kill_at) {
      kill(pid, SIGKILL);
      run.killed = true;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    const int wait_ms =
        run.killed
            ? 1000
            : static_cast<int>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(kill_at - now).count()) +
                  1;
    if (poll(&pfd, 1, wait_ms) <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(fds[0], chunk, sizeof(chunk));
    if (n <= 0) break;  // the child is gone
    buffer.append(chunk, static_cast<size_t>(n));
    for (size_t eol; (eol = buffer.find('\n')) != std::string::npos;) {
      run.lines.push_back(buffer.substr(0, eol));
      buffer.erase(0, eol + 1);
      if (!ready && run.lines.back() == "R") {
        ready = true;
        kill_at = std::chrono::steady_clock::now() + std::chrono::milliseconds(run_ms);
      }
    }
  }
  close(fds[0]);
  waitpid(pid, &run.exit_status, 0);
  return run;
}

int KillsFromEnvironment() {
  const char* text = std::getenv("COLUMNAR_CRASH_KILLS");
  return text != nullptr && std::atoi(text) > 0 ? std::atoi(text) : 3;
}

TEST(CrashSafetyTest, KilledLoadLosesNoAcknowledgedWriteAndAppliesNothingByHalves) {
  TempDir dir("crash-safety");
  const std::string path = dir.path() + "/db";
  const int kills = KillsFromEnvironment();
  std::mt19937_64 rng(20261201);
  Model model;
  uint64_t acknowledged = 0;
  int in_flight_applied = 0;
  for (int k = 0; k < kills; k++) {
    const bool sync = k % 2 == 1;
    const int run_ms = 200 + static_cast<int>(rng() % 1800);
    ChildRun run = RunAndKill(path, rng(), sync, run_ms);
    ASSERT_TRUE(run.killed || (WIFEXITED(run.exit_status) && WEXITSTATUS(run.exit_status) == 0))
        << "the child failed on its own (exit status " << run.exit_status << ")";
    ASSERT_FALSE(run.lines.empty()) << "the child never became ready";

    std::optional<Op> in_flight;
    std::map<uint64_t, Op> started;
    for (const std::string& line : run.lines) {
      if (line == "R") continue;
      std::istringstream in(line);
      std::string tag;
      uint64_t id = 0;
      in >> tag >> id;
      if (tag == "B") {
        std::string rest;
        std::getline(in, rest);
        started[id] = Op::Decode(rest);
      } else {
        ASSERT_EQ(tag, "A");
        model.Apply(started.at(id));
        started.erase(id);
        acknowledged++;
      }
    }
    ASSERT_LE(started.size(), 1u);
    if (!started.empty()) in_flight = started.begin()->second;

    std::unique_ptr<Database> database;
    Status s = Database::Open(CrashDatabaseOptions(false), path, &database);
    ASSERT_TRUE(s.ok()) << "reopen after kill " << k << ": " << s.ToString();
    s = database->db()->VerifyChecksum();
    ASSERT_TRUE(s.ok()) << "VerifyChecksum after kill " << k << ": " << s.ToString();
    Model actual;
    s = ReadTable(database.get(), &actual);
    ASSERT_TRUE(s.ok()) << "after kill " << k << ": " << s.ToString();
    if (std::getenv("COLUMNAR_CRASH_VERBOSE") != nullptr) {
      std::printf("kill %d: %zu lines, table %s, model %s\n", k, run.lines.size(),
                  Describe(actual).c_str(), Describe(model).c_str());
    }
    if (!(actual == model)) {
      ASSERT_TRUE(in_flight.has_value())
          << "after kill " << k << " the table (" << Describe(actual)
          << ") differs from the acknowledged writes (" << Describe(model) << ")";
      Model with_in_flight = model;
      with_in_flight.Apply(*in_flight);
      ASSERT_TRUE(actual == with_in_flight)
          << "after kill " << k << " the table (" << Describe(actual)
          << ") is neither the acknowledged writes (" << Describe(model)
          << ") nor those plus the operation in flight (" << in_flight->kind << ", "
          << Describe(with_in_flight) << "): half-applied or lost";
      model = with_in_flight;
      in_flight_applied++;
    }
  }
  EXPECT_GT(acknowledged, 0u);
  std::printf(
      "crash safety: %d kills, %llu acknowledged operations, %d in-flight operations "
      "found applied\n",
      kills, static_cast<unsigned long long>(acknowledged), in_flight_applied);
}

}  // namespace
}  // namespace columnar
