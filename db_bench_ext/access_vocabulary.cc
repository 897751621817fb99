#include "db_bench_ext/access_vocabulary.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <iterator>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace columnar {
namespace bench {
namespace {

// Salts keep the derived streams of one seed independent of each other.
constexpr uint64_t kRouteSalt = 0x7001;
constexpr uint64_t kUserAgentSalt = 0x7002;
constexpr uint64_t kClientIpSalt = 0x7003;
constexpr uint64_t kReferrerSalt = 0x7004;
constexpr uint64_t kUserSalt = 0x7005;

constexpr double kRouteZipf = 1.1;
constexpr double kUserAgentZipf = 1.2;
constexpr double kClientIpZipf = 0.9;
constexpr double kReferrerZipf = 1.0;
constexpr double kErrorMessageZipf = 1.0;
constexpr double kUserZipf = 0.6;

// Multiplier of the rank -> user number permutation: coprime with 100,000 so it is a bijection.
constexpr uint64_t kUserPermutation = 48271;

enum ContentType {
  kJson,
  kProblemJson,
  kHtml,
  kCss,
  kJavascript,
  kPng,
  kJpeg,
  kSvg,
  kWebp,
  kWoff2,
  kIcon,
  kPlainText,
  kXml,
  kManifest,
  kCsv,
  kContentTypeCount
};
static_assert(kContentTypeCount == kAccessContentTypes, "content type table out of sync");

const std::vector<std::string>& ContentTypeNames() {
  static const std::vector<std::string> kNames = {"application/json",
                                                  "application/problem+json",
                                                  "text/html; charset=utf-8",
                                                  "text/css",
                                                  "application/javascript",
                                                  "image/png",
                                                  "image/jpeg",
                                                  "image/svg+xml",
                                                  "image/webp",
                                                  "font/woff2",
                                                  "image/x-icon",
                                                  "text/plain; charset=utf-8",
                                                  "application/xml",
                                                  "application/manifest+json",
                                                  "text/csv"};
  return kNames;
}

const char* const kResources[] = {"orders",    "products",  "users",         "carts",
                                  "payments",  "invoices",  "shipments",     "reviews",
                                  "sessions",  "inventory", "accounts",      "notifications",
                                  "coupons",   "addresses", "subscriptions", "categories",
                                  "wishlists", "returns",   "messages",      "events"};
constexpr int kResourceCount = sizeof(kResources) / sizeof(kResources[0]);
const char* const kSubResources[] = {"items", "history", "status", "events", "comments", "export"};
constexpr int kSubResourceCount = sizeof(kSubResources) / sizeof(kSubResources[0]);
constexpr int kSubResourceRoutes = 50;

const char* const kSearchTerms[] = {
    "shoes",   "laptop", "headphones", "jacket", "coffee",  "monitor", "keyboard", "backpack",
    "watch",   "camera", "desk",       "chair",  "lamp",    "phone",   "charger",  "cable",
    "sofa",    "tent",   "bike",       "helmet", "socks",   "wallet",  "mug",      "kettle",
    "blender", "router", "speaker",    "tablet", "printer", "mouse",   "jeans",    "dress",
    "boots",   "scarf",  "gloves",     "pillow", "blanket", "towel",   "soap",     "candle"};

const char* const kAssetNames[] = {
    "app",    "vendor",  "runtime", "main",     "polyfills", "checkout", "search",  "account",
    "cart",   "product", "landing", "settings", "analytics", "chat",     "reviews", "gallery",
    "header", "footer",  "hero",    "logo",     "banner",    "promo",    "avatar",  "icons",
    "sprite", "theme",   "print",   "sale",     "support",   "help",     "about",   "team"};
constexpr int kAssetNameCount = sizeof(kAssetNames) / sizeof(kAssetNames[0]);

struct CountryWeight {
  const char* code;
  double percent;
};
// 60 codes summing to 100%: US 25%, JP 3.5% as the source's table states.
const CountryWeight kCountryWeights[] = {
    {"US", 25},  {"DE", 6.5}, {"GB", 6},   {"IN", 5.5}, {"FR", 4},   {"BR", 4},   {"CA", 3.5},
    {"JP", 3.5}, {"CN", 3.4}, {"NL", 2.5}, {"AU", 2.2}, {"ES", 2},   {"IT", 2},   {"KR", 1.8},
    {"RU", 1.6}, {"SE", 1.4}, {"PL", 1.4}, {"MX", 1.4}, {"SG", 1.3}, {"ID", 1.2}, {"TR", 1.1},
    {"CH", 1.0}, {"IE", 1.0}, {"BE", 0.9}, {"AT", 0.8}, {"DK", 0.8}, {"NO", 0.8}, {"FI", 0.7},
    {"PT", 0.7}, {"CZ", 0.6}, {"IL", 0.6}, {"ZA", 0.6}, {"AR", 0.6}, {"CO", 0.5}, {"CL", 0.5},
    {"VN", 0.5}, {"TH", 0.5}, {"MY", 0.5}, {"PH", 0.5}, {"TW", 0.5}, {"HK", 0.5}, {"NZ", 0.5},
    {"UA", 0.4}, {"RO", 0.4}, {"HU", 0.4}, {"GR", 0.4}, {"EG", 0.3}, {"NG", 0.3}, {"KE", 0.3},
    {"PK", 0.3}, {"BD", 0.3}, {"SA", 0.3}, {"AE", 0.3}, {"PE", 0.3}, {"SK", 0.2}, {"BG", 0.2},
    {"HR", 0.2}, {"LT", 0.2}, {"EE", 0.2}, {"IS", 0.1}};
static_assert(sizeof(kCountryWeights) / sizeof(kCountryWeights[0]) == kAccessCountries,
              "country table out of sync");
constexpr int kFirstOctetsPerCountry = 3;

const char* const kServiceNames[] = {"checkout",      "payments",       "search",   "catalog",
                                     "auth",          "cart",           "shipping", "inventory",
                                     "notifications", "recommendations"};
static_assert(sizeof(kServiceNames) / sizeof(kServiceNames[0]) == kAccessServices,
              "service table out of sync");

std::string Format(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return buffer;
}

template <typename T, size_t N>
const T& Pick(const T (&items)[N], Random* rng) {
  return items[rng->Uniform(N)];
}

int Between(Random* rng, int lo, int hi) { return static_cast<int>(rng->UniformInRange(lo, hi)); }

Route MakeRoute(RouteKind kind, RouteParameter parameter, std::string prefix, std::string suffix,
                int content_type, double bytes_median, double bytes_sigma) {
  Route route;
  route.kind = kind;
  route.parameter = parameter;
  route.prefix = std::move(prefix);
  route.suffix = std::move(suffix);
  route.content_type = content_type;
  route.bytes_median = bytes_median;
  route.bytes_sigma = bytes_sigma;
  return route;
}

template <typename T>
void Shuffle(std::vector<T>* items, Random* rng) {
  for (size_t i = items->size(); i > 1; --i) std::swap((*items)[i - 1], (*items)[rng->Uniform(i)]);
}

// API routes in popularity tiers (each shuffled): lookups by id and searches, then listings and
// v2 lookups, then sub-resources, then CSV exports, so that large exports stay rare.
std::vector<Route> ApiRoutes(Random* rng) {
  std::vector<Route> lookups, listings, sub_resources, exports;
  for (const char* resource : kResources) {
    const std::string base = std::string("/api/v1/") + resource;
    lookups.push_back(
        MakeRoute(RouteKind::kApi, RouteParameter::kNumericId, base + "/", "", kJson, 900, 0.5));
    lookups.push_back(MakeRoute(RouteKind::kApi, RouteParameter::kSearchQuery, base + "/search", "",
                                kJson, 6000, 0.7));
    listings.push_back(
        MakeRoute(RouteKind::kApi, RouteParameter::kNone, base, "", kJson, 4000, 0.6));
    listings.push_back(MakeRoute(RouteKind::kApi, RouteParameter::kNumericId,
                                 std::string("/api/v2/") + resource + "/", "", kJson, 1100, 0.5));
  }
  // Distinct (resource, sub-resource) pairs: for a fixed resource the three passes use
  // sub-resource offsets 0, 2 and 4.
  for (int k = 0; k < kSubResourceRoutes; ++k) {
    const int resource = k % kResourceCount;
    const int sub = (k / kResourceCount * 2 + resource) % kSubResourceCount;
    const std::string prefix = std::string("/api/v1/") + kResources[resource] + "/";
    const std::string suffix = std::string("/") + kSubResources[sub];
    if (suffix == "/export") {
      exports.push_back(
          MakeRoute(RouteKind::kApi, RouteParameter::kNumericId, prefix, suffix, kCsv, 50000, 1.0));
    } else {
      sub_resources.push_back(
          MakeRoute(RouteKind::kApi, RouteParameter::kNumericId, prefix, suffix, kJson, 2500, 0.6));
    }
  }
  std::vector<Route> routes;
  for (std::vector<Route>* tier : {&lookups, &listings, &sub_resources, &exports}) {
    Shuffle(tier, rng);
    routes.insert(routes.end(), tier->begin(), tier->end());
  }
  return routes;
}

std::vector<Route> StaticRoutes(Random* rng) {
  std::vector<Route> routes = {
      MakeRoute(RouteKind::kStatic, RouteParameter::kNone, "/", "", kHtml, 30000, 0.2),
      MakeRoute(RouteKind::kStatic, RouteParameter::kNone, "/index.html", "", kHtml, 30000, 0.2),
      MakeRoute(RouteKind::kStatic, RouteParameter::kNone, "/login", "", kHtml, 12000, 0.2),
      MakeRoute(RouteKind::kStatic, RouteParameter::kNone, "/favicon.ico", "", kIcon, 15086, 0),
      MakeRoute(RouteKind::kStatic, RouteParameter::kNone, "/robots.txt", "", kPlainText, 312, 0),
      MakeRoute(RouteKind::kStatic, RouteParameter::kNone, "/sitemap.xml", "", kXml, 20000, 0.1),
      MakeRoute(RouteKind::kStatic, RouteParameter::kNone, "/manifest.json", "", kManifest, 640, 0),
  };
  // Fingerprinted bundles and assets: each file has a nearly fixed size.
  auto add_assets = [&](int count, const char* folder, int content_type, const char* extension,
                        double min_kib, double max_kib, bool fingerprinted) {
    for (int i = 0; i < count; ++i) {
      // Consecutive routes step through the names with a stride coprime to their count, so the
      // assets of one folder and extension never share a name.
      const char* name = kAssetNames[static_cast<int>(routes.size()) * 5 % kAssetNameCount];
      std::string path = std::string("/static/") + folder + "/" + name;
      if (fingerprinted) path += "." + rng->Hex(8);
      path += extension;
      const double kib = min_kib + (max_kib - min_kib) * rng->UniformDouble();
      routes.push_back(MakeRoute(RouteKind::kStatic, RouteParameter::kNone, path, "", content_type,
                                 kib * 1024, 0.05));
    }
  };
  add_assets(15, "js", kJavascript, ".js", 20, 400, true);
  add_assets(8, "css", kCss, ".css", 5, 60, true);
  add_assets(8, "img", kPng, ".png", 2, 200, false);
  add_assets(7, "img", kJpeg, ".jpg", 20, 300, false);
  add_assets(5, "img", kSvg, ".svg", 1, 20, false);
  add_assets(5, "img", kWebp, ".webp", 10, 150, false);
  add_assets(10, "fonts", kWoff2, ".woff2", 15, 40, true);
  return routes;
}

std::vector<Route> HealthRoutes() {
  return {
      MakeRoute(RouteKind::kHealth, RouteParameter::kNone, "/healthz", "", kPlainText, 2, 0),
      MakeRoute(RouteKind::kHealth, RouteParameter::kNone, "/readyz", "", kPlainText, 2, 0),
      MakeRoute(RouteKind::kHealth, RouteParameter::kNone, "/metrics", "", kPlainText, 12000, 0.1),
      MakeRoute(RouteKind::kHealth, RouteParameter::kNone, "/livez", "", kPlainText, 2, 0),
      MakeRoute(RouteKind::kHealth, RouteParameter::kNone, "/health", "", kJson, 60, 0),
  };
}

std::string ChromeUserAgent(Random* rng, bool mobile) {
  static const char* const kDesktop[] = {"Windows NT 10.0; Win64; x64",
                                         "Macintosh; Intel Mac OS X 10_15_7", "X11; Linux x86_64",
                                         "X11; CrOS x86_64 14541.0.0"};
  static const char* const kMobile[] = {
      "Linux; Android 13; Pixel 7",  "Linux; Android 14; Pixel 8",  "Linux; Android 13; SM-S918B",
      "Linux; Android 12; SM-G991B", "Linux; Android 14; SM-A546B", "Linux; Android 10; K"};
  const int major = Between(rng, 110, 126);
  return Format("Mozilla/5.0 (%s) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.%d %s",
                mobile ? Pick(kMobile, rng) : Pick(kDesktop, rng), major,
                5000 + (major - 110) * 90 + Between(rng, 0, 60), Between(rng, 0, 200),
                mobile ? "Mobile Safari/537.36" : "Safari/537.36");
}

std::string FirefoxUserAgent(Random* rng) {
  static const char* const kSystems[] = {"Windows NT 10.0; Win64; x64",
                                         "Macintosh; Intel Mac OS X 10.15",
                                         "X11; Ubuntu; Linux x86_64", "X11; Linux x86_64"};
  const int version = Between(rng, 110, 127);
  return Format("Mozilla/5.0 (%s; rv:%d.0) Gecko/20100101 Firefox/%d.0", Pick(kSystems, rng),
                version, version);
}

std::string SafariUserAgent(Random* rng) {
  const int major = Between(rng, 16, 17);
  const int minor = Between(rng, 0, 6);
  if (rng->Bernoulli(0.7)) {
    return Format(
        "Mozilla/5.0 (iPhone; CPU iPhone OS %d_%d like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
        "like Gecko) Version/%d.%d Mobile/15E148 Safari/604.1",
        major, minor, major, minor);
  }
  return Format(
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
      "Version/%d.%d Safari/605.1.15",
      major, minor);
}

std::string EdgeUserAgent(Random* rng) {
  const int major = Between(rng, 110, 126);
  return Format(
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/%d.0.0.0 Safari/537.36 Edg/%d.0.%d.%d",
      major, major, 1500 + Between(rng, 0, 900), Between(rng, 0, 120));
}

std::string BotUserAgent(Random* rng) {
  static const char* const kFixed[] = {
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
      "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
      "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
      "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "Twitterbot/1.0",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "ELB-HealthChecker/2.0",
      "UptimeRobot/2.0 (http://www.uptimerobot.com/)"};
  switch (rng->Uniform(4)) {
    case 0:
      return Format("kube-probe/1.%d", Between(rng, 24, 30));
    case 1:
      return Format("Prometheus/2.%d.%d", Between(rng, 40, 52), Between(rng, 0, 2));
    case 2:
      return Format("Datadog Agent/7.%d.%d", Between(rng, 40, 52), Between(rng, 0, 2));
    default:
      return Pick(kFixed, rng);
  }
}

std::string LibraryUserAgent(Random* rng) {
  switch (rng->Uniform(12)) {
    case 0:
      return Format("curl/%d.%d.%d", 7, Between(rng, 68, 88), Between(rng, 0, 1));
    case 1:
      return Format("curl/8.%d.%d", Between(rng, 0, 8), Between(rng, 0, 1));
    case 2:
      return Format("python-requests/2.%d.%d", Between(rng, 25, 32), Between(rng, 0, 3));
    case 3:
      return rng->Bernoulli(0.5) ? "Go-http-client/1.1" : "Go-http-client/2.0";
    case 4:
      return Format("okhttp/4.%d.%d", Between(rng, 9, 12), Between(rng, 0, 3));
    case 5:
      return Format("Java/%d.0.%d", rng->Bernoulli(0.5) ? 17 : 21, Between(rng, 1, 12));
    case 6:
      return Format("axios/1.%d.%d", Between(rng, 0, 7), Between(rng, 0, 9));
    case 7:
      return Format("Apache-HttpClient/4.5.%d (Java/17.0.%d)", Between(rng, 10, 14),
                    Between(rng, 1, 9));
    case 8:
      return Format("PostmanRuntime/7.%d.%d", Between(rng, 26, 37), Between(rng, 0, 3));
    case 9:
      return Format("Python/3.%d aiohttp/3.%d.%d", Between(rng, 9, 12), Between(rng, 7, 9),
                    Between(rng, 0, 5));
    case 10:
      return Format("Wget/1.21.%d", Between(rng, 1, 4));
    default:
      return Format("Dart/3.%d (dart:io)", Between(rng, 0, 3));
  }
}

}  // namespace

AccessVocabulary::AccessVocabulary(uint64_t seed) {
  Random route_rng(MixSeed(seed, kRouteSalt));
  BuildRoutes(&route_rng);
  Random user_agent_rng(MixSeed(seed, kUserAgentSalt));
  BuildUserAgents(&user_agent_rng);
  Random ip_rng(MixSeed(seed, kClientIpSalt));
  BuildClientIps(&ip_rng);
  Random referrer_rng(MixSeed(seed, kReferrerSalt));
  BuildReferrers(&referrer_rng);
  BuildErrorMessages();

  content_types_ = ContentTypeNames();
  problem_json_content_type_ = kProblemJson;
  html_content_type_ = kHtml;
  for (int org = 0; org < kAccessOrgs; ++org) org_names_.push_back(Format("org-%04d", org + 1));
  for (const char* service : kServiceNames) {
    service_names_.push_back(service);
    hosts_.push_back({Format("%s.example.com", service), Format("%s.eu.example.com", service)});
  }
  user_offset_ = MixSeed(seed, kUserSalt) % kAccessUsersPerOrg;

  route_popularity_ = ZipfDistribution(routes_.size(), kRouteZipf);
  user_agent_popularity_ = ZipfDistribution(user_agents_.size(), kUserAgentZipf);
  client_ip_popularity_ = ZipfDistribution(client_ips_.size(), kClientIpZipf);
  referrer_popularity_ = ZipfDistribution(referrers_.size(), kReferrerZipf);
  error_message_popularity_ = ZipfDistribution(error_messages_.size(), kErrorMessageZipf);
  user_popularity_ = ZipfDistribution(kAccessUsersPerOrg, kUserZipf);

  non_api_share_ = 0;
  for (size_t rank = 0; rank < routes_.size(); ++rank) {
    if (routes_[rank].kind != RouteKind::kApi)
      non_api_share_ += route_popularity_.Probability(rank);
  }
}

void AccessVocabulary::BuildRoutes(Random* rng) {
  const std::vector<Route> api = ApiRoutes(rng);
  std::vector<Route> statics = StaticRoutes(rng);
  const std::vector<Route> health = HealthRoutes();
  Shuffle(&statics, rng);
  // Popularity ranks: health checks at fixed ranks (probes are frequent), the rest alternating
  // two API routes and one static asset. The layout is fixed so the non-API share, and with it
  // the method mix of API routes, does not swing with the seed.
  const std::set<size_t> health_ranks = {1, 6, 15, 40, 120};
  size_t next_api = 0, next_static = 0, next_health = 0, slot = 0;
  while (routes_.size() < api.size() + statics.size() + health.size()) {
    if (health_ranks.count(routes_.size()) != 0 && next_health < health.size()) {
      routes_.push_back(health[next_health++]);
      continue;
    }
    const bool want_static = slot++ % 3 == 2;
    if ((want_static && next_static < statics.size()) || next_api == api.size()) {
      routes_.push_back(statics[next_static++]);
    } else {
      routes_.push_back(api[next_api++]);
    }
  }
  if (routes_.size() != kAccessRoutes) throw std::logic_error("route table size mismatch");
  search_terms_.assign(std::begin(kSearchTerms), std::end(kSearchTerms));
}

void AccessVocabulary::AppendPath(const Route& route, Random* rng, std::string* out) const {
  out->append(route.prefix);
  switch (route.parameter) {
    case RouteParameter::kNone:
      break;
    case RouteParameter::kNumericId:
      out->append(std::to_string(rng->UniformInRange(1, 999'999)));
      out->append(route.suffix);
      break;
    case RouteParameter::kSearchQuery:
      out->append("?q=");
      out->append(search_terms_[rng->Uniform(search_terms_.size())]);
      out->append("&page=");
      out->append(std::to_string(1 + rng->Uniform(5)));
      break;
  }
}

void AccessVocabulary::BuildUserAgents(Random* rng) {
  enum Family { kChromeDesktop, kChromeMobile, kFirefox, kSafari, kEdge, kBot, kLibrary };
  const WeightedChoice families({0.28, 0.12, 0.10, 0.10, 0.08, 0.12, 0.20});
  std::unordered_set<std::string> seen;
  while (user_agents_.size() < kAccessUserAgents) {
    std::string agent;
    switch (families.Sample(rng)) {
      case kChromeDesktop:
        agent = ChromeUserAgent(rng, false);
        break;
      case kChromeMobile:
        agent = ChromeUserAgent(rng, true);
        break;
      case kFirefox:
        agent = FirefoxUserAgent(rng);
        break;
      case kSafari:
        agent = SafariUserAgent(rng);
        break;
      case kEdge:
        agent = EdgeUserAgent(rng);
        break;
      case kBot:
        agent = BotUserAgent(rng);
        break;
      default:
        agent = LibraryUserAgent(rng);
        break;
    }
    if (seen.insert(agent).second) user_agents_.push_back(std::move(agent));
  }
}

void AccessVocabulary::BuildClientIps(Random* rng) {
  std::vector<double> target;
  for (const CountryWeight& country : kCountryWeights) {
    countries_.push_back(country.code);
    target.push_back(country.percent / 100.0);
  }
  // Each country owns a few first octets, so the country is a function of the IP.
  std::vector<int> octets;
  for (int octet = 1; octet <= 223; ++octet) {
    if (octet != 10 && octet != 100 && octet != 127 && octet != 169 && octet != 172 &&
        octet != 192 && octet != 198) {
      octets.push_back(octet);
    }
  }
  Shuffle(&octets, rng);
  // Countries take the IPs, most popular first, by largest remaining share deficit: the request
  // share of every country then matches its target to within one small IP's share.
  const ZipfDistribution popularity(kAccessClientIps, kClientIpZipf);
  std::vector<double> assigned(kAccessCountries, 0);
  std::unordered_set<uint32_t> used;
  client_ips_.reserve(kAccessClientIps);
  client_ip_country_.reserve(kAccessClientIps);
  for (int rank = 0; rank < kAccessClientIps; ++rank) {
    int country = 0;
    for (int c = 1; c < kAccessCountries; ++c) {
      if (target[c] - assigned[c] > target[country] - assigned[country]) country = c;
    }
    assigned[country] += popularity.Probability(rank);
    uint32_t address;
    do {
      const int first = octets[country * kFirstOctetsPerCountry +
                               static_cast<int>(rng->Uniform(kFirstOctetsPerCountry))];
      address = (static_cast<uint32_t>(first) << 24) | (rng->Uniform(256) << 16) |
                (rng->Uniform(256) << 8) | static_cast<uint32_t>(1 + rng->Uniform(254));
    } while (!used.insert(address).second);
    client_ips_.push_back(Format("%u.%u.%u.%u", address >> 24, (address >> 16) & 0xff,
                                 (address >> 8) & 0xff, address & 0xff));
    client_ip_country_.push_back(country);
  }
}

void AccessVocabulary::BuildReferrers(Random* rng) {
  static const char* const kPopular[] = {
      "https://www.google.com/",   "https://www.bing.com/",         "https://duckduckgo.com/",
      "https://www.google.de/",    "https://www.google.co.uk/",     "https://t.co/",
      "https://www.facebook.com/", "https://www.google.fr/",        "https://www.google.co.jp/",
      "https://search.yahoo.com/", "https://www.google.com.br/",    "https://www.linkedin.com/",
      "https://www.google.ca/",    "https://www.reddit.com/",       "https://www.google.es/",
      "https://yandex.ru/",        "https://www.baidu.com/",        "https://mail.google.com/",
      "https://outlook.live.com/", "https://news.ycombinator.com/", "https://www.google.it/",
      "https://www.google.co.in/", "https://l.facebook.com/",       "https://www.instagram.com/",
      "https://github.com/"};
  std::unordered_set<std::string> seen;
  for (const char* url : kPopular) {
    seen.insert(url);
    referrers_.push_back(url);
  }
  static const char* const kSubreddits[] = {"programming", "technology", "deals", "gadgets",
                                            "webdev",      "sysadmin",   "frugal"};
  while (referrers_.size() < kAccessReferrers) {
    std::string url;
    switch (rng->Uniform(6)) {
      case 0:
        url = Format("https://www.google.com/search?q=%s+%s", kSearchTerms[rng->Uniform(40)],
                     kSearchTerms[rng->Uniform(40)]);
        break;
      case 1:
        url = "https://t.co/" + rng->Hex(10);
        break;
      case 2:
        url = Format("https://www.reddit.com/r/%s/comments/%s/", Pick(kSubreddits, rng),
                     rng->Hex(6).c_str());
        break;
      case 3:
        url = Format("https://news.ycombinator.com/item?id=%d", Between(rng, 30000000, 40000000));
        break;
      case 4:
        url = Format("https://shop.example.com/products/%d", Between(rng, 1, 99999));
        break;
      default:
        url = Format("https://shop.example.com/category/%s", kSearchTerms[rng->Uniform(40)]);
        break;
    }
    if (seen.insert(url).second) referrers_.push_back(std::move(url));
  }
}

void AccessVocabulary::BuildErrorMessages() {
  static const char* const kFields[] = {"email",    "password", "quantity", "currency", "address",
                                        "order_id", "card",     "zip_code", "sku",      "date"};
  static const char* const kUpstreams[] = {
      "inventory-db", "payments-gateway", "redis-cache", "search-index", "auth-service",
      "pricing-api",  "shipping-api",     "kafka",       "s3",           "email-relay"};
  static const char* const kGeneric[] = {
      "rate limit exceeded", "authentication token expired", "permission denied",
      "resource not found",  "internal server error",        "service unavailable",
      "bad gateway",         "request entity too large",     "unsupported media type",
      "method not allowed"};
  for (const char* field : kFields) {
    error_messages_.push_back(Format("missing required field '%s'", field));
    error_messages_.push_back(Format("invalid value for '%s'", field));
  }
  for (const char* upstream : kUpstreams) {
    error_messages_.push_back(Format("timeout calling %s after 5000 ms", upstream));
    error_messages_.push_back(Format("connection refused by %s", upstream));
  }
  error_messages_.insert(error_messages_.end(), std::begin(kGeneric), std::end(kGeneric));
  // Most frequent first: generic failures dominate real logs.
  std::rotate(error_messages_.begin(), error_messages_.end() - std::size(kGeneric),
              error_messages_.end());
  if (error_messages_.size() != kAccessErrorMessages) {
    throw std::logic_error("error message table size mismatch");
  }
}

std::string AccessVocabulary::UserId(int org, uint64_t rank) const {
  const uint64_t number = (rank * kUserPermutation + user_offset_) % kAccessUsersPerOrg;
  return Format("u%02d%05u", org + 1, static_cast<unsigned>(number));
}

}  // namespace bench
}  // namespace columnar
