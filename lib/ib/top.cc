#include "lib/ib/top.h"

#include <algorithm>
#include <cctype>

#include "lib/ib/rates.h"
#include "lib/ib/records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

const char* top_sort_name(TopSort s) {
  static const char* const kNames[] = {"util", "xmit", "rcv", "wait", "errors", "downed"};
  return kNames[static_cast<int>(s)];
}

namespace {

std::string port_name(const Fabric& f, PortRef p) {
  const Node& n = f.nodes[p.node];
  return (n.description.empty() ? mad::guid_hex(n.info.node_guid) : n.description) + "/" +
         std::to_string(p.port);
}

// A data counter in bytes: PortCountersExtended's 64-bit one where the PMA
// answered it, else PortCounters' 32-bit one; saturated says it stopped.
uint64_t data_bytes(const PortCounters& c, const char* name, bool& saturated) {
  const mad::FieldDef* d = c.ext.empty() ? mad::find_field(mad::kPortCounters, name)
                                         : mad::find_field(mad::kPortCountersExtended, name);
  uint64_t v = c.ext.empty() ? c.get(*d) : readings({&d, 1}, c.ext)[0].value;
  if (ib::saturated(*d, v)) saturated = true;
  return mad::shown_value(d->fmt, v);
}

}  // namespace

std::vector<TopRow> TopModel::update(const Fabric& f, const ErrorSweep& sweep, double seconds) {
  static const mad::FieldDef& wait = *mad::find_field(mad::kPortCounters, "PortXmitWait");
  static const mad::FieldDef& downed = *mad::find_field(mad::kPortCounters, "LinkDownedCounter");
  std::vector<TopRow> rows;
  std::map<std::pair<uint64_t, uint8_t>, Reading> now;
  ticks_.insert(sweep.ticks.begin(), sweep.ticks.end());
  for (const PortCounters& c : sweep.ports) {
    Reading r;
    r.xmit = data_bytes(c, "PortXmitData", r.saturated);
    r.rcv = data_bytes(c, "PortRcvData", r.saturated);
    r.wait = c.get(wait);
    r.downed = c.get(downed);
    for (const mad::FieldDef* d : error_counters())
      if (d != &wait && d != &downed) {
        uint64_t v = c.get(*d);
        r.errors += v;
        if (ib::saturated(*d, v)) r.saturated = true;
      }
    if (ib::saturated(wait, r.wait) || ib::saturated(downed, r.downed)) r.saturated = true;
    std::pair<uint64_t, uint8_t> key{f.nodes[c.port.node].info.node_guid, c.port.port};
    auto was = prev_.find(key);
    now[key] = r;
    if (was == prev_.end() || seconds <= 0) continue;
    const Reading& p = was->second;
    TopRow row;
    row.port = c.port;
    row.name = port_name(f, c.port);
    const Node& node = f.nodes[c.port.node];
    const Port* port = node.port(c.port.port);
    if (port && port->peer) row.peer = port_name(f, *port->peer);
    row.unknown = r.saturated || p.saturated || r.xmit < p.xmit || r.rcv < p.rcv ||
                  r.wait < p.wait || r.errors < p.errors || r.downed < p.downed;
    if (!row.unknown) {
      row.xmit_bps = static_cast<double>(r.xmit - p.xmit) / seconds;
      row.rcv_bps = static_cast<double>(r.rcv - p.rcv) / seconds;
      row.wait_ps = static_cast<double>(r.wait - p.wait) / seconds;
      row.errors = r.errors - p.errors;
      row.downed = r.downed - p.downed;
      double rate = link_bytes_per_second(f, c.port);
      if (rate > 0) row.util = std::max(row.xmit_bps, row.rcv_bps) / rate;
      WaitTick tick = wait_tick(ticks_, c.port.node);
      row.wait_share = ib::wait_share(r.wait - p.wait, seconds, tick, rate);
      row.tick_from_pma = tick.from_pma;
    }
    rows.push_back(std::move(row));
  }
  prev_ = std::move(now);
  return rows;
}

void sort_rows(std::vector<TopRow>& rows, TopSort by) {
  auto key = [by](const TopRow& r) -> double {
    switch (by) {
      case TopSort::Util:
        return r.util;
      case TopSort::Xmit:
        return r.xmit_bps;
      case TopSort::Rcv:
        return r.rcv_bps;
      case TopSort::Wait:
        return r.wait_share ? r.wait_share : r.wait_ps * 1e-12;  // a port of unknown rate last
      case TopSort::Errors:
        return static_cast<double>(r.errors);
      case TopSort::Downed:
        return static_cast<double>(r.downed);
    }
    return 0;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const TopRow& a, const TopRow& b) {
    double ka = key(a), kb = key(b);
    if (ka != kb) return ka > kb;
    // Busiest both ways next, so an idle sort still shows traffic first.
    double ta = a.xmit_bps + a.rcv_bps, tb = b.xmit_bps + b.rcv_bps;
    if (ta != tb) return ta > tb;
    return a.name < b.name;
  });
}

std::vector<TopRow> filter_rows(const std::vector<TopRow>& rows, std::string_view filter) {
  if (filter.empty()) return rows;
  auto has = [&](const std::string& s) {
    return std::search(s.begin(), s.end(), filter.begin(), filter.end(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) ==
                    std::tolower(static_cast<unsigned char>(b));
           }) != s.end();
  };
  std::vector<TopRow> out;
  for (const TopRow& r : rows)
    if (has(r.name) || has(r.peer)) out.push_back(r);
  return out;
}

}  // namespace rdma::ib
