#include "lib/ib/counter_window.h"

#include <map>
#include <nlohmann/json.hpp>

#include "lib/error.h"
#include "lib/ib/records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/bits.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"
#include "lib/mad/types.h"
#include "lib/view/json_number.h"

namespace rdma::ib {

namespace {

using Json = nlohmann::ordered_json;

// The largest value a counter holds: PortCounters' width, or 64 bits.
uint64_t max_of(const mad::FieldDef& f, bool wide) {
  unsigned w = wide ? 64 : f.width;
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

std::string cannot_judge(const mad::FieldDef& f, const PortReading& a, const PortReading& b,
                         uint64_t before, uint64_t after) {
  if (a.wide != b.wide)
    return "read from PortCounters once and PortCountersExtended once (different widths)";
  if (after < before)
    return "went down from " + std::to_string(before) + " to " + std::to_string(after) +
           " (reset or wrapped)";
  uint64_t max = max_of(f, a.wide);
  if (before == max || after == max)
    return "saturated at " + std::to_string(max) + " (its " + std::to_string(f.width) +
           " bits stop there)";
  return "";
}

}  // namespace

Reading reading_of(const Fabric& f, const ErrorSweep& sweep, double time,
                   const PortStates* states) {
  Reading out;
  out.time = time;
  const std::vector<const mad::FieldDef*>& counters = error_counters();
  for (const PortCounters& c : sweep.ports) {
    PortReading r;
    const Node& n = f.nodes[c.port.node];
    r.node_guid = n.info.node_guid;
    r.port_guid = port_guid(f, c.port);
    r.port = c.port.port;
    r.lid = c.lid;
    r.description = n.description;
    r.wide = !c.wide.empty();
    const Port* port = n.port(c.port.port);
    if (port && port->info) r.state = port->info->state;
    if (states) {
      auto it = states->find({c.port.node, c.port.port});
      if (it != states->end()) r.state = it->second;
    }
    r.link_bytes_ps = link_bytes_per_second(f, c.port);
    r.tick = wait_tick(sweep.ticks, c.port.node);
    for (const mad::FieldDef* d : counters) {
      if (r.wide) {
        const mad::FieldDef* w = mad::find_field(mad::kPortCountersExtendedFull, d->name);
        r.values.push_back(mad::get_bits(c.wide, w->bit, w->width));
      } else {
        r.values.push_back(c.get(*d));
      }
    }
    out.ports.push_back(std::move(r));
  }
  return out;
}

std::string reading_json(const Reading& r) {
  Json doc = {{"rdma_error_counters", 1}, {"time", r.time}, {"ports", Json::array()}};
  for (const PortReading& p : r.ports) {
    Json counters = Json::object();
    for (size_t i = 0; i < p.values.size(); ++i) counters[error_counters()[i]->name] = p.values[i];
    Json port = {{"node_guid", mad::guid_hex(p.node_guid)}};
    if (p.port_guid) port["port_guid"] = mad::guid_hex(p.port_guid);
    port["port"] = p.port;
    port["lid"] = p.lid;
    port["description"] = p.description;
    port["bits"] = p.wide ? 64 : 32;
    if (p.state) port["state"] = p.state;
    port["counters"] = std::move(counters);
    doc["ports"].push_back(std::move(port));
  }
  return doc.dump() + "\n";
}

Reading parse_reading(std::string_view text, const std::string& file) {
  Reading out;
  try {
    nlohmann::json doc = nlohmann::json::parse(text);
    if (!doc.is_object() || doc.value("rdma_error_counters", nlohmann::json(0)) != 1)
      throw Error(file + ": not a file of `rdma fabric errors save`");
    out.time = doc.at("time").get<double>();
    for (const nlohmann::json& p : doc.at("ports")) {
      PortReading r;
      r.node_guid = mad::parse_guid(p.at("node_guid").get<std::string>());
      if (p.contains("port_guid")) r.port_guid = mad::parse_guid(p["port_guid"].get<std::string>());
      r.port = view::json_whole<uint8_t>(p.at("port"), "\"port\"");
      r.lid = view::json_whole<uint16_t>(p.at("lid"), "\"lid\"");
      r.description = p.at("description").get<std::string>();
      r.wide = view::json_whole<unsigned>(p.at("bits"), "\"bits\"") == 64;
      // Files saved before the state was kept: unknown (0).
      r.state = p.contains("state") ? view::json_whole<uint8_t>(p["state"], "\"state\"") : 0;
      for (const mad::FieldDef* d : error_counters())
        r.values.push_back(view::json_whole<uint64_t>(p.at("counters").at(d->name),
                                                      "counter \"" + std::string(d->name) + "\""));
      out.ports.push_back(std::move(r));
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(file + ": not a file of `rdma fabric errors save` (" + e.what() + ")");
  } catch (const Error& e) {
    if (std::string_view(e.what()).starts_with(file + ":")) throw;
    throw Error(file + ": " + e.what());
  }
  return out;
}

bool PortIncrease::over() const {
  for (const CounterChange& c : counters)
    if (c.over) return true;
  return flapped() || congested;
}

bool PortIncrease::cannot_judge() const {
  for (const CounterChange& c : counters)
    if (!c.cannot_judge.empty()) return true;
  return false;
}

WindowJudgement judge_window(const Reading& before, const Reading& after,
                             std::span<const mad::FieldDef* const> counters,
                             const Thresholds& thresholds, bool every_port, double congestion) {
  WindowJudgement out;
  out.seconds = after.time - before.time;
  std::map<std::pair<uint64_t, uint8_t>, const PortReading*> then;
  for (const PortReading& p : before.ports) then[{p.node_guid, p.port}] = &p;
  const std::vector<const mad::FieldDef*>& all = error_counters();
  const mad::FieldDef* link_downed = error_counter("LinkDownedCounter");
  const mad::FieldDef* xmit_wait = error_counter("PortXmitWait");
  for (const PortReading& now : after.ports) {
    auto it = then.find({now.node_guid, now.port});
    if (it == then.end()) continue;
    const PortReading& was = *it->second;
    ++out.ports_compared;
    PortIncrease change;
    change.before = &was;
    change.after = &now;
    change.left_active =
        was.state == mad::kPortActive && now.state && now.state != mad::kPortActive;
    for (size_t i = 0; i < all.size(); ++i) {
      const mad::FieldDef& f = *all[i];
      CounterChange c{&f, was.values[i], now.values[i], 0, "", false};
      c.cannot_judge = cannot_judge(f, was, now, c.before, c.after);
      if (c.cannot_judge.empty()) c.increase = c.after - c.before;
      if (&f == link_downed && c.cannot_judge.empty()) change.link_downs = c.increase;
      if (&f == xmit_wait && c.cannot_judge.empty() && now.link_bytes_ps > 0) {
        change.wait_known = true;
        change.wait_share = wait_share(c.increase, out.seconds, now.tick, now.link_bytes_ps);
        change.congested = congestion >= 0 && change.wait_share >= congestion;
      }
      bool checked = std::find(counters.begin(), counters.end(), &f) != counters.end();
      if (!checked) continue;
      c.over = c.cannot_judge.empty() && c.increase > thresholds.of(f, Thresholds::Kind::Increase);
      if (c.over || !c.cannot_judge.empty()) change.counters.push_back(c);
      change.every.push_back(std::move(c));
    }
    if (change.counters.empty() && !change.flapped() && !change.congested && !every_port) continue;
    out.ports_over += change.over();
    out.ports_cannot_judge += change.cannot_judge();
    out.flaps += change.flapped();
    out.ports_congested += change.congested;
    out.ports.push_back(std::move(change));
  }
  return out;
}

}  // namespace rdma::ib
