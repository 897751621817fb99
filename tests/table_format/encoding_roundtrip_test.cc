// Round-trip property tests: every encoding x every type it accepts x adversarial datasets x
// boundary lengths, compared bit-exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "table_format/encoding.h"
#include "table_format/encodings/template.h"
#include "tests/table_format/encoding_test_util.h"

namespace columnar {
namespace {

using testing_util::AllStoredEncodings;
using testing_util::AllTypes;
using testing_util::DatasetsFor;
using testing_util::MayRefuse;
using testing_util::TestLengths;

class RoundTripTest : public ::testing::TestWithParam<Encoding> {};

TEST_P(RoundTripTest, EveryTypeDatasetAndLength) {
  const Encoding encoding = GetParam();
  int tested = 0;
  for (PhysicalType type : AllTypes()) {
    if (!EncodingSupports(encoding, type)) continue;
    for (size_t n : TestLengths()) {
      for (auto& dataset : DatasetsFor(type, n, 1000 + n)) {
        SCOPED_TRACE(std::string(EncodingName(encoding)) + " " + PhysicalTypeName(type) + " " +
                     dataset.name + " n=" + std::to_string(n));
        std::string body = "prefix";  // encoders append
        Status s = EncodeValues(encoding, dataset.values, &body);
        if (!s.ok()) {
          ASSERT_TRUE(MayRefuse(encoding) && s.IsInvalidArgument()) << s.ToString();
          ASSERT_EQ(body, "prefix") << "a refused encode must leave the output unchanged";
          continue;
        }
        ASSERT_EQ(body.compare(0, 6, "prefix"), 0);
        const Slice encoded(body.data() + 6, body.size() - 6);
        ColumnVector decoded(type);
        s = DecodeValues(encoding, type, encoded, n, &decoded);
        ASSERT_TRUE(s.ok()) << s.ToString();
        ASSERT_TRUE(decoded.Equals(dataset.values));

        // Decoding appends to what the column already holds.
        if (n > 0) {
          ColumnVector appended(type);
          appended.AppendFrom(dataset.values, 0);
          ASSERT_TRUE(DecodeValues(encoding, type, encoded, n, &appended).ok());
          ASSERT_EQ(appended.size(), n + 1);
          for (size_t i = 0; i < n; i++) {
            ColumnVector one(type), expect(type);
            one.AppendFrom(appended, i + 1);
            expect.AppendFrom(dataset.values, i);
            ASSERT_TRUE(one.Equals(expect)) << "row " << i;
          }
        }
        tested++;
      }
    }
  }
  EXPECT_GT(tested, 0) << "encoding has no supported type";
}

INSTANTIATE_TEST_SUITE_P(AllEncodings, RoundTripTest, ::testing::ValuesIn(AllStoredEncodings()),
                         [](const ::testing::TestParamInfo<Encoding>& info) {
                           const std::string name = EncodingName(info.param);
                           return name != "unknown"
                                      ? name
                                      : "id" + std::to_string(static_cast<int>(info.param));
                         });

TEST(AutoEncodingTest, RoundTripsAndPicksAConcreteEncoding) {
  for (PhysicalType type : AllTypes()) {
    for (size_t n : TestLengths()) {
      for (auto& dataset : DatasetsFor(type, n, 77 + n)) {
        SCOPED_TRACE(std::string(PhysicalTypeName(type)) + " " + dataset.name +
                     " n=" + std::to_string(n));
        std::string body;
        Encoding chosen = Encoding::kAuto;
        ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAuto, dataset.values, &body, &chosen).ok());
        ASSERT_NE(chosen, Encoding::kAuto);
        ASSERT_TRUE(EncodingSupports(chosen, type));
        ColumnVector decoded(type);
        Status s = DecodeValues(chosen, type, body, n, &decoded);
        ASSERT_TRUE(s.ok()) << s.ToString();
        ASSERT_TRUE(decoded.Equals(dataset.values)) << EncodingName(chosen);
        // Never worse than plain.
        std::string plain;
        ASSERT_TRUE(EncodeValues(Encoding::kPlain, dataset.values, &plain).ok());
        EXPECT_LE(body.size(), plain.size()) << EncodingName(chosen);
      }
    }
  }
}

TEST(EncodingCatalogTest, NamesRoundTrip) {
  for (Encoding e : AllStoredEncodings()) {
    Encoding parsed;
    ASSERT_TRUE(ParseEncodingName(EncodingName(e), &parsed)) << EncodingName(e);
    EXPECT_EQ(parsed, e);
  }
  Encoding parsed;
  ASSERT_TRUE(ParseEncodingName("auto", &parsed));
  EXPECT_EQ(parsed, Encoding::kAuto);
  EXPECT_FALSE(ParseEncodingName("nope", &parsed));
  EXPECT_FALSE(EncodingSupports(Encoding::kAuto, PhysicalType::kInt64));
  EXPECT_FALSE(EncodingSupports(static_cast<Encoding>(200), PhysicalType::kInt64));
}

TEST(EncodingCatalogTest, Candidates) {
  EXPECT_EQ(CandidateEncodings(Encoding::kAlp, PhysicalType::kFloat64),
            (std::vector<Encoding>{Encoding::kAlp, Encoding::kAlpRd}));
  EXPECT_EQ(CandidateEncodings(Encoding::kAlp, PhysicalType::kInt64),
            (std::vector<Encoding>{Encoding::kPlain}));
  EXPECT_EQ(CandidateEncodings(Encoding::kDelta, PhysicalType::kInt32),
            (std::vector<Encoding>{Encoding::kDelta}));
  EXPECT_EQ(CandidateEncodings(Encoding::kDelta, PhysicalType::kBytes),
            (std::vector<Encoding>{Encoding::kPlain}));
  for (PhysicalType type : AllTypes()) {
    for (Encoding e : CandidateEncodings(Encoding::kAuto, type)) {
      EXPECT_TRUE(EncodingSupports(e, type));
    }
  }
}

TEST(EncodingCatalogTest, RefusesNullsAndWrongTypes) {
  ColumnVector with_null(PhysicalType::kInt64);
  with_null.Append<int64_t>(1);
  with_null.AppendNull();
  std::string out;
  EXPECT_TRUE(EncodeValues(Encoding::kPlain, with_null, &out).IsInvalidArgument());
  ColumnVector strings(PhysicalType::kBytes);
  strings.AppendBytes("x");
  EXPECT_TRUE(EncodeValues(Encoding::kDelta, strings, &out).IsInvalidArgument());
  ColumnVector ints(PhysicalType::kInt64);
  EXPECT_TRUE(
      DecodeValues(Encoding::kGorilla, PhysicalType::kInt64, Slice(), 0, &ints).IsCorruption());
}

TEST(EncodingCatalogTest, RequestedHexFallsBackToPlainOnNonHex) {
  ColumnVector strings(PhysicalType::kBytes);
  strings.AppendBytes("not hex!");
  std::string out;
  Encoding chosen;
  ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kHex, strings, &out, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kPlain);
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// Digit runs the template splits off or keeps literal, at the edges of its rules: every string
// comes back byte for byte, and the splits are the documented ones.
TEST(TemplateRoundTripTest, DigitSuffixesAndPaddedDecimals) {
  const std::vector<std::string> strings = {"u0312345",
                                            "u0000000",
                                            "u9999999",
                                            "INV2024001",
                                            "ab123",  // 3 digits: literal
                                            "x0001",
                                            "0000",
                                            "00000000000000000000",  // 20 digits: literal
                                            "a0000000000000000001",
                                            "v1",
                                            "007",
                                            "id_0042/x/0009",
                                            "Win64",
                                            "a1b2c3d4e5f6a7b8c9",  // lower hex
                                            "Z1234567890123456789"};
  ColumnVector values(PhysicalType::kBytes);
  for (const std::string& s : strings) values.AppendBytes(s);
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kTemplate, values, &body).ok());
  ColumnVector decoded(PhysicalType::kBytes);
  ASSERT_TRUE(
      DecodeValues(Encoding::kTemplate, PhysicalType::kBytes, body, values.size(), &decoded).ok());
  ASSERT_TRUE(decoded.Equals(values));

  std::string tmpl;
  std::vector<uint64_t> params;
  SplitTemplate("u0312345", &tmpl, &params);
  EXPECT_EQ(tmpl, std::string("u\0z\x07", 4));
  EXPECT_EQ(params, std::vector<uint64_t>({312345}));
  SplitTemplate("INV2024001", &tmpl, &params);
  EXPECT_EQ(tmpl, std::string("INV\0d", 5));
  EXPECT_EQ(params, std::vector<uint64_t>({2024001}));
  SplitTemplate("ab123", &tmpl, &params);
  EXPECT_EQ(tmpl, "ab123");
  EXPECT_TRUE(params.empty());
  SplitTemplate("Win64", &tmpl, &params);
  EXPECT_EQ(tmpl, "Win64");
  SplitTemplate("0000", &tmpl, &params);
  EXPECT_EQ(tmpl, std::string("\0z\x04", 3));
  EXPECT_EQ(params, std::vector<uint64_t>({0}));
  SplitTemplate("00000000000000000000", &tmpl, &params);
  EXPECT_TRUE(params.empty());
}

// Templates longest relative to their values (template.cc writes them into a buffer sized by
// the longest possible): escaped 0x00 bytes between single-digit parameters, past the slot
// limit, and a value of 0x00 bytes only; split, kept whole, and round-tripped.
TEST(TemplateRoundTripTest, LongestTemplatesRoundTrip) {
  ColumnVector values(PhysicalType::kBytes);
  std::string digits_and_zeros;
  for (int k = 0; k < 40; k++) digits_and_zeros += std::string("7") + '\0';
  values.AppendBytes(digits_and_zeros);
  values.AppendBytes(std::string(300, '\0'));
  values.AppendBytes(std::string(1, '\0') + "1" + std::string(2, '\0') + "deadbeef0123" + '\0');
  values.AppendBytes("");
  values.AppendBytes("/a/1/b/2");
  std::string tmpl;
  std::vector<uint64_t> params;
  SplitTemplate(values.GetBytes(0), &tmpl, &params);
  EXPECT_EQ(params.size(), kMaxTemplateSlots);
  // 16 slots of two bytes, 16 escaped zeros after them, then 24 literal "7" + escaped zero.
  EXPECT_EQ(tmpl.size(), 16 * 2 + 16 * 2 + 24 * 3);
  SplitTemplate(values.GetBytes(1), &tmpl, &params);
  EXPECT_EQ(tmpl, std::string(600, '\0'));
  EXPECT_TRUE(params.empty());
  const std::vector<bool> some_whole = {true, true, false, false, true};
  for (const std::vector<bool>* whole :
       {static_cast<const std::vector<bool>*>(nullptr), &some_whole}) {
    TemplateSplit split;
    SplitTemplates(values, &split, whole);
    for (size_t i = 0; i < values.size(); i++) {
      SplitTemplate(values.GetBytes(i), &tmpl, &params);
      if (whole != nullptr && (*whole)[i]) {
        // Kept whole: the value with its zeros escaped.
        std::string escaped;
        for (char c : values.GetBytes(i).ToString()) {
          escaped.push_back(c);
          if (c == '\0') escaped.push_back(c);
        }
        tmpl = escaped;
      }
      EXPECT_EQ(split.templates.GetBytes(i).ToString(), tmpl) << i;
    }
  }
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kTemplate, values, &body).ok());
  ColumnVector decoded(PhysicalType::kBytes);
  ASSERT_TRUE(
      DecodeValues(Encoding::kTemplate, PhysicalType::kBytes, body, values.size(), &decoded).ok());
  EXPECT_TRUE(decoded.Equals(values));
}

// A chunk is split and encoded several times while a file is written, and template keeps each
// thread's last results (template.cc): every call must still answer for its own inputs, with
// rows kept whole or not, for equal values in another column and for values of the same size.
TEST(TemplateRoundTripTest, RepeatedSplitsAnswerForTheirOwnInputs) {
  auto column = [](const std::vector<std::string>& strings) {
    ColumnVector values(PhysicalType::kBytes);
    for (const std::string& s : strings) values.AppendBytes(s);
    return values;
  };
  auto expected_templates = [](const ColumnVector& values, const std::vector<bool>* whole) {
    std::vector<std::string> templates;
    for (size_t i = 0; i < values.size(); i++) {
      std::string tmpl;
      std::vector<uint64_t> params;
      SplitTemplate(values.GetBytes(i), &tmpl, &params);
      if (whole != nullptr && (*whole)[i]) tmpl = values.GetBytes(i).ToString();
      templates.push_back(tmpl);
    }
    return templates;
  };
  auto templates_of = [](const TemplateSplit& split) {
    std::vector<std::string> templates;
    for (size_t i = 0; i < split.templates.size(); i++) {
      templates.push_back(split.templates.GetBytes(i).ToString());
    }
    return templates;
  };
  const ColumnVector a = column({"/api/users/17", "/api/users/42", "/static/app.3f2a9c1b.js"});
  const ColumnVector b = column({"/api/items/17", "/api/users/43", "/static/app.3f2a9c1c.js"});
  const std::vector<bool> last_whole = {false, false, true};
  const std::vector<bool> first_whole = {true, false, false};
  const std::vector<bool> none_whole = {false, false, false};
  struct Call {
    const ColumnVector* values;
    const std::vector<bool>* whole;
  };
  std::vector<Call> calls = {{&a, nullptr},      {&a, &last_whole}, {&a, nullptr},
                             {&a, &first_whole}, {&a, &last_whole}, {&b, nullptr},
                             {&b, &none_whole},  {&a, &none_whole}, {&b, &last_whole}};
  // Chunks over the memo's limit (1 MiB) are split without it, between memoized calls.
  const ColumnVector large = column({std::string(size_t{2} << 20, 'x') + "/17", "/api/users/42"});
  calls.insert(calls.begin() + 3, {&large, nullptr});
  calls.push_back({&large, nullptr});
  calls.push_back({&a, nullptr});
  for (size_t c = 0; c < calls.size(); c++) {
    SCOPED_TRACE(c);
    TemplateSplit split;
    SplitTemplates(*calls[c].values, &split, calls[c].whole);
    EXPECT_EQ(templates_of(split), expected_templates(*calls[c].values, calls[c].whole));
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kTemplate, *calls[c].values, &body).ok());
    ColumnVector decoded(PhysicalType::kBytes);
    ASSERT_TRUE(DecodeValues(Encoding::kTemplate, PhysicalType::kBytes, body,
                             calls[c].values->size(), &decoded)
                    .ok());
    EXPECT_TRUE(decoded.Equals(*calls[c].values));
  }
}

// A split with rows kept whole is made from the plain split of the same values when the memo
// holds it (template.cc, SplitKeepingWhole): it must be what splitting every row anew gives,
// the kept rows' parameters skipped in every stream, with as many streams as the other rows
// need (rows with 0 to 4 parameters, kept whole at random, the widest ones among them).
TEST(TemplateRoundTripTest, SplitsKeepingRowsWholeMatchSplittingEachRow) {
  std::mt19937_64 rng(3);
  ColumnVector values(PhysicalType::kBytes);
  for (int i = 0; i < 200; i++) {
    std::string v = "/p";
    const int params = static_cast<int>(rng() % 5);
    for (int k = 0; k < params; k++) v += "/x" + std::to_string(rng() % 100000) + "/n";
    values.AppendBytes(v);
  }
  for (int round = 0; round < 3; round++) {
    SCOPED_TRACE(round);
    std::vector<bool> whole(values.size());
    for (size_t i = 0; i < values.size(); i++) {
      // Round 2 keeps every row with 3 or 4 parameters whole: fewer streams than the plain split.
      whole[i] = round == 2 ? values.GetBytes(i).size() > 20 : rng() % 3 == 0;
    }
    TemplateSplit plain;
    SplitTemplates(values, &plain);  // the plain split first, as chunk.cc does
    TemplateSplit split;
    SplitTemplates(values, &split, &whole);
    ASSERT_EQ(split.templates.size(), values.size());
    std::vector<size_t> next(split.streams.size(), 0);
    size_t parameters = 0;
    size_t widest = 0;
    for (size_t i = 0; i < values.size(); i++) {
      std::string tmpl;
      std::vector<uint64_t> params;
      SplitTemplate(values.GetBytes(i), &tmpl, &params);
      if (whole[i]) {
        EXPECT_EQ(split.templates.GetBytes(i), values.GetBytes(i)) << i;
        continue;
      }
      EXPECT_EQ(split.templates.GetBytes(i), Slice(tmpl)) << i;
      ASSERT_LE(params.size(), split.streams.size()) << i;
      for (size_t k = 0; k < params.size(); k++) {
        ASSERT_LT(next[k], split.streams[k].size());
        EXPECT_EQ(static_cast<uint64_t>(split.streams[k].Get<int64_t>(next[k]++)), params[k]);
      }
      parameters += params.size();
      widest = std::max(widest, params.size());
    }
    EXPECT_EQ(split.parameters, parameters);
    EXPECT_EQ(split.streams.size(), widest);
    for (size_t k = 0; k < split.streams.size(); k++) EXPECT_EQ(next[k], split.streams[k].size());
  }
}

// Rows equal to an earlier row of the chunk take its template and parameters (template.cc,
// SplitAll): values repeated out of order, with 0 to 3 parameters, some rows kept whole (an
// equal row later is still split), each row's template and parameters its own.
TEST(TemplateRoundTripTest, RepeatedValuesGetTheSplitOfTheirFirstRow) {
  std::mt19937_64 rng(9);
  std::vector<std::string> distinct;
  for (int k = 0; k < 30; k++) {
    std::string v = "/r" + std::string(1, static_cast<char>('a' + k % 26));
    for (int p = 0; p < k % 4; p++) v += "/" + std::to_string(1000 * k + p);
    distinct.push_back(v);
  }
  ColumnVector values(PhysicalType::kBytes);
  std::vector<bool> whole;
  for (int i = 0; i < 300; i++) {
    values.AppendBytes(distinct[rng() % distinct.size()]);
    whole.push_back(rng() % 5 == 0);
  }
  for (const std::vector<bool>* kept : {static_cast<const std::vector<bool>*>(nullptr),
                                        static_cast<const std::vector<bool>*>(&whole)}) {
    SCOPED_TRACE(kept == nullptr ? "no rows kept whole" : "rows kept whole");
    TemplateSplit split;
    SplitTemplates(values, &split, kept);
    std::vector<size_t> next(split.streams.size(), 0);
    for (size_t i = 0; i < values.size(); i++) {
      std::string tmpl;
      std::vector<uint64_t> params;
      SplitTemplate(values.GetBytes(i), &tmpl, &params);
      if (kept != nullptr && (*kept)[i]) {
        EXPECT_EQ(split.templates.GetBytes(i), values.GetBytes(i)) << i;
        continue;
      }
      EXPECT_EQ(split.templates.GetBytes(i), Slice(tmpl)) << i;
      ASSERT_LE(params.size(), split.streams.size()) << i;
      for (size_t k = 0; k < params.size(); k++) {
        ASSERT_LT(next[k], split.streams[k].size());
        EXPECT_EQ(static_cast<uint64_t>(split.streams[k].Get<int64_t>(next[k]++)), params[k]);
      }
    }
    for (size_t k = 0; k < split.streams.size(); k++) EXPECT_EQ(next[k], split.streams[k].size());
  }
}

// Values seen in earlier chunks take their split from the thread's cache of splits (template.cc,
// SplitCache): more distinct values than its slots (so entries are replaced and spared), values
// that differ only in a digit or only past the cache's length limit, hex and zero-padded
// parameters; every row of every chunk gets its own template and parameters.
TEST(TemplateRoundTripTest, ValuesOfEarlierChunksGetTheirOwnSplit) {
  std::mt19937_64 rng(10);
  std::vector<std::string> distinct;
  for (int k = 0; k < 20000; k++) {
    std::string v = "/s" + std::to_string(k % 97);
    for (int p = 0; p < k % 6; p++) v += "/" + std::to_string(1000 * k + p);
    if (k % 7 == 0) v += "/app." + std::string("3f2a9c1b").substr(0, 8 - k % 3) + "0" + ".js";
    if (k % 11 == 0) v += "/u00" + std::to_string(k);
    if (k % 13 == 0) v += std::string(250 + k % 20, 'x') + std::to_string(k % 3);
    distinct.push_back(v);
  }
  for (int chunk = 0; chunk < 200; chunk++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      // Skewed: low indexes recur in most chunks, high ones seldom.
      values.AppendBytes(distinct[rng() % (1 + rng() % distinct.size())]);
    }
    TemplateSplit split;
    SplitTemplates(values, &split);
    std::vector<size_t> next(split.streams.size(), 0);
    for (size_t i = 0; i < values.size(); i++) {
      std::string tmpl;
      std::vector<uint64_t> params;
      SplitTemplate(values.GetBytes(i), &tmpl, &params);
      ASSERT_EQ(split.templates.GetBytes(i), Slice(tmpl)) << chunk << " " << i;
      ASSERT_LE(params.size(), split.streams.size()) << i;
      for (size_t k = 0; k < params.size(); k++) {
        ASSERT_LT(next[k], split.streams[k].size());
        ASSERT_EQ(static_cast<uint64_t>(split.streams[k].Get<int64_t>(next[k]++)), params[k])
            << chunk << " " << i;
      }
    }
    for (size_t k = 0; k < split.streams.size(); k++) EXPECT_EQ(next[k], split.streams[k].size());
  }
}

// Chunks without a digit have no parameters (template.cc: SplitAll takes the values as their
// templates without looking at them one by one): still every template is its value escaped,
// a 0x00 byte included, with rows kept whole or not; a single digit anywhere splits the chunk.
TEST(TemplateRoundTripTest, ChunksWithoutDigitsAreTheirOwnTemplates) {
  const std::vector<std::string> texts = {
      "GET", "application/json", "us-east", std::string("a\0b", 3), "", "HTTP/xx"};
  for (const std::string& extra : {std::string(), std::string("x/7"), std::string("\0", 1)}) {
    SCOPED_TRACE("extra value: " + extra);
    ColumnVector values(PhysicalType::kBytes);
    std::vector<bool> whole;
    for (int i = 0; i < 100; i++) {
      values.AppendBytes(texts[i % texts.size()]);
      whole.push_back(i % 3 == 0);
    }
    if (!extra.empty()) values.AppendBytes(extra);
    whole.push_back(false);
    for (const std::vector<bool>* kept : {static_cast<const std::vector<bool>*>(nullptr),
                                          static_cast<const std::vector<bool>*>(&whole)}) {
      TemplateSplit split;
      SplitTemplates(values, &split, kept);
      ASSERT_EQ(split.templates.size(), values.size());
      size_t parameters = 0;
      for (size_t i = 0; i < values.size(); i++) {
        std::string tmpl;
        std::vector<uint64_t> params;
        SplitTemplate(values.GetBytes(i), &tmpl, &params);
        EXPECT_EQ(split.templates.GetBytes(i), Slice(tmpl)) << i;
        parameters += params.size();
      }
      EXPECT_EQ(split.parameters, parameters);
      EXPECT_EQ(split.parameters, extra == "x/7" ? 1u : 0u);
    }
  }
}

// The split memo holds several entries (least recently used replaced): inputs that differ only
// in their parameters, or only after their first value, interleaved so that entries are hit,
// replaced and hit again, each get their own templates and parameters.
TEST(TemplateRoundTripTest, InterleavedSplitsAnswerForTheirOwnInputs) {
  std::vector<ColumnVector> inputs;
  for (int k = 0; k < 7; k++) {
    ColumnVector values(PhysicalType::kBytes);
    values.AppendBytes("/api/users/17");  // the same first value in every input
    for (int i = 0; i < 40; i++) {
      values.AppendBytes("/api/users/" + std::to_string(1000 * k + i) + "/orders/" +
                         std::to_string(i % 3));
    }
    inputs.push_back(std::move(values));
  }
  const int order[] = {0, 1, 2, 3, 0, 1, 4, 5, 0, 2, 6, 1, 3, 3, 4, 0, 5, 6, 2, 1, 0};
  for (size_t c = 0; c < sizeof(order) / sizeof(order[0]); c++) {
    SCOPED_TRACE(c);
    const ColumnVector& values = inputs[order[c]];
    TemplateSplit split;
    SplitTemplates(values, &split);
    ASSERT_EQ(split.templates.size(), values.size());
    std::vector<size_t> next(split.streams.size(), 0);
    for (size_t i = 0; i < values.size(); i++) {
      std::string tmpl;
      std::vector<uint64_t> params;
      SplitTemplate(values.GetBytes(i), &tmpl, &params);
      EXPECT_EQ(split.templates.GetBytes(i), Slice(tmpl));
      ASSERT_LE(params.size(), split.streams.size());
      for (size_t k = 0; k < params.size(); k++) {
        ASSERT_LT(next[k], split.streams[k].size());
        EXPECT_EQ(static_cast<uint64_t>(split.streams[k].Get<int64_t>(next[k]++)), params[k]);
      }
    }
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kTemplate, values, &body).ok());
    ColumnVector decoded(PhysicalType::kBytes);
    ASSERT_TRUE(
        DecodeValues(Encoding::kTemplate, PhysicalType::kBytes, body, values.size(), &decoded)
            .ok());
    EXPECT_TRUE(decoded.Equals(values));
  }
}

}  // namespace
}  // namespace columnar
