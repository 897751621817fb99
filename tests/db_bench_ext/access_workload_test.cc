#include "db_bench_ext/access_workload.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "db_bench_ext/access_filters.h"

namespace columnar {
namespace bench {
namespace {

constexpr int64_t kAccessEnd = 19676 * kSecondsPerDay;

AccessWorkloadOptions AccessSmokeOptions(uint64_t seed = 1) {
  AccessWorkloadOptions options;
  options.seed = seed;
  options.instances = 10;
  options.end_time_s = kAccessEnd;
  options.duration_s = kSecondsPerDay;
  return options;
}

uint64_t Fnv1a(uint64_t hash, const std::string& s) {
  for (unsigned char c : s) hash = (hash ^ c) * 0x100000001b3ULL;
  return (hash ^ 0xff) * 0x100000001b3ULL;  // field separator
}

uint64_t HashRow(uint64_t hash, const AccessRow& r) {
  for (const std::string* s : {&r.orgid, &r.service, &r.instance, &r.method, &r.path, &r.user_agent,
                               &r.client_ip, &r.country, &r.referrer, &r.request_id, &r.trace_id,
                               &r.host, &r.protocol, &r.content_type}) {
    hash = Fnv1a(hash, *s);
  }
  hash = Fnv1a(hash, r.user_id.value_or("<null>"));
  hash = Fnv1a(hash, r.error_message.value_or("<null>"));
  for (int64_t v : {int64_t{r.day}, r.time_ms, int64_t{r.status}, int64_t{r.latency_ms},
                    r.bytes_sent, r.write_time_us, r.expiry_s}) {
    hash = Fnv1a(hash, std::to_string(v));
  }
  return hash;
}

uint64_t HashFirstRows(const AccessWorkloadOptions& options, int batches) {
  const AccessWorkload workload(options);
  AccessGenerator generator(workload);
  AccessBatch batch;
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (int i = 0; i < batches && generator.NextBatch(&batch); ++i) {
    for (const AccessRow& row : batch.rows) hash = HashRow(hash, row);
  }
  return hash;
}

TEST(AccessWorkloadTest, SameSeedSameRows) {
  EXPECT_EQ(HashFirstRows(AccessSmokeOptions(1), 500), HashFirstRows(AccessSmokeOptions(1), 500));
  EXPECT_NE(HashFirstRows(AccessSmokeOptions(1), 500), HashFirstRows(AccessSmokeOptions(2), 500));
}

TEST(AccessWorkloadTest, InstancesArePodNamesOverTenOrgsAndServices) {
  AccessWorkloadOptions options = AccessSmokeOptions();
  options.instances = 1000;
  const AccessWorkload workload(options);
  std::set<std::string> names;
  std::set<std::pair<int, int>> pairs;
  for (const AccessInstance& instance : workload.instances()) {
    names.insert(instance.name);
    pairs.insert({instance.org, instance.service});
    ASSERT_EQ(instance.name.rfind(instance.service_name + "-", 0), 0u) << instance.name;
    // <service>-<10 chars>-<5 chars>
    EXPECT_EQ(instance.name.size(), instance.service_name.size() + 17) << instance.name;
  }
  EXPECT_EQ(names.size(), 1000u);
  EXPECT_EQ(pairs.size(), 100u);
  // The first ten instances already span every org and every service.
  std::set<int> orgs, services;
  for (int i = 0; i < 10; ++i) {
    orgs.insert(workload.instances()[i].org);
    services.insert(workload.instances()[i].service);
  }
  EXPECT_EQ(orgs.size(), 10u);
  EXPECT_EQ(services.size(), 10u);
  EXPECT_EQ(workload.instances()[0].orgid, "org-0001");
}

TEST(AccessWorkloadTest, BatchesAreTwelveRowsOfOneDailyPartition) {
  AccessWorkloadOptions options = AccessSmokeOptions();
  options.instances = 3;
  options.end_time_s = kAccessEnd + 3600;  // 1 day ending one hour after midnight: 2 UTC days
  const AccessWorkload workload(options);
  EXPECT_EQ(workload.total_rows(), 3u * 17280);
  EXPECT_EQ(workload.batch_count(), 3u * 1440);
  EXPECT_EQ(workload.partition_count(), 6u);
  AccessGenerator generator(workload);
  AccessBatch batch;
  uint64_t batches = 0, rows = 0;
  std::set<std::pair<uint64_t, int32_t>> partitions;
  while (generator.NextBatch(&batch)) {
    EXPECT_EQ(batch.instance_index, batches % 3);
    ASSERT_EQ(batch.rows.size(), 12u);
    const int64_t block_start_ms = (kAccessEnd + 3600 - kSecondsPerDay + (batches / 3) * 60) * 1000;
    for (size_t i = 0; i < 12; ++i) {
      const AccessRow& row = batch.rows[i];
      EXPECT_EQ(row.time_ms, block_start_ms + static_cast<int64_t>(i) * 5000);
      EXPECT_EQ(row.day, batch.day);
      EXPECT_EQ(row.instance, workload.instances()[batch.instance_index].name);
    }
    partitions.insert({batch.instance_index, batch.day});
    ++batches;
    rows += 12;
  }
  EXPECT_EQ(batches, workload.batch_count());
  EXPECT_EQ(rows, workload.total_rows());
  EXPECT_EQ(partitions.size(), workload.partition_count());
}

// Generates the smoke preset (10 instances x 1 day = 172,800 rows) once for the distribution
// checks.
class AccessDistributionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    workload_ = new AccessWorkload(AccessSmokeOptions());
    rows_ = new std::vector<AccessRow>();
    AccessGenerator generator(*workload_);
    AccessBatch batch;
    while (generator.NextBatch(&batch)) {
      rows_->insert(rows_->end(), batch.rows.begin(), batch.rows.end());
    }
  }
  static void TearDownTestSuite() {
    delete rows_;
    delete workload_;
  }

  template <typename Predicate>
  static double Percent(Predicate predicate) {
    return 100.0 * std::count_if(rows_->begin(), rows_->end(), predicate) / rows_->size();
  }

  static AccessWorkload* workload_;
  static std::vector<AccessRow>* rows_;
};
AccessWorkload* AccessDistributionTest::workload_ = nullptr;
std::vector<AccessRow>* AccessDistributionTest::rows_ = nullptr;

TEST_F(AccessDistributionTest, MethodSharesAndNonApiPathsAreGet) {
  ASSERT_EQ(rows_->size(), 172800u);
  const double expected[] = {70, 20, 5, 3, 2};
  for (size_t m = 0; m < AccessMethods().size(); ++m) {
    const std::string& method = AccessMethods()[m];
    EXPECT_NEAR(Percent([&](const AccessRow& r) { return r.method == method; }), expected[m], 1)
        << method;
  }
  EXPECT_EQ(Percent([](const AccessRow& r) {
              return r.path.rfind("/api/", 0) != 0 && r.method != "GET";
            }),
            0);
  EXPECT_GT(workload_->vocabulary().non_api_share(), 0.2);
}

TEST_F(AccessDistributionTest, RoutesMixApiIdsSearchesAssetsAndHealthChecks) {
  EXPECT_GT(Percent([](const AccessRow& r) { return r.path == "/healthz"; }), 5);
  EXPECT_GT(Percent([](const AccessRow& r) { return r.path.find("?q=") != std::string::npos; }), 1);
  EXPECT_GT(Percent([](const AccessRow& r) { return r.path.rfind("/static/", 0) == 0; }), 5);
  // Paths with ids vary per request; without the id there are at most 200 routes.
  std::set<std::string> routes;
  for (const AccessRow& r : *rows_) {
    std::string route;
    for (char c : r.path.substr(0, r.path.find('?'))) {
      if (!std::isdigit(static_cast<unsigned char>(c)) || route.empty() || route.back() != '/') {
        route.push_back(c);
      }
    }
    routes.insert(route);
  }
  EXPECT_LE(routes.size(), 200u);
  EXPECT_GE(routes.size(), 150u);
}

TEST_F(AccessDistributionTest, StatusLatencyAndErrors) {
  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.status == 200; }), 87.8, 0.5);
  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.status >= 500; }), 1.3, 0.15);
  std::set<int32_t> codes;
  for (const AccessRow& r : *rows_) codes.insert(r.status);
  EXPECT_EQ(codes.size(), 14u);

  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.latency_ms > 1000; }), 1.1, 0.3);
  std::vector<int32_t> ok, server_error;
  for (const AccessRow& r : *rows_) (r.status >= 500 ? server_error : ok).push_back(r.latency_ms);
  auto median = [](std::vector<int32_t> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  EXPECT_NEAR(median(ok), 40, 2);
  EXPECT_NEAR(median(server_error), 120, 20);

  for (const AccessRow& r : *rows_) {
    ASSERT_EQ(r.error_message.has_value(), r.status >= 400) << r.status;
    ASSERT_EQ(r.bytes_sent == 0, r.status == 204 || r.status == 304) << r.status << " " << r.path;
    if (r.status >= 400) {
      ASSERT_TRUE(r.content_type == "application/problem+json" ||
                  r.content_type == "text/html; charset=utf-8")
          << r.content_type;
    }
  }
  std::set<std::string> messages, content_types;
  for (const AccessRow& r : *rows_) {
    if (r.error_message) messages.insert(*r.error_message);
    content_types.insert(r.content_type);
  }
  EXPECT_LE(messages.size(), 50u);
  EXPECT_GE(messages.size(), 40u);
  EXPECT_EQ(content_types.size(), 15u);
}

TEST_F(AccessDistributionTest, ClientsCountriesAndReferrers) {
  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.country == "US"; }), 25, 1);
  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.country == "JP"; }), 3.5, 0.5);
  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.referrer.empty(); }), 40, 1);
  std::unordered_map<std::string, std::string> country_of_ip;
  std::set<std::string> countries, agents, referrers;
  for (const AccessRow& r : *rows_) {
    auto [it, inserted] = country_of_ip.emplace(r.client_ip, r.country);
    ASSERT_EQ(it->second, r.country) << "country is not a function of " << r.client_ip;
    countries.insert(r.country);
    agents.insert(r.user_agent);
    if (!r.referrer.empty()) referrers.insert(r.referrer);
  }
  EXPECT_LE(country_of_ip.size(), 50000u);
  EXPECT_GT(country_of_ip.size(), 10000u);
  EXPECT_EQ(countries.size(), 60u);
  EXPECT_LE(agents.size(), 300u);
  EXPECT_GT(agents.size(), 200u);
  EXPECT_LE(referrers.size(), 500u);
  EXPECT_GT(referrers.size(), 400u);
}

TEST_F(AccessDistributionTest, IdentifiersUsersHostsAndProtocols) {
  std::unordered_set<std::string> request_ids;
  for (const AccessRow& r : *rows_) {
    ASSERT_EQ(r.request_id.size(), 32u);
    ASSERT_EQ(r.request_id.find_first_not_of("0123456789abcdef"), std::string::npos);
    request_ids.insert(r.request_id);
  }
  EXPECT_EQ(request_ids.size(), rows_->size());

  // Trace ids: runs of 1-5 consecutive requests of one instance (rows are in load order, so
  // follow each instance separately). The last run of an instance may be cut short.
  std::map<std::string, std::vector<std::string>> traces_by_instance;
  for (const AccessRow& r : *rows_) traces_by_instance[r.instance].push_back(r.trace_id);
  std::map<size_t, int> run_lengths;
  std::unordered_set<std::string> trace_ids;
  for (const auto& [instance, traces] : traces_by_instance) {
    size_t run = 1;
    for (size_t i = 1; i <= traces.size(); ++i) {
      if (i < traces.size() && traces[i] == traces[i - 1]) {
        ++run;
        continue;
      }
      if (i < traces.size()) ++run_lengths[run];
      ASSERT_TRUE(trace_ids.insert(traces[i - 1]).second) << "trace id reused: " << traces[i - 1];
      run = 1;
    }
  }
  ASSERT_EQ(run_lengths.size(), 5u);
  EXPECT_EQ(run_lengths.begin()->first, 1u);
  EXPECT_EQ(run_lengths.rbegin()->first, 5u);
  for (const auto& [length, count] : run_lengths) EXPECT_GT(count, 5000) << length;

  EXPECT_NEAR(Percent([](const AccessRow& r) { return !r.user_id.has_value(); }), 50, 1);
  std::map<std::string, std::set<std::string>> users_by_org, hosts_by_service;
  for (const AccessRow& r : *rows_) {
    if (r.user_id) users_by_org[r.orgid].insert(*r.user_id);
    hosts_by_service[r.service].insert(r.host);
  }
  EXPECT_EQ(users_by_org.size(), 10u);
  for (const auto& [org, users] : users_by_org) {
    EXPECT_GT(users.size(), 3000u) << org;  // 8,640 draws from a flat-ish Zipf(0.6)
    EXPECT_LE(users.size(), 100000u);
  }
  for (const auto& [service, hosts] : hosts_by_service) EXPECT_EQ(hosts.size(), 2u) << service;

  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.protocol == "HTTP/2"; }), 55, 1);
  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.protocol == "HTTP/1.1"; }), 35, 1);
  EXPECT_NEAR(Percent([](const AccessRow& r) { return r.protocol == "HTTP/3"; }), 10, 1);
}

TEST_F(AccessDistributionTest, WriteTimesAndExpiry) {
  for (const AccessRow& r : *rows_) {
    const int64_t jitter = r.write_time_us - r.time_ms * 1000;
    ASSERT_GE(jitter, 0);
    ASSERT_LE(jitter, 100'000);
    ASSERT_EQ(r.expiry_s, r.time_ms / 1000 + 30 * kSecondsPerDay);
    ASSERT_EQ(r.day, UtcDayOf(r.time_ms / 1000));
  }
}

TEST_F(AccessDistributionTest, FilterSelectivitiesMatchTheSource) {
  // Source 000, "Compression and Filter Selectivity" (its POST share was 17.4%, ours is the
  // specified 20%; the others follow from independence).
  const std::map<std::string, std::pair<double, double>> expected_percent = {
      {"5xx", {1.3, 0.15}},        {"post", {20, 1}},
      {"jp", {3.5, 0.5}},          {"slow", {1.1, 0.3}},
      {"jp_post", {0.7, 0.15}},    {"5xx_post", {0.26, 0.06}},
      {"5xx_slow", {0.084, 0.03}}, {"http11_5xx_slow", {0.03, 0.015}}};
  for (const AccessFilter& filter : AccessFilters()) {
    if (filter.user_id_equals_parameter) continue;
    const auto& [percent, tolerance] = expected_percent.at(filter.name);
    EXPECT_NEAR(Percent([&](const AccessRow& r) { return filter.Matches(r, ""); }), percent,
                tolerance)
        << filter.name;
  }
}

TEST_F(AccessDistributionTest, UserParameterHasTheDataSelectivity) {
  // The source measured ~0.004% of rows matching a random user of the instance's org.
  Random rng(17);
  std::map<std::string, std::vector<const AccessRow*>> rows_by_instance;
  for (const AccessRow& r : *rows_) rows_by_instance[r.instance].push_back(&r);
  AccessFilter user_filter;
  user_filter.user_id_equals_parameter = true;
  double matches = 0, candidates = 0;
  for (int i = 0; i < 300; ++i) {
    const uint64_t instance = workload_->RandomInstance(&rng);
    const std::string user = workload_->RandomUserId(&rng, instance);
    ASSERT_EQ(user.substr(0, 3), "u" + workload_->instances()[instance].orgid.substr(6, 2));
    for (const AccessRow* r : rows_by_instance[workload_->instances()[instance].name]) {
      matches += user_filter.Matches(*r, user);
      ++candidates;
    }
  }
  EXPECT_NEAR(100 * matches / candidates, 0.004, 0.003);
}

TEST(AccessFilterTest, WidthsCqlAndMatching) {
  const std::vector<AccessFilter>& filters = AccessFilters();
  ASSERT_EQ(filters.size(), 9u);
  std::map<std::string, const AccessFilter*> by_name;
  for (const AccessFilter& f : filters) by_name[f.name] = &f;
  EXPECT_EQ(by_name.at("5xx")->MinWidth(), 4);
  EXPECT_EQ(by_name.at("5xx_post")->MinWidth(), 4);
  EXPECT_EQ(by_name.at("jp")->MinWidth(), 8);
  EXPECT_EQ(by_name.at("5xx_slow")->MinWidth(), 8);
  EXPECT_EQ(by_name.at("user")->MinWidth(), 16);
  EXPECT_EQ(by_name.at("http11_5xx_slow")->MinWidth(), 16);
  EXPECT_EQ(by_name.at("http11_5xx_slow")->ToCql(),
            "protocol = 'HTTP/1.1' AND status >= 500 AND latency_ms > 1000");
  EXPECT_EQ(by_name.at("jp_post")->ToCql(), "country = 'JP' AND method = 'POST'");

  AccessRow row;
  row.status = 503;
  row.latency_ms = 1000;
  row.protocol = "HTTP/1.1";
  EXPECT_FALSE(by_name.at("5xx_slow")->Matches(row, ""));  // latency_ms > 1000 is strict
  row.latency_ms = 1001;
  EXPECT_TRUE(by_name.at("5xx_slow")->Matches(row, ""));
  EXPECT_TRUE(by_name.at("http11_5xx_slow")->Matches(row, ""));
  EXPECT_FALSE(by_name.at("user")->Matches(row, "u0100001"));  // null user_id never matches
  row.user_id = "u0100001";
  EXPECT_TRUE(by_name.at("user")->Matches(row, "u0100001"));
}

}  // namespace
}  // namespace bench
}  // namespace columnar
