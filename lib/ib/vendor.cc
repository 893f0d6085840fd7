#include "lib/ib/vendor.h"

#include <unistd.h>

#include <chrono>
#include <sstream>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/result.h"
#include "lib/mad/serving.h"
#include "lib/view/read_text.h"

namespace rdma::ib {

namespace {

using Clock = std::chrono::steady_clock;

uint64_t us_since(Clock::time_point t) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t).count());
}

std::string lid_text(uint16_t lid) {
  return "lid " + std::to_string(lid);
}

}  // namespace

Pong ping(MadClient& c, uint16_t lid, uint32_t oui) {
  mad::Mad m = mad::make_vendor_get(mad::kClassOpenIbPing, 0, 0, oui);
  Clock::time_point start = Clock::now();
  mad::Mad r = c.engine().call(m, mad::gsi_address(lid), "ping to " + lid_text(lid));
  return {mad::vendor_text(r), us_since(start)};
}

PingSummary ping_run(MadClient& c, uint16_t lid, const PingRun& run,
                     const std::function<void(const Pong&)>& pong,
                     const std::function<void(const std::string&)>& lost,
                     const std::function<bool(int ms)>& wait) {
  PingSummary s;
  Clock::time_point start = Clock::now();
  while (!run.count || s.transmitted < run.count) {
    ++s.transmitted;
    try {
      Pong p = ping(c, lid, run.oui);
      if (s.host.empty()) s.host = p.host;
      if (!s.received || p.rtt_us < s.min_us) s.min_us = p.rtt_us;
      s.max_us = std::max(s.max_us, p.rtt_us);
      s.total_us += p.rtt_us;
      ++s.received;
      pong(p);
    } catch (const mad::MadError& e) {
      // As ibping: a ping lost is counted, and the next follows at once.
      lost(e.what());
      if (!wait(0)) break;
      continue;
    }
    if (run.count && s.transmitted == run.count) break;
    if (!wait(run.flood ? 0 : 1000)) break;
  }
  s.elapsed_us = us_since(start);
  return s;
}

std::string sysstat(MadClient& c, uint16_t lid, SysstatQuery q, uint32_t oui) {
  uint16_t attr = q == SysstatQuery::Host  ? mad::kSysstatHost
                  : q == SysstatQuery::Cpu ? mad::kSysstatCpu
                                           : mad::kSysstatPing;
  mad::Mad m = mad::make_vendor_get(mad::kClassOpenIbSysstat, attr, 0, oui);
  const char* what = q == SysstatQuery::Host  ? "sysstat host from "
                     : q == SysstatQuery::Cpu ? "sysstat cpu from "
                                              : "sysstat ping to ";
  mad::Mad r = c.engine().call(m, mad::gsi_address(lid), what + lid_text(lid));
  return attr == mad::kSysstatPing ? std::string() : mad::vendor_text(r);
}

mad::MellanoxGeneralInfo mellanox_general_info(MadClient& c, uint16_t lid) {
  c.gmp(lid, mad::kClassMellanox, mad::kGet, mad::kClassPortInfo, 0);
  mad::Mad m = mad::make_vendor_get(mad::kClassMellanox, mad::kMellanoxGeneralInfo);
  mad::Mad r =
      c.engine().call(m, mad::gsi_address(lid), "Mellanox GeneralInfo from " + lid_text(lid));
  return mad::decode_general_info(mad::vendor_data(r));
}

std::string cpu_lines(const std::string& cpuinfo) {
  // As ibsysstat's server reads it: a "processor" line starts a CPU; its
  // "model name" and "cpu MHz" values are what follows the colon, blank
  // included.
  struct Cpu {
    std::string model, mhz;
  };
  std::vector<Cpu> cpus;
  std::istringstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("processor\t")) {
      cpus.emplace_back();
      continue;
    }
    size_t colon = line.find(':');
    if (cpus.empty() || colon == std::string::npos) continue;
    if (line.starts_with("model name\t"))
      cpus.back().model = line.substr(colon + 1);
    else if (line.starts_with("cpu MHz\t"))
      cpus.back().mhz = line.substr(colon + 1);
  }
  std::string out;
  for (size_t i = 0; i < cpus.size(); ++i)
    out += "cpu " + std::to_string(i) + ": model " + cpus[i].model + " MHZ " + cpus[i].mhz + "\n";
  return out;
}

ServeInfo local_serve_info() {
  ServeInfo info;
  char host[256] = {}, domain[256] = {};
  if (gethostname(host, sizeof host - 1) < 0) std::snprintf(host, sizeof host, "?hostname?");
  info.host = host;
  // A machine without a NIS domain says "(none)" or nothing: the host alone.
  if (getdomainname(domain, sizeof domain - 1) == 0 && domain[0] && std::string(domain) != "(none)")
    info.host += std::string(".") + domain;
  // No /proc/cpuinfo (a restricted container): no cpu lines, still a server.
  std::string text;
  try {
    text = view::read_text("/proc/cpuinfo", "/proc/cpuinfo");
  } catch (const Error&) {
  }
  info.cpus = cpu_lines(text);
  return info;
}

std::optional<mad::Mad> vendor_answer(uint8_t mgmt_class, uint32_t oui, const ServeInfo& info,
                                      const mad::Mad& m) {
  if (!mad::is_vendor_request(m, mgmt_class, oui)) return std::nullopt;
  if (mgmt_class == mad::kClassOpenIbPing) return mad::vendor_response(m, info.host);
  switch (m.get(mad::hdr::kAttrId)) {
    case mad::kSysstatPing:
      return mad::vendor_response(m, "");
    case mad::kSysstatHost:
      return mad::vendor_response(m, info.host);
    case mad::kSysstatCpu:
      return mad::vendor_response(m, info.cpus);
    default:
      return mad::vendor_response(m, "", mad::kStatusBadMethodAttr);
  }
}

uint64_t vendor_serve(mad::Transport& t, VendorServer which, const ServeInfo& info, uint64_t count,
                      const std::function<bool()>& stop,
                      const std::function<void(uint16_t lid)>& answered) {
  const uint8_t mgmt_class =
      which == VendorServer::Ping ? mad::kClassOpenIbPing : mad::kClassOpenIbSysstat;
  const uint32_t oui = info.oui;
  auto* serving = dynamic_cast<mad::Serving*>(&t);
  if (!serving) throw Error("this port cannot receive requests to serve");
  serving->serve(mgmt_class, oui);
  uint64_t n = 0;
  while ((!count || n < count) && !stop()) {
    std::optional<mad::Received> got = t.receive(200);
    if (!got || got->status || got->bytes.size() < mad::kMadBytes) continue;
    mad::Mad m;
    std::copy_n(got->bytes.begin(), mad::kMadBytes, m.bytes.begin());
    std::optional<mad::Mad> reply = vendor_answer(mgmt_class, oui, info, m);
    if (!reply) continue;
    // The requester's GSI (QP1): the diags' clients send from there.
    mad::Address to = mad::gsi_address(got->slid);
    to.pkey_index = info.pkey_index;
    t.send(*reply, to, 0);
    ++n;
    if (answered) answered(got->slid);
  }
  return n;
}

}  // namespace rdma::ib
