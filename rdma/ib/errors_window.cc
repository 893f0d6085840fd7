#include "rdma/ib/errors_window.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>

#include "lib/error.h"
#include "lib/ib/counter_window.h"
#include "lib/ib/find.h"
#include "lib/ib/port_labels.h"
#include "lib/ib/port_states.h"
#include "lib/mad/format.h"
#include "lib/view/read_text.h"
#include "lib/view/replace_file.h"
#include "rdma/ib/fabric_errors.h"
#include "rdma/ib/session.h"

namespace rdma {

namespace {

double epoch_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

// Every port's error counters now (64-bit where the PMA has them). The
// first reading takes each port's state from discovery, just before; the
// second reads the states again (a port that left Active in between) and
// takes each PMA's PortXmitWait tick (the wait share is the second's):
// ticks when they were read during the window's wait, else asked with the
// sweep.
ib::Reading read_now(Ctx& c, MadSession& s, const ib::Fabric& f, ib::SweepOptions o, bool second,
                     const std::optional<std::map<uint32_t, uint8_t>>& ticks = std::nullopt) {
  o.every_port = true;
  o.wide_errors = true;
  o.extended = false;
  o.details = false;
  o.wait_tick = second && !ticks;
  double t = epoch_seconds();
  ib::ErrorSweep sweep = ib::sweep_errors(s.engine(), f, o);
  sweep_warnings(c, sweep, s);
  if (!second) return ib::reading_of(f, sweep, t);
  if (ticks) sweep.ticks = *ticks;
  ib::PortStates states = ib::read_port_states(s.engine(), f, o.nodes);
  return ib::reading_of(f, sweep, t, &states);
}

// The window's wait, with the PMAs' ticks asked meanwhile: the wait is
// spent anyway, so a PMA slow to answer, or silent (ibsim's: one try of
// the timeout), costs nothing unless it outlasts the window.
std::map<uint32_t, uint8_t> wait_reading_ticks(MadSession& s, const ib::Fabric& f,
                                               const ib::NodeSelect& nodes, int seconds) {
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  std::map<uint32_t, uint8_t> ticks = ib::read_wait_ticks(s.engine(), f, nodes);
  std::this_thread::sleep_until(until);
  return ticks;
}

std::string rate_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string t = buf;
  while (t.back() == '0') t.pop_back();
  if (t.back() == '.') t.pop_back();
  return t;
}

// "10 s", "2.5 s": a window as a person reads it.
std::string seconds_text(double s) {
  return rate_text(s) + " s";
}

std::string percent_text(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", share * 100);
  return buf;
}

// A port with a finding: where it is, then each counter over its increase
// threshold ("symbol_errors 5->17 (+12, 4/s)"; JSON {"before", "after",
// "increase", "per_second"}) or not judged ("link_downed cannot judge:
// went down from 3 to 0 (reset or wrapped)"; JSON {"before", "after",
// "cannot_judge"}), then the flap ("flap "link down 3 times in 10 s"",
// "flap "left Active: now DOWN""), then the wait share where above 0 or
// congestion is judged ("xmit_wait_share 12.5% (tick 7, default)"; in JSON
// wherever known: {"percent", "tick", "tick_source", "congested"}).
void change_record(const ib::PortIncrease& p, double seconds, bool congestion, view::Record& rec) {
  const ib::PortReading& r = *p.after;
  rec.pair("node_guid", mad::guid_hex(r.node_guid));
  rec.pair("description", mad::desc_text(r.description), r.description);
  rec.pair("port", r.port);
  if (r.port_guid) rec.pair("port_guid", mad::guid_hex(r.port_guid));
  rec.pair("lid", r.lid);
  for (const ib::CounterChange& ch : p.counters) {
    view::Json j = {{"before", ch.before}, {"after", ch.after}};
    std::string text = std::to_string(ch.before) + "->" + std::to_string(ch.after);
    if (ch.cannot_judge.empty()) {
      double rate = seconds > 0 ? double(ch.increase) / seconds : 0;
      j["increase"] = ch.increase;
      j["per_second"] = rate;
      text += " (+" + std::to_string(ch.increase) + ", " + rate_text(rate) + "/s)";
    } else {
      j["cannot_judge"] = ch.cannot_judge;
      text += " (cannot judge: " + ch.cannot_judge + ")";
    }
    rec.pair(ch.field->label, text, std::move(j));
  }
  if (p.flapped()) {
    std::string flap;
    if (p.link_downs)
      flap = "link down " + std::to_string(p.link_downs) +
             (p.link_downs == 1 ? " time in " : " times in ") + seconds_text(seconds);
    if (p.left_active)
      flap += std::string(flap.empty() ? "" : ", ") + "left Active: now " +
              mad::port_state_name(p.after->state);
    rec.pair_quoted("flap", flap);
  }
  if (p.wait_known) {
    const ib::WaitTick& t = p.after->tick;
    view::Json j = {{"percent", p.wait_share * 100},
                    {"tick", t.value},
                    {"tick_source", t.source()},
                    {"congested", p.congested}};
    std::string text =
        percent_text(p.wait_share) + " (tick " + std::to_string(t.value) + ", " + t.source() + ")";
    if (p.wait_share > 0 || congestion)
      rec.pair("xmit_wait_share", text, std::move(j));
    else
      rec.add("xmit_wait_share", "", std::move(j));
  }
}

// The judgement: a line a port with a finding, then the summary line
// ("window: 20 ports compared over 10 s, 1 over threshold, 0 cannot be
// judged, 1 flapped"); JSON [{"ports": [...], "summary": {...}}].
void print_judgement(Ctx& c, const ib::WindowJudgement& j, std::optional<double> congestion) {
  bool json = c.out.is_json();
  view::Record rec, doc;
  view::Json ports = view::Json::array();
  for (const ib::PortIncrease& p : j.ports) {
    rec.clear();
    change_record(p, j.seconds, bool(congestion), rec);
    if (json) {
      ports.push_back(record_json(rec));
    } else {
      c.out.record(rec);
    }
  }
  if (json) doc.add("ports", "", std::move(ports));
  std::string text = "window: " + std::to_string(j.ports_compared) + " ports compared over " +
                     seconds_text(j.seconds) + ", " + std::to_string(j.ports_over) +
                     " over threshold, " + std::to_string(j.ports_cannot_judge) +
                     " cannot be judged, " + std::to_string(j.flaps) + " flapped";
  view::Json summary{{"window_seconds", j.seconds},
                     {"ports_compared", j.ports_compared},
                     {"ports_over_threshold", j.ports_over},
                     {"ports_cannot_judge", j.ports_cannot_judge},
                     {"ports_flapped", j.flaps},
                     {"ports_congested", j.ports_congested}};
  if (congestion) {
    text += ", " + std::to_string(j.ports_congested) + " congested (wait share at or over " +
            rate_text(*congestion) + "%)";
    summary["congestion_percent"] = *congestion;
  }
  doc.add("summary", text, std::move(summary));
  c.out.record(doc);
  if (j.ports_over) c.found();
}

// Every port compared, labelled with both ends of its cable: each judged
// counter's increase, and the link's downs (a flap when above 0).
void window_metrics(const ib::Fabric& f, const ib::WindowJudgement& j, view::Printer& out) {
  view::Record rec;
  for (const ib::PortIncrease& p : j.ports) {
    std::optional<ib::PortRef> at = ib::find_guid(f, p.after->node_guid);
    if (!at) continue;
    rec.clear();
    ib::add_port_labels(f, {at->node, p.after->port}, rec);
    for (const ib::CounterChange& ch : p.every)
      if (ch.cannot_judge.empty())
        rec.pair(std::string(ch.field->label) + "_increase", ch.increase);
    rec.pair("link_downs", p.link_downs);
    rec.pair("left_active", int(p.left_active));
    if (p.wait_known) rec.pair("xmit_wait_ratio", rate_text(p.wait_share), p.wait_share);
    out.record(rec);
  }
}

ib::Reading load_reading(const std::string& file) {
  return ib::parse_reading(view::read_text(file, "the saved reading"), file);
}

}  // namespace

void errors_window(Ctx& c, MadSession& s, const ib::Fabric& f, ib::SweepOptions o,
                   const WindowMode& m, view::Printer* metrics) {
  if (m.save) {
    ib::Reading now = read_now(c, s, f, o, false);
    view::ReplaceFile out(*m.save);
    std::string text = ib::reading_json(now);
    std::fwrite(text.data(), 1, text.size(), out.file());
    out.commit();
    return;
  }
  ib::Reading before = m.since ? load_reading(*m.since) : read_now(c, s, f, o, false);
  std::optional<std::map<uint32_t, uint8_t>> ticks;
  if (m.seconds) ticks = wait_reading_ticks(s, f, o.nodes, *m.seconds);
  ib::Reading after = read_now(c, s, f, o, true, ticks);
  ib::WindowJudgement j = ib::judge_window(before, after, o.counters, o.thresholds, metrics,
                                           m.congestion ? *m.congestion / 100 : -1);
  if (!metrics) return print_judgement(c, j, m.congestion);
  window_metrics(f, j, *metrics);
  if (j.ports_over) c.found();
}

std::vector<std::string> window_gauges() {
  std::vector<std::string> out;
  for (const mad::FieldDef* d : ib::error_counters())
    out.push_back(std::string(d->label) + "_increase");
  out.push_back("link_downs");
  out.push_back("left_active");
  out.push_back("xmit_wait_ratio");
  return out;
}

}  // namespace rdma
