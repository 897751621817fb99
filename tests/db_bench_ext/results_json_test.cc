#include "db_bench_ext/results_json.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <variant>
#include <vector>

#include "db_bench_ext/json_writer.h"
#include "tests/db_bench_ext/sample_results.h"

namespace columnar {
namespace bench {
namespace {

// A minimal strict JSON reader for checking the writer's output: objects keep key order.
struct JsonValue {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  const JsonValue& operator[](const std::string& key) const {
    for (const auto& [name, value] : members) {
      if (name == key) return value;
    }
    throw std::out_of_range("no key " + key);
  }
  const JsonValue& operator[](size_t i) const { return items.at(i); }
};

class JsonReader {
 public:
  explicit JsonReader(const std::string& text) : text_(text) {}

  JsonValue ParseDocument() {
    JsonValue value = ParseValue();
    SkipSpace();
    if (pos_ != text_.size()) Fail("trailing characters");
    return value;
  }

 private:
  [[noreturn]] void Fail(const std::string& why) {
    throw std::runtime_error(why + " at offset " + std::to_string(pos_));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Consume(c)) Fail(std::string("expected ") + c);
  }
  bool ConsumeWord(const char* word) {
    const std::string w(word);
    if (text_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }

  JsonValue ParseValue() {
    SkipSpace();
    if (pos_ >= text_.size()) Fail("unexpected end");
    JsonValue value;
    const char c = text_[pos_];
    if (c == '{') {
      value.kind = JsonValue::kObject;
      ++pos_;
      if (Consume('}')) return value;
      do {
        SkipSpace();
        std::string key = ParseString();
        Expect(':');
        value.members.emplace_back(std::move(key), ParseValue());
      } while (Consume(','));
      Expect('}');
    } else if (c == '[') {
      value.kind = JsonValue::kArray;
      ++pos_;
      if (Consume(']')) return value;
      do {
        value.items.push_back(ParseValue());
      } while (Consume(','));
      Expect(']');
    } else if (c == '"') {
      value.kind = JsonValue::kString;
      value.text = ParseString();
    } else if (ConsumeWord("true") || ConsumeWord("false")) {
      value.kind = JsonValue::kBool;
      value.boolean = text_[pos_ - 1] == 'e' && text_[pos_ - 2] == 'u';
    } else if (ConsumeWord("null")) {
      value.kind = JsonValue::kNull;
    } else {
      value.kind = JsonValue::kNumber;
      const size_t start = pos_;
      while (pos_ < text_.size() && std::strchr("+-0123456789.eE", text_[pos_]) != nullptr) ++pos_;
      if (start == pos_) Fail("unexpected character");
      value.number = std::stod(text_.substr(start, pos_ - start));
    }
    return value;
  }

  std::string ParseString() {
    if (pos_ >= text_.size() || text_[pos_] != '"') Fail("expected string");
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) Fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) Fail("raw control character in string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      const char escape = text_[pos_++];
      switch (escape) {
        case '"':
        case '\\':
        case '/':
          out.push_back(escape);
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'u':
          out.push_back(static_cast<char>(std::stoi(text_.substr(pos_, 4), nullptr, 16)));
          pos_ += 4;
          break;
        default:
          Fail("bad escape");
      }
    }
  }

  const std::string& text_;
  size_t pos_ = 0;
};

JsonValue Parse(const std::string& text) { return JsonReader(text).ParseDocument(); }

TEST(JsonWriterTest, EscapesStrings) {
  EXPECT_EQ(JsonQuote("plain"), "\"plain\"");
  EXPECT_EQ(JsonQuote("a\"b\\c\nd\te\x01"), "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
  EXPECT_EQ(JsonQuote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(Parse(JsonQuote("a\"b\\c\nd\te\x01")).text, "a\"b\\c\nd\te\x01");
}

TEST(JsonWriterTest, WritesNestedContainersInOrder) {
  JsonWriter json;
  json.BeginObject();
  json.Key("b");
  json.Integer(-3);
  json.Key("a");
  json.BeginArray();
  json.Number(0.5);
  json.Bool(true);
  json.Null();
  json.BeginObject();
  json.EndObject();
  json.BeginArray();
  json.EndArray();
  json.EndArray();
  json.EndObject();
  EXPECT_EQ(
      json.Finish(),
      "{\n  \"b\": -3,\n  \"a\": [\n    0.5,\n    true,\n    null,\n    {},\n    []\n  ]\n}\n");
}

TEST(JsonWriterTest, RejectsMisuse) {
  JsonWriter json;
  json.BeginObject();
  EXPECT_THROW(json.String("value without key"), std::logic_error);
  EXPECT_THROW(json.EndArray(), std::logic_error);
  json.Key("k");
  EXPECT_THROW(json.Key("k2"), std::logic_error);
}

TEST(ResultsJsonTest, ParsesBackWithEveryFigure) {
  const BenchmarkResults results = testing::SampleResults();
  const JsonValue root = Parse(ResultsToJson(results));

  const JsonValue& metadata = root["metadata"];
  EXPECT_EQ(metadata["preset"].text, "smoke");
  EXPECT_EQ(metadata["machine"]["cores"].number, 2);
  EXPECT_EQ(metadata["machine"]["cpu_model"].text, "AMD EPYC \"Genoa\"");
  EXPECT_EQ(metadata["parameters"]["readers"].text, "16,32");

  ASSERT_EQ(root["workloads"].items.size(), 3u);
  const JsonValue& access16 = root["workloads"][2];
  EXPECT_EQ(access16["workload"].text, "access16");
  const JsonValue& c = access16["configs"][1];
  const ConfigResult& expected = results.workloads[2].configs[1];
  EXPECT_EQ(c["config"].text, "C");
  EXPECT_EQ(c["sst_bytes"].number, expected.sst_bytes);
  EXPECT_EQ(c["rows"].number, expected.rows);
  EXPECT_DOUBLE_EQ(c["bytes_per_row"].number, expected.bytes_per_row);
  EXPECT_EQ(c["sst_breakdown"]["index"].number, 2000);
  EXPECT_EQ(c["column_bytes"]["time"].number, 1000);
  EXPECT_EQ(c["column_bytes"].members[0].first, "time");  // schema order kept
  EXPECT_EQ(c["peak_sst_bytes"].number, expected.peak_sst_bytes);
  EXPECT_DOUBLE_EQ(c["ingest_rows_per_sec"].number, expected.ingest_rows_per_sec);
  EXPECT_EQ(c["cpu_seconds_per_million_rows"].number, 40);
  EXPECT_EQ(c["busy_cores"].number, 1.8);
  ASSERT_EQ(c["probe_ms"].items.size(), 2u);
  EXPECT_EQ(c["probe_ms"][0].number, 218.5);
  EXPECT_EQ(c["probe_ms"][1].number, 221.25);
  EXPECT_EQ(c["write_latency_us"]["p999"].number, 69500);
  EXPECT_EQ(c["write_latency_us"]["max"].number, 181000);
  EXPECT_EQ(c["compaction_bytes_read"].number, 55'170'000);
  EXPECT_EQ(c["compaction_bytes_written"].number, 51'620'000);

  const JsonValue& query = c["queries"][1];
  EXPECT_EQ(query["name"].text, "last_1h_5xx");
  EXPECT_EQ(query["description"].text, "SELECT * FROM t WHERE \"quoted\" AND path = 'a\\b'");
  EXPECT_EQ(query["p50_us"].number, 680);
  EXPECT_EQ(query["p99_us"].number, 2190);
  EXPECT_EQ(query["qps"]["16"].number, 39871 * 2);
  EXPECT_EQ(query["qps"]["32"].number, 80000);
  EXPECT_EQ(query["rows"].number, 190);
  EXPECT_EQ(query["result_hash"].text, "deadbeef");
  EXPECT_EQ(query["counters"]["groups_skipped"].number, 1234);

  EXPECT_TRUE(root["correctness"]["identical_across_configs"].boolean);
  EXPECT_TRUE(root["correctness"]["mismatches"].items.empty());
  EXPECT_TRUE(c["loaded"].boolean);
  EXPECT_THROW(query["qps_rounds"], std::out_of_range) << "one round: no rounds";
}

// Queries measured in rounds keep each round's throughput; an existing database's load
// figures are absent (null), not zero.
TEST(ResultsJsonTest, RoundsAndExistingDatabases) {
  BenchmarkResults results = testing::SampleResults();
  ConfigResult& c = results.workloads[0].configs[1];
  c.queries[0].qps_rounds_by_concurrency = {{16, {9000, 9010, 9200}}};
  c.loaded = false;
  c.ingest_rows_per_sec = std::nan("");
  const JsonValue root = Parse(ResultsToJson(results));
  const JsonValue& config = root["workloads"][0]["configs"][1];
  EXPECT_FALSE(config["loaded"].boolean);
  EXPECT_EQ(config["ingest_rows_per_sec"].kind, JsonValue::kNull);
  const JsonValue& rounds = config["queries"][0]["qps_rounds"]["16"];
  ASSERT_EQ(rounds.items.size(), 3u);
  EXPECT_EQ(rounds[0].number, 9000);
  EXPECT_EQ(rounds[2].number, 9200);
}

TEST(ResultsJsonTest, ReportsMismatchesAndIsStable) {
  BenchmarkResults results = testing::SampleResults();
  results.workloads[1].configs[1].queries[0].result_hash = "0badf00d";
  const std::string text = ResultsToJson(results);
  EXPECT_EQ(text, ResultsToJson(results));
  const JsonValue root = Parse(text);
  EXPECT_FALSE(root["correctness"]["identical_across_configs"].boolean);
  ASSERT_EQ(root["correctness"]["mismatches"].items.size(), 1u);
  EXPECT_EQ(root["correctness"]["mismatches"][0]["workload"].text, "access8");
  EXPECT_EQ(root["correctness"]["mismatches"][0]["query"].text, "last_1h");
  // Top-level keys in their fixed order.
  ASSERT_EQ(root.members.size(), 3u);
  EXPECT_EQ(root.members[0].first, "metadata");
  EXPECT_EQ(root.members[1].first, "workloads");
  EXPECT_EQ(root.members[2].first, "correctness");
}

}  // namespace
}  // namespace bench
}  // namespace columnar
