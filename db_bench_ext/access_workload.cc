#include "db_bench_ext/access_workload.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_set>

namespace columnar {
namespace bench {
namespace {

constexpr uint64_t kInstanceSalt = 0xa001;
constexpr uint64_t kDeploymentSalt = 0xa002;
constexpr uint64_t kRequestStreamSalt = 0xa003;

struct StatusWeight {
  int32_t status;
  double percent;
};
// 14 codes: 200 is 87.8%, 5xx 1.3%.
constexpr StatusWeight kStatusWeights[] = {
    {200, 87.8}, {201, 2.0}, {204, 1.0}, {301, 0.3}, {302, 0.8}, {304, 3.0}, {400, 0.8},
    {401, 0.9},  {403, 0.3}, {404, 1.5}, {429, 0.3}, {500, 0.6}, {502, 0.3}, {503, 0.4}};

const char* const kProtocols[] = {"HTTP/2", "HTTP/1.1", "HTTP/3"};
constexpr double kProtocolShares[] = {0.55, 0.35, 0.10};

constexpr double kUserIdNullShare = 0.5;
constexpr double kReferrerEmptyShare = 0.4;
constexpr double kSecondHostShare = 0.3;

// Latency: log-normal with median 40 ms, 3x for 5xx. sigma 1.4 puts 1.1% of all requests above
// 1 s (0.987 * P(Z > ln(25)/1.4) + 0.013 * P(Z > ln(25/3)/1.4) = 0.0115), and 6% of the 5xx,
// which matches the source's 0.084% "5xx slow" share.
constexpr double kLatencyMedianMs = 40;
constexpr double kLatencySigma = 1.4;
constexpr double kServerErrorSlowdown = 3;
constexpr int32_t kMaxLatencyMs = 60'000;  // a gateway timeout caps the tail

// Error bodies: RFC 7807 problem details for API routes, an HTML page otherwise.
constexpr double kProblemJsonBytesMedian = 180;
constexpr double kProblemJsonBytesSigma = 0.25;
constexpr double kHtmlErrorBytesMedian = 1200;
constexpr double kHtmlErrorBytesSigma = 0.2;

// Kubernetes-style pod names use consonants and digits that cannot spell words.
constexpr char kPodAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";

std::string PodToken(Random* rng, int length) {
  std::string token;
  for (int i = 0; i < length; ++i) token.push_back(kPodAlphabet[rng->Uniform(27)]);
  return token;
}

std::vector<AccessInstance> MakeInstances(uint64_t seed, uint64_t count,
                                          const AccessVocabulary& vocabulary) {
  std::vector<AccessInstance> instances;
  std::unordered_set<std::string> names;
  Random rng(MixSeed(seed, kInstanceSalt));
  for (uint64_t i = 0; i < count; ++i) {
    AccessInstance instance;
    // A Latin square: any 10 consecutive instances cover every org and every service, and 100
    // cover each (org, service) pair once.
    instance.org = static_cast<int>(i % kAccessOrgs);
    instance.service = static_cast<int>((i % kAccessOrgs + i / kAccessOrgs) % kAccessServices);
    instance.orgid = vocabulary.org_names()[instance.org];
    instance.service_name = vocabulary.service_names()[instance.service];
    // Pods of one deployment (org, service) share the replica-set hash.
    Random deployment(MixSeed(seed ^ kDeploymentSalt, instance.org * kAccessServices +
                                                          static_cast<uint64_t>(instance.service)));
    const std::string prefix = instance.service_name + "-" + PodToken(&deployment, 10) + "-";
    do {
      instance.name = prefix + PodToken(&rng, 5);
    } while (!names.insert(instance.name).second);
    instances.push_back(std::move(instance));
  }
  return instances;
}

WeightedChoice ApiMethodChoice(double non_api_share) {
  const std::vector<double>& shares = AccessMethodShares();
  if (non_api_share >= shares[0]) {
    throw std::logic_error("non-API routes take more requests than the GET share");
  }
  std::vector<double> weights = shares;
  weights[0] -= non_api_share;  // the non-API requests already supply this much GET
  return WeightedChoice(weights);
}

std::vector<double> StatusWeights() {
  std::vector<double> weights;
  for (const StatusWeight& entry : kStatusWeights) weights.push_back(entry.percent);
  return weights;
}

int64_t RoundedLogNormal(Random* rng, double median, double sigma) {
  return std::llround(rng->LogNormal(std::log(median), sigma));
}

}  // namespace

const std::vector<std::string>& AccessRegularColumns() {
  static const std::vector<std::string> kColumns = {
      "method",   "path",         "status",     "user_agent",   "client_ip", "country",
      "referrer", "latency_ms",   "request_id", "trace_id",     "user_id",   "host",
      "protocol", "content_type", "bytes_sent", "error_message"};
  return kColumns;
}

const std::vector<std::string>& AccessMethods() {
  static const std::vector<std::string> kMethods = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  return kMethods;
}

const std::vector<double>& AccessMethodShares() {
  static const std::vector<double> kShares = {0.70, 0.20, 0.05, 0.03, 0.02};
  return kShares;
}

AccessWorkload::AccessWorkload(const AccessWorkloadOptions& options)
    : options_(options),
      timeline_(options.end_time_s, options.duration_s),
      vocabulary_(options.seed),
      api_method_choice_(ApiMethodChoice(vocabulary_.non_api_share())) {
  if (options.instances == 0) throw std::invalid_argument("access workload needs >= 1 instance");
  instances_ = MakeInstances(options.seed, options.instances, vocabulary_);
}

uint64_t AccessWorkload::total_rows() const {
  return options_.instances * static_cast<uint64_t>(timeline_.steps());
}

uint64_t AccessWorkload::batch_count() const {
  return BatchSchedule(options_.instances, timeline_.steps()).batch_count();
}

uint64_t AccessWorkload::partition_count() const {
  const int64_t days = UtcDayOf(timeline_.latest_s()) - UtcDayOf(timeline_.start_s()) + 1;
  return options_.instances * static_cast<uint64_t>(days);
}

TimeWindow AccessWorkload::Window(RangeQuery range) const {
  return Window(range, timeline_.latest_s());
}

TimeWindow AccessWorkload::Window(RangeQuery range, int64_t as_of_s) const {
  return WindowInMilliseconds(range, timeline_, as_of_s);
}

std::string AccessWorkload::RandomUserId(Random* rng, uint64_t instance) const {
  return vocabulary_.UserId(instances_[instance].org, vocabulary_.user_popularity().Sample(rng));
}

AccessGenerator::AccessGenerator(const AccessWorkload& workload)
    : workload_(workload),
      vocabulary_(workload.vocabulary()),
      schedule_(workload.options().instances, workload.timeline().steps()),
      status_choice_(StatusWeights()),
      protocol_choice_(
          std::vector<double>(std::begin(kProtocolShares), std::end(kProtocolShares))) {
  const uint64_t streams_seed = MixSeed(workload.options().seed, kRequestStreamSalt);
  states_.reserve(workload.options().instances);
  for (uint64_t i = 0; i < workload.options().instances; ++i) {
    states_.push_back(InstanceState{Random(MixSeed(streams_seed, i)), "", 0});
  }
}

bool AccessGenerator::NextBatch(AccessBatch* batch) {
  uint64_t instance_index;
  int64_t first_step;
  if (!schedule_.Next(&instance_index, &first_step)) return false;
  const AccessInstance& instance = workload_.instances()[instance_index];
  const int64_t first_time_s = workload_.timeline().TimeAtStep(first_step);
  batch->instance_index = instance_index;
  batch->day = UtcDayOf(first_time_s);
  batch->rows.resize(kRowsPerBatch);
  for (int64_t i = 0; i < kRowsPerBatch; ++i) {
    FillRow(instance, workload_.timeline().TimeAtStep(first_step + i), &states_[instance_index],
            &batch->rows[i]);
  }
  return true;
}

// Values are drawn in a fixed order (request, client, latency, identifiers, delivery, response
// body, write time), so a seed always gives the same rows.
void AccessGenerator::FillRow(const AccessInstance& instance, int64_t time_s, InstanceState* state,
                              AccessRow* row) const {
  Random* rng = &state->rng;
  row->orgid = instance.orgid;
  row->service = instance.service_name;
  row->instance = instance.name;
  row->day = UtcDayOf(time_s);
  row->time_ms = time_s * 1000;
  const Route& route = FillRequest(rng, row);
  FillClient(rng, row);
  FillLatency(rng, row);
  FillIdentifiers(instance, state, row);
  row->host = vocabulary_.HostsOf(instance.service)[rng->Bernoulli(kSecondHostShare) ? 1 : 0];
  row->protocol = kProtocols[protocol_choice_.Sample(rng)];
  FillResponseBody(route, rng, row);
  row->write_time_us = time_s * 1'000'000 + rng->UniformInRange(0, kMaxWriteJitterMicros);
  row->expiry_s = time_s + kTimeToLiveSeconds;
}

const Route& AccessGenerator::FillRequest(Random* rng, AccessRow* row) const {
  const Route& route = vocabulary_.routes()[vocabulary_.route_popularity().Sample(rng)];
  const size_t method =
      route.kind == RouteKind::kApi ? workload_.api_method_choice().Sample(rng) : 0;
  row->method = AccessMethods()[method];
  row->path.clear();
  vocabulary_.AppendPath(route, rng, &row->path);
  row->status = kStatusWeights[status_choice_.Sample(rng)].status;
  return route;
}

void AccessGenerator::FillClient(Random* rng, AccessRow* row) const {
  row->user_agent = vocabulary_.user_agents()[vocabulary_.user_agent_popularity().Sample(rng)];
  const size_t ip = vocabulary_.client_ip_popularity().Sample(rng);
  row->client_ip = vocabulary_.client_ips()[ip];
  row->country = vocabulary_.countries()[vocabulary_.client_ip_country()[ip]];
  if (rng->Bernoulli(kReferrerEmptyShare)) {
    row->referrer.clear();
  } else {
    row->referrer = vocabulary_.referrers()[vocabulary_.referrer_popularity().Sample(rng)];
  }
}

void AccessGenerator::FillLatency(Random* rng, AccessRow* row) const {
  const double slowdown = row->status >= 500 ? kServerErrorSlowdown : 1;
  const double latency = rng->LogNormal(std::log(kLatencyMedianMs), kLatencySigma) * slowdown;
  row->latency_ms = static_cast<int32_t>(std::clamp<double>(std::round(latency), 1, kMaxLatencyMs));
}

void AccessGenerator::FillIdentifiers(const AccessInstance& instance, InstanceState* state,
                                      AccessRow* row) const {
  Random* rng = &state->rng;
  row->request_id.clear();
  rng->AppendHex(32, &row->request_id);
  if (state->trace_rows_left == 0) {
    state->trace_id = rng->Hex(32);
    state->trace_rows_left = 1 + static_cast<int>(rng->Uniform(5));
  }
  --state->trace_rows_left;
  row->trace_id = state->trace_id;
  if (rng->Bernoulli(kUserIdNullShare)) {
    row->user_id.reset();
  } else {
    row->user_id = vocabulary_.UserId(instance.org, vocabulary_.user_popularity().Sample(rng));
  }
}

void AccessGenerator::FillResponseBody(const Route& route, Random* rng, AccessRow* row) const {
  const bool error = row->status >= 400;
  const bool api = route.kind == RouteKind::kApi;
  int content_type = route.content_type;
  if (error) {
    content_type = api ? vocabulary_.problem_json_content_type() : vocabulary_.html_content_type();
  }
  row->content_type = vocabulary_.content_types()[content_type];
  if (row->status == 204 || row->status == 304) {
    row->bytes_sent = 0;
  } else if (error) {
    row->bytes_sent = api ? RoundedLogNormal(rng, kProblemJsonBytesMedian, kProblemJsonBytesSigma)
                          : RoundedLogNormal(rng, kHtmlErrorBytesMedian, kHtmlErrorBytesSigma);
  } else {
    row->bytes_sent = RoundedLogNormal(rng, route.bytes_median, route.bytes_sigma);
  }
  if (error) {
    row->error_message =
        vocabulary_.error_messages()[vocabulary_.error_message_popularity().Sample(rng)];
  } else {
    row->error_message.reset();
  }
}

}  // namespace bench
}  // namespace columnar
