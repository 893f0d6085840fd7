#include "rdma/ib/errors_window.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "lib/error.h"
#include "lib/ib/counter_window.h"
#include "lib/ib/find.h"
#include "lib/ib/port_labels.h"
#include "lib/mad/format.h"
#include "lib/view/replace_file.h"
#include "rdma/ib/fabric_errors.h"
#include "rdma/ib/session.h"

namespace rdma {

namespace {

double epoch_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

// Every port's error counters now (64-bit where the PMA has them).
ib::Reading read_now(Ctx& c, MadSession& s, const ib::Fabric& f, ib::SweepOptions o) {
  o.every_port = true;
  o.wide_errors = true;
  o.extended = false;
  o.details = false;
  double t = epoch_seconds();
  ib::ErrorSweep sweep = ib::sweep_errors(s.engine(), f, o);
  sweep_warnings(c, sweep, s);
  return ib::reading_of(f, sweep, t);
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

// A port with a finding: where it is, then each counter over its increase
// threshold ("symbol_errors 5->17 (+12, 4/s)"; JSON {"before", "after",
// "increase", "per_second"}) or not judged ("link_downed cannot judge:
// went down from 3 to 0 (reset or wrapped)"; JSON {"before", "after",
// "cannot_judge"}), then the flap ("flap "link down 3 times in 10 s"").
void change_record(const ib::PortIncrease& p, double seconds, view::Record& rec) {
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
  if (p.link_downs) {
    std::string flap = "link down " + std::to_string(p.link_downs) +
                       (p.link_downs == 1 ? " time in " : " times in ") + seconds_text(seconds);
    rec.pair_quoted("flap", flap);
  }
}

// The judgement: a line a port with a finding, then the summary line
// ("window: 20 ports compared over 10 s, 1 over threshold, 0 cannot be
// judged, 1 flapped"); JSON [{"ports": [...], "summary": {...}}].
void print_judgement(Ctx& c, const ib::WindowJudgement& j) {
  bool json = c.out.is_json();
  view::Record rec, doc;
  view::Json ports = view::Json::array();
  for (const ib::PortIncrease& p : j.ports) {
    rec.clear();
    change_record(p, j.seconds, rec);
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
  doc.add("summary", text,
          view::Json{{"window_seconds", j.seconds},
                     {"ports_compared", j.ports_compared},
                     {"ports_over_threshold", j.ports_over},
                     {"ports_cannot_judge", j.ports_cannot_judge},
                     {"ports_flapped", j.flaps}});
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
    out.record(rec);
  }
}

ib::Reading load_reading(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw Error("cannot read \"" + file + "\"");
  std::stringstream text;
  text << in.rdbuf();
  return ib::parse_reading(text.str(), file);
}

}  // namespace

void errors_window(Ctx& c, MadSession& s, const ib::Fabric& f, ib::SweepOptions o,
                   const WindowMode& m, view::Printer* metrics) {
  if (m.save) {
    ib::Reading now = read_now(c, s, f, o);
    view::ReplaceFile out(*m.save);
    std::string text = ib::reading_json(now);
    std::fwrite(text.data(), 1, text.size(), out.file());
    out.commit();
    return;
  }
  ib::Reading before = m.since ? load_reading(*m.since) : read_now(c, s, f, o);
  if (m.seconds) std::this_thread::sleep_for(std::chrono::seconds(*m.seconds));
  ib::Reading after = read_now(c, s, f, o);
  ib::WindowJudgement j = ib::judge_window(before, after, o.counters, o.thresholds, metrics);
  if (!metrics) return print_judgement(c, j);
  window_metrics(f, j, *metrics);
  if (j.ports_over) c.found();
}

std::vector<std::string> window_gauges() {
  std::vector<std::string> out;
  for (const mad::FieldDef* d : ib::error_counters())
    out.push_back(std::string(d->label) + "_increase");
  out.push_back("link_downs");
  return out;
}

}  // namespace rdma
