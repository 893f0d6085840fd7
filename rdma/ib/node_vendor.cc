// rdma node ping TARGET [count N] [flood] | ping serve [count N]: ibping
// and its server (-S); rdma node sysstat TARGET [ping|host|cpu] | sysstat
// serve [count N]: ibsysstat and its server; rdma node vendor TARGET
// [general | xmitwait | groups [set G0 G1] [port N] | config read/write
// ...]: vendstat -N, -w, -i, -c, -R and -W. Words in, lines out; the MADs
// are lib/ib's.
#include "rdma/ib/node_vendor.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>

#include "lib/choices.h"
#include "lib/error.h"
#include "lib/ib/lid_route.h"
#include "lib/ib/mellanox.h"
#include "lib/ib/vendor.h"
#include "rdma/ib/session.h"
#include "rdma/stat_watch.h"
#include "rdma/words.h"

namespace rdma {

namespace {

// "12.345" (ms with three decimals, as ibping prints microseconds).
std::string ms_text(uint64_t us) {
  char b[32];
  std::snprintf(b, sizeof b, "%" PRIu64 ".%03" PRIu64, us / 1000, us % 1000);
  return b;
}

double ms(uint64_t us) {
  return static_cast<double>(us) / 1000.0;
}

// A line of its own in text (no JSON).
void text_line(Ctx& c, const std::string& text) {
  if (c.out.is_json()) return;
  view::Record r;
  r.add("", text, nullptr);
  c.out.record(r);
}

// The target's LID: these classes are GMPs, answered by LID only; a
// directed route (or a name found only by one) resolved as perf's.
uint16_t target_lid(MadSession& s, const mad::Target& t) {
  return ib::lid_route(s, s.route(t), "its vendor agent is reached by LID").lid;
}

uint64_t count_word(Ctx& c) {
  return need_number(c.args.need_word("count"), "count", {.min = 1, .max = UINT32_MAX});
}

// oui OUI: the vendor OUI the MADs carry (the diags' -o), 24 bits.
uint32_t oui_word(Ctx& c) {
  return static_cast<uint32_t>(
      need_number(c.args.need_word("OUI"), "oui", {.max = ib::kOuiMax, .c_bases = true}));
}

std::optional<mad::Target> need_target(Ctx& c, const char* cmd,
                                       std::initializer_list<const char*> keywords) {
  std::optional<mad::Target> t = c.args.target_or_name(keywords);
  if (!t)
    throw UsageError(std::string("missing target of node ") + cmd +
                     " (lid N, guid G, gid G, dr PATH or name NAME; or serve)");
  return t;
}

// ibping -S / ibsysstat -S: answers until count requests were answered or
// SIGINT/SIGTERM; -d says who was answered.
void serve(Ctx& c, ib::VendorServer which, const char* cmd) {
  uint64_t count = 0;
  ib::ServeInfo info = ib::local_serve_info();
  std::string via = c.args.take_via();
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "count"))
      count = count_word(c);
    else if (matches(k, "oui"))
      info.oui = oui_word(c);
    else
      throw UsageError(
          unknown_word(std::string("node ") + cmd + " serve argument", k, {"count", "oui"}));
  }
  if (!c.mad || !c.mad->find_port) throw Error("InfiniBand management is not available here");
  // Signals blocked first: threads the transport starts (umad2sim's
  // reader) inherit the mask, so SIGTERM ends the loop, not the process.
  std::unique_ptr<WatchClock> clock = signal_clock();
  mad::LocalPort local = c.mad->find_port(via.empty() ? c.opt.default_via : via);
  std::unique_ptr<mad::Transport> t = c.mad->open(local);
  uint64_t n = ib::vendor_serve(
      *t, which, info, count, [&] { return !clock->wait_until(clock->now()); },
      [&](uint16_t lid) {
        if (c.opt.details) std::fprintf(c.err, "answered lid %u\n", lid);
      });
  // As the diags' servers, nothing in text; JSON says how many.
  if (!c.out.is_json()) return;
  view::Record r;
  r.pair("answered", n);
  c.out.record(r);
}

}  // namespace

void node_ping(Ctx& c) {
  if (!c.args.empty() && c.args.peek() == "serve") {
    c.args.next();
    return serve(c, ib::VendorServer::Ping, "ping");
  }
  std::optional<mad::Target> t = need_target(c, "ping", {"count", "flood", "oui"});
  std::string via = c.args.take_via();
  ib::PingRun run;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "count"))
      run.count = count_word(c);
    else if (matches(k, "flood"))
      run.flood = true;
    else if (matches(k, "oui"))
      run.oui = oui_word(c);
    else
      throw UsageError(unknown_word("node ping argument", k, {"count", "flood", "oui"}));
  }
  std::unique_ptr<WatchClock> clock = signal_clock();  // before the transport's threads
  MadSession s(c, via);
  s.end_progress();
  uint16_t lid = target_lid(s, *t);
  std::string where = "Lid " + std::to_string(lid);
  std::vector<uint64_t> rtts;
  ib::PingSummary sum = ib::ping_run(
      s, lid, run,
      [&](const ib::Pong& p) {
        rtts.push_back(p.rtt_us);
        if (!run.flood) {
          text_line(c,
                    "Pong from " + p.host + " (" + where + "): time " + ms_text(p.rtt_us) + " ms");
          c.out.flush();
        }
      },
      [&](const std::string& why) {
        if (c.opt.details) std::fprintf(c.err, "%s\n", why.c_str());
      },
      [&](int wait_ms) {
        return clock->wait_until(clock->now() + std::chrono::milliseconds(wait_ms));
      });
  if (c.out.is_json()) {
    view::Record r;
    r.add("target", "", "lid " + std::to_string(lid));
    r.add("host", "", sum.host);
    r.add("transmitted", "", sum.transmitted);
    r.add("received", "", sum.received);
    r.add("loss_percent", "", sum.loss_percent());
    r.add("time_ms", "", sum.elapsed_us / 1000);
    view::Json list = view::Json::array();
    for (uint64_t us : rtts) list.push_back(ms(us));
    r.add("rtt_ms", "", std::move(list));
    r.add("rtt_min_ms", "", ms(sum.min_us));
    r.add("rtt_avg_ms", "", ms(sum.avg_us()));
    r.add("rtt_max_ms", "", ms(sum.max_us));
    c.out.record(r);
  } else {
    text_line(c, "");
    text_line(c, "--- " + sum.host + " (" + where + ") ibping statistics ---");
    text_line(c, std::to_string(sum.transmitted) + " packets transmitted, " +
                     std::to_string(sum.received) + " received, " +
                     std::to_string(sum.loss_percent()) + "% packet loss, time " +
                     std::to_string(sum.elapsed_us / 1000) + " ms");
    text_line(c, "rtt min/avg/max = " + ms_text(sum.min_us) + "/" + ms_text(sum.avg_us()) + "/" +
                     ms_text(sum.max_us) + " ms");
  }
  if (sum.transmitted && !sum.received) {
    std::fprintf(
        c.err,
        "error: no answer from lid %u: is a ping server running there (rdma node ping serve)?\n",
        lid);
    c.status = 1;
  }
}

void node_sysstat(Ctx& c) {
  if (!c.args.empty() && c.args.peek() == "serve") {
    c.args.next();
    return serve(c, ib::VendorServer::Sysstat, "sysstat");
  }
  static const std::pair<const char*, ib::SysstatQuery> kQueries[] = {
      {"ping", ib::SysstatQuery::Ping},
      {"host", ib::SysstatQuery::Host},
      {"cpu", ib::SysstatQuery::Cpu}};
  std::optional<mad::Target> t = need_target(c, "sysstat", {"ping", "host", "cpu", "oui"});
  std::string via = c.args.take_via();
  const std::pair<const char*, ib::SysstatQuery>* q = nullptr;
  std::optional<uint32_t> oui;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    const std::pair<const char*, ib::SysstatQuery>* named = nullptr;
    for (const auto& e : kQueries)
      if (matches(k, e.first)) named = &e;
    if (matches(k, "oui") && !oui) {
      oui = oui_word(c);
    } else if (named && !q) {
      q = named;
    } else {
      std::vector<std::string> words;
      if (!q) words = {"ping", "host", "cpu"};
      if (!oui) words.push_back("oui");
      throw UsageError(unknown_word("node sysstat argument", k, words));
    }
  }
  if (!q) q = &kQueries[0];
  MadSession s(c, via);
  uint16_t lid = target_lid(s, *t);
  std::string answer = oui ? ib::sysstat(s, lid, q->second, *oui) : ib::sysstat(s, lid, q->second);
  s.end_progress();
  if (c.out.is_json()) {
    view::Record r;
    r.add("target", "", "lid " + std::to_string(lid));
    r.add("query", "", q->first);
    r.add("answer", "", answer);
    c.out.record(r);
    return;
  }
  if (q->second == ib::SysstatQuery::Ping) return text_line(c, "sysstat ping succeeded");
  // ibsysstat puts() the answer: the answer and one newline more. The cpu
  // answer's lines each end with one, so a blank line follows them (as
  // ibsysstat's); host's has none, so it is one line.
  for (size_t at = 0;;) {
    size_t nl = answer.find('\n', at);
    text_line(c, answer.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
}

namespace {

std::string hex_text(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

// A config space word's address, data or mask: hex as vendstat reads them.
uint32_t hex_word(Ctx& c, const char* name) {
  return static_cast<uint32_t>(
      need_number(c.args.need_word(name), name, {.max = UINT32_MAX, .hex = true}));
}

uint8_t byte_word(Ctx& c, const char* name) {
  return static_cast<uint8_t>(need_number(c.args.need_word(name), name, {.max = UINT8_MAX}));
}

// Config space records: "Config space record at 0x...: 0x..." (the data's
// masked bits), as vendstat -R and -W print them.
void print_records(Ctx& c, uint16_t lid, const std::vector<mad::ConfigRecord>& recs,
                   const char* op) {
  for (const mad::ConfigRecord& r : recs) {
    if (!c.out.is_json()) {
      text_line(c,
                "Config space record at " + hex_text(r.address) + ": " + hex_text(r.data & r.mask));
      continue;
    }
    view::Record j;
    j.add("target", "", "lid " + std::to_string(lid));
    j.add("op", "", op);
    j.add("address", "", r.address);
    j.add("data", "", r.data & r.mask);
    j.add("mask", "", r.mask);
    c.out.record(j);
  }
}

// vendstat -R/-W: config read ADDR [mask M] ..., config write ADDR VALUE
// [mask M] ...; the reads first, then the writes (each read back).
void vendor_config(Ctx& c, MadSession& s, uint16_t lid, const std::vector<mad::ConfigRecord>& reads,
                   const std::vector<mad::ConfigRecord>& writes) {
  std::vector<mad::ConfigRecord> got;
  if (!reads.empty()) got = ib::config_space_read(s, lid, reads);
  std::vector<mad::ConfigRecord> back;
  if (!writes.empty()) back = ib::config_space_write(s, lid, writes);
  s.end_progress();
  // The mask asked for, whatever the device echoes.
  for (size_t i = 0; i < got.size(); ++i) got[i].mask = reads[i].mask;
  for (size_t i = 0; i < back.size(); ++i) back[i].mask = writes[i].mask;
  print_records(c, lid, got, "read");
  print_records(c, lid, back, "write");
}

void vendor_xmit_wait(Ctx& c, MadSession& s, uint16_t lid) {
  std::vector<ib::XmitWait> waits = ib::is3_port_xmit_wait(s, lid);
  s.end_progress();
  if (!c.out.is_json()) {
    // As vendstat -w: the counters that are not 0.
    for (const ib::XmitWait& w : waits)
      if (w.value)
        text_line(c, "Port " + std::to_string(w.port) + ": PortXmitWait " + hex_text(w.value));
    return;
  }
  view::Record r;
  r.add("target", "", "lid " + std::to_string(lid));
  view::Json list = view::Json::array();
  for (const ib::XmitWait& w : waits) list.push_back({{"port", w.port}, {"xmit_wait", w.value}});
  r.add("xmit_wait", "", std::move(list));
  c.out.record(r);
}

struct VendorGroups {
  uint8_t port = 0;
  std::optional<mad::CounterGroupSelect> select;
};

void vendor_groups(Ctx& c, MadSession& s, uint16_t lid, const VendorGroups& g) {
  std::string target = "lid " + std::to_string(lid);
  if (g.select) {
    ib::config_counter_groups(s, lid, g.port, *g.select);
    s.end_progress();
    if (c.out.is_json()) {
      view::Record r;
      r.add("target", "", target);
      r.add("port", "", g.port);
      view::Json list = view::Json::array();
      for (uint8_t v : *g.select) list.push_back(v);
      r.add("selects", "", std::move(list));
      c.out.record(r);
      return;
    }
    return text_line(c, "counter_groups_config: configuring group0 " +
                            std::to_string((*g.select)[0]) + " group1 " +
                            std::to_string((*g.select)[1]));
  }
  mad::CounterGroupInfo info = ib::counter_group_info(s, lid, g.port);
  s.end_progress();
  if (c.out.is_json()) {
    view::Record r;
    r.add("target", "", target);
    r.add("port", "", g.port);
    r.add("groups", "", info.groups);
    view::Json list = view::Json::array();
    for (uint32_t m : info.masks) list.push_back(m);
    r.add("masks", "", std::move(list));
    c.out.record(r);
    return;
  }
  text_line(c, "counter_group_info:");
  text_line(c, std::to_string(info.groups) + " counter groups");
  char b[64];
  for (size_t i = 0; i < info.masks.size(); ++i) {
    std::snprintf(b, sizeof b, "group%zu mask %#x", i, info.masks[i]);
    text_line(c, b);
  }
}

}  // namespace

void node_vendor(Ctx& c) {
  static const char* const kWhat[] = {"general", "xmitwait", "groups", "config"};
  std::optional<mad::Target> t =
      need_target(c, "vendor", {"general", "xmitwait", "groups", "config"});
  std::string via = c.args.take_via();
  std::string what = "general";
  if (!c.args.empty()) {
    std::string k = c.args.next();
    const char* named = nullptr;
    for (const char* w : kWhat)
      if (!named && matches(k, w)) named = w;
    if (!named)
      throw UsageError(
          unknown_word("node vendor attribute", k, {"general", "xmitwait", "groups", "config"}));
    what = named;
  }
  VendorGroups groups;
  std::vector<mad::ConfigRecord> reads, writes;
  if (what == "groups") {
    while (!c.args.empty()) {
      std::string k = c.args.next();
      if (matches(k, "port")) {
        groups.port = byte_word(c, "port");
      } else if (matches(k, "set") && !groups.select) {
        mad::CounterGroupSelect sel{};
        for (uint8_t& v : sel) v = byte_word(c, "group");
        groups.select = sel;
      } else {
        throw UsageError(unknown_word("node vendor groups argument", k, {"port", "set"}));
      }
    }
  } else if (what == "config") {
    while (!c.args.empty()) {
      std::string k = c.args.next();
      std::vector<mad::ConfigRecord>* into = nullptr;
      mad::ConfigRecord r;
      if (matches(k, "read")) {
        into = &reads;
        r.address = hex_word(c, "address");
      } else if (matches(k, "write")) {
        into = &writes;
        r.address = hex_word(c, "address");
        r.data = hex_word(c, "value");
      } else {
        throw UsageError(unknown_word("node vendor config argument", k, {"read", "write"}));
      }
      if (!c.args.empty() && c.args.peek() == "mask") {
        c.args.next();
        r.mask = hex_word(c, "mask");
      }
      into->push_back(r);
    }
    if (reads.empty() && writes.empty())
      throw UsageError("node vendor config needs read ADDRESS or write ADDRESS VALUE");
    if (!reads.empty()) ib::check_config_records(reads.size(), "read");
    if (!writes.empty()) ib::check_config_records(writes.size(), "write");
  }
  c.args.done();
  MadSession s(c, via);
  uint16_t lid = target_lid(s, *t);
  if (what == "xmitwait") return vendor_xmit_wait(c, s, lid);
  if (what == "groups") return vendor_groups(c, s, lid, groups);
  if (what == "config") return vendor_config(c, s, lid, reads, writes);
  mad::MellanoxGeneralInfo g = ib::mellanox_general_info(s, lid);
  s.end_progress();
  char b[64];
  auto version = [&](uint32_t a, uint32_t b2, uint32_t c2) {
    std::snprintf(b, sizeof b, "%02u.%02u.%02u", a, b2, c2);
    return std::string(b);
  };
  auto hex = [&](uint32_t v, int w) {
    std::snprintf(b, sizeof b, "0x%0*x", w, v);
    return std::string(b);
  };
  std::snprintf(b, sizeof b, "%02x/%02x/%04x", g.fw_month, g.fw_day, g.fw_year);
  std::string date = b;
  std::string fw = version(g.fw_major, g.fw_minor, g.fw_sub_minor);
  std::string sw = version(g.sw_major, g.sw_minor, g.sw_sub_minor);
  // vendstat -N's lines; JSON the numbers as numbers.
  struct Line {
    const char* key;
    std::string text;
    view::Json json;
  };
  std::vector<Line> lines = {
      {"hw_dev_rev", "hw_dev_rev:  " + hex(g.hw_revision, 4), g.hw_revision},
      {"hw_dev_id", "hw_dev_id:   " + hex(g.device_id, 4), g.device_id},
      {"hw_uptime", "hw_uptime:   " + hex(g.uptime, 8), g.uptime},
      {"fw_version", "fw_version:  " + fw, fw},
      {"fw_build_id", "fw_build_id: " + hex(g.fw_build_id, 4), g.fw_build_id},
      {"fw_date", "fw_date:     " + date, date},
      {"fw_psid", "fw_psid:     '" + g.psid + "'", g.psid},
      {"fw_ini_ver", "fw_ini_ver:  " + std::to_string(g.fw_ini_version), g.fw_ini_version},
      {"sw_version", "sw_version:  " + sw, sw}};
  if (!c.out.is_json()) {
    for (const Line& l : lines) text_line(c, l.text);
    return;
  }
  view::Record r;
  r.add("target", "", "lid " + std::to_string(lid));
  for (const Line& l : lines) r.add(l.key, "", l.json);
  c.out.record(r);
}

}  // namespace rdma
