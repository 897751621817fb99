// The value domains of the access-log workload (source 000, "Generated Data"): routes, user
// agents, client IPs with their countries, referrers, hosts, content types, error messages,
// users. Built once from the seed; immutable afterwards and safe to share between threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db_bench_ext/random_distributions.h"

namespace columnar {
namespace bench {

constexpr int kAccessOrgs = 10;
constexpr int kAccessServices = 10;
constexpr int kAccessRoutes = 200;
constexpr int kAccessUserAgents = 300;
constexpr int kAccessClientIps = 50'000;
constexpr int kAccessCountries = 60;
constexpr int kAccessReferrers = 500;
constexpr int kAccessErrorMessages = 50;
constexpr int kAccessUsersPerOrg = 100'000;
constexpr int kAccessContentTypes = 15;

enum class RouteKind { kApi, kStatic, kHealth };
// How a route's path varies per request.
enum class RouteParameter { kNone, kNumericId, kSearchQuery };

struct Route {
  RouteKind kind = RouteKind::kApi;
  RouteParameter parameter = RouteParameter::kNone;
  // Path = prefix [+ numeric id + suffix | + "?q=<term>&page=<n>"].
  std::string prefix;
  std::string suffix;
  int content_type = 0;  // index into AccessVocabulary::content_types()
  // Response size of successful requests: log-normal with this median and sigma.
  double bytes_median = 0;
  double bytes_sigma = 0;
};

class AccessVocabulary {
 public:
  explicit AccessVocabulary(uint64_t seed);

  // Routes in popularity order (rank 0 most popular; sampled Zipf s=1.1).
  const std::vector<Route>& routes() const { return routes_; }
  // Share of requests that go to non-API routes (static assets, health checks).
  double non_api_share() const { return non_api_share_; }
  void AppendPath(const Route& route, Random* rng, std::string* out) const;

  const std::vector<std::string>& user_agents() const { return user_agents_; }
  const std::vector<std::string>& client_ips() const { return client_ips_; }
  // Country index of each client IP (a function of the IP's first octet).
  const std::vector<int>& client_ip_country() const { return client_ip_country_; }
  const std::vector<std::string>& countries() const { return countries_; }
  const std::vector<std::string>& referrers() const { return referrers_; }
  const std::vector<std::string>& error_messages() const { return error_messages_; }
  const std::vector<std::string>& content_types() const { return content_types_; }
  int problem_json_content_type() const { return problem_json_content_type_; }
  int html_content_type() const { return html_content_type_; }
  const std::vector<std::string>& org_names() const { return org_names_; }
  const std::vector<std::string>& service_names() const { return service_names_; }
  // The 2 host names of a service.
  const std::vector<std::string>& HostsOf(int service) const { return hosts_[service]; }
  // User `rank` of an org (rank 0 most popular); distinct ranks give distinct ids.
  std::string UserId(int org, uint64_t rank) const;

  const ZipfDistribution& route_popularity() const { return route_popularity_; }
  const ZipfDistribution& user_agent_popularity() const { return user_agent_popularity_; }
  const ZipfDistribution& client_ip_popularity() const { return client_ip_popularity_; }
  const ZipfDistribution& referrer_popularity() const { return referrer_popularity_; }
  const ZipfDistribution& error_message_popularity() const { return error_message_popularity_; }
  const ZipfDistribution& user_popularity() const { return user_popularity_; }

 private:
  void BuildRoutes(Random* rng);
  void BuildUserAgents(Random* rng);
  void BuildClientIps(Random* rng);
  void BuildReferrers(Random* rng);
  void BuildErrorMessages();

  std::vector<Route> routes_;
  double non_api_share_ = 0;
  std::vector<std::string> search_terms_;
  std::vector<std::string> user_agents_;
  std::vector<std::string> client_ips_;
  std::vector<int> client_ip_country_;
  std::vector<std::string> countries_;
  std::vector<std::string> referrers_;
  std::vector<std::string> error_messages_;
  std::vector<std::string> content_types_;
  int problem_json_content_type_ = 0;
  int html_content_type_ = 0;
  std::vector<std::string> org_names_;
  std::vector<std::string> service_names_;
  std::vector<std::vector<std::string>> hosts_;
  uint64_t user_offset_ = 0;

  ZipfDistribution route_popularity_;
  ZipfDistribution user_agent_popularity_;
  ZipfDistribution client_ip_popularity_;
  ZipfDistribution referrer_popularity_;
  ZipfDistribution error_message_popularity_;
  ZipfDistribution user_popularity_;
};

}  // namespace bench
}  // namespace columnar
