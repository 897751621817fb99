// Helpers for the shell tests: a database with a manual clock driven through a Shell whose
// output is captured, and scripts for the source documents' access16 table.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include "table_api/database.h"
#include "tests/table_api/test_util.h"
#include "tools/shell_session.h"

namespace columnar {
namespace test {

constexpr int64_t kShellNowSeconds = 1'714'600'000;  // 2024-05-01T21:46:40Z

// Every INSERT of instance i-1's requests on May 1st and 2nd 2024, every 5 s from 10:00 for
// 12 rows a day: status 500 on every fourth row (with an error message), latency 10 + i ms,
// user_id unset on odd rows.
inline std::string Access16InsertScript() {
  std::string script;
  for (int day = 1; day <= 2; day++) {
    for (int i = 0; i < 12; i++) {
      const std::string time = "'2024-05-0" + std::to_string(day) + "T10:00:" + (i < 2 ? "0" : "") +
                               std::to_string(i * 5) + "Z'";
      script +=
          "INSERT INTO logs.access16 (orgid, service, instance, day, time, method, path, "
          "status, latency_ms, user_id, bytes_sent, error_message) VALUES ('org-1', "
          "'api', 'i-1', '2024-05-0" +
          std::to_string(day) + "', " + time + ", 'GET', '/v1/items', " +
          (i % 4 == 0 ? "500" : "200") + ", " + std::to_string(10 + i) + ", " +
          (i % 2 == 1 ? "null" : "'user-" + std::to_string(i) + "'") + ", 1024, " +
          (i % 4 == 0 ? "'upstream timeout'" : "null") + ");\n";
    }
  }
  return script;
}

// The whole content of a file the shell wrote (COPY ... TO), as bytes.
inline std::string ReadExportedFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The WHERE clause of instance i-1's partition of May 1st.
inline std::string May1Partition() {
  return "orgid = 'org-1' AND service = 'api' AND instance = 'i-1' AND day = '2024-05-01'";
}

class ShellTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }

  void Open() {
    options_.now_micros = clock_.Function();
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    ShellOptions shell_options;
    shell_options.format = format_;
    // Each reading is 250 us after the one before: every SELECT takes 0.250 ms.
    auto nanos = std::make_shared<int64_t>(0);
    shell_options.monotonic_nanos = [nanos] { return *nanos += 250'000; };
    shell_ = std::make_unique<Shell>(db_.get(), shell_options, out_, err_);
  }

  void Reopen() {
    shell_.reset();
    db_.reset();
    Open();
  }

  // Runs `script` (named "test" in errors) and returns what it printed to the output; the
  // errors it printed are in errors().
  std::string Run(const std::string& script) {
    out_.str("");
    err_.str("");
    shell_->RunText(script, "test");
    return out_.str();
  }

  // Runs `script` and expects no error.
  std::string RunOk(const std::string& script) {
    const uint64_t failures = shell_->failures();
    const std::string out = Run(script);
    EXPECT_EQ(shell_->failures(), failures) << script << "\n" << errors();
    EXPECT_EQ(errors(), "") << script;
    return out;
  }

  std::string errors() const { return err_.str(); }

  void LoadAccessLogs() {
    RunOk(Access16TableCql());
    RunOk(Access16InsertScript());
  }

  TempDir dir_{"cql-shell"};
  ManualClock clock_{kShellNowSeconds * 1'000'000};
  DatabaseOptions options_;
  OutputFormat format_ = OutputFormat::kTable;
  std::unique_ptr<Database> db_;
  std::ostringstream out_;
  std::ostringstream err_;
  std::unique_ptr<Shell> shell_;
};

}  // namespace test
}  // namespace columnar
