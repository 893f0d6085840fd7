#include "lib/bw/report.h"

#include <cstdio>
#include <cstdlib>

namespace rdma::bw {

namespace {

// JSON keeps six significant digits: what the text shows and more, on
// links of 10 Mb/s (a simulator) as of 400 Gb/s, without the noise digits.
double sig6(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return std::strtod(b, nullptr);
}

std::string fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

std::string n(uint64_t v) {
  return std::to_string(v);
}

}  // namespace

void client_record(const Session& s, const Bandwidth& b, const Latency& l, view::Record& r) {
  const verbs::Hello& h = s.hello;
  r.add("dev", s.dev + "/" + n(s.port) + " to ", s.dev);
  r.add("port", "", s.port);
  r.add("peer", s.peer + " port " + n(s.cm_port) + "\n", s.peer);
  r.add("cm_port", "", s.cm_port);
  r.add("size", "  RDMA write " + n(h.size) + " bytes x ", h.size);
  r.add("iterations", n(h.iterations) + ": ", h.iterations);
  r.add("bytes", "", b.bytes);
  r.add("time_us", "", sig6(static_cast<double>(b.ns) / 1000));
  r.add("bw_gbps", fixed(b.gbps, 3) + " Gb/s ", sig6(b.gbps));
  r.add("bw_mbps", "(" + fixed(b.gbps * 1000, 1) + " Mb/s)\n", sig6(b.gbps * 1000));
  r.add("lat_size", "  send/recv " + n(h.lat_size) + " bytes x " + n(h.iterations) + ": latency ",
        h.lat_size);
  r.add("lat_us_min", "min " + fixed(l.min_us, 2) + " ", sig6(l.min_us));
  r.add("lat_us_median", "median " + fixed(l.median_us, 2) + " ", sig6(l.median_us));
  r.add("lat_us_avg", "avg " + fixed(l.avg_us, 2) + " ", sig6(l.avg_us));
  r.add("lat_us_p99", "p99 " + fixed(l.p99_us, 2) + " ", sig6(l.p99_us));
  r.add("lat_us_max", "max " + fixed(l.max_us, 2) + " us", sig6(l.max_us));
}

void server_record(const Session& s, view::Record& r) {
  const verbs::Hello& h = s.hello;
  r.add("dev", s.dev + "/" + n(s.port) + " served ", s.dev);
  r.add("port", "", s.port);
  r.add("peer", s.peer + " port " + n(s.cm_port) + ": ", s.peer);
  r.add("cm_port", "", s.cm_port);
  r.add("size", n(h.iterations) + " RDMA writes of " + n(h.size) + " bytes, ", h.size);
  r.add("iterations", n(h.iterations) + " ping-pongs of " + n(h.lat_size) + " bytes", h.iterations);
  r.add("lat_size", "", h.lat_size);
}

}  // namespace rdma::bw
