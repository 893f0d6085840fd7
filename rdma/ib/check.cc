#include "rdma/ib/check.h"

#include <optional>

#include "lib/error.h"
#include "lib/ib/check.h"
#include "lib/ib/lfts.h"
#include "lib/mad/format.h"
#include "rdma/ib/fabric_errors.h"
#include "rdma/ib/session.h"

namespace rdma {

namespace {

enum Check : unsigned { kIds, kLinks, kSm, kRoutes, kCredit, kBalance, kErrors, kChecks };
const char* const kCheckNames[kChecks] = {"ids",    "links",   "sm",    "routes",
                                          "credit", "balance", "errors"};

// "\"sw1\" 0x0000000000200000 port 3 lid 2" for each place, "; " between.
void add_where(const ib::Fabric& f, const std::vector<ib::FindingPlace>& where, view::Record& rec,
               const char* key = "where") {
  std::string text;
  view::Json json = view::Json::array();
  for (const ib::FindingPlace& w : where) {
    const ib::Node& n = f.nodes[w.node];
    std::string guid = mad::guid_text(n.info.node_guid);
    text += (text.empty() ? "" : "; ") + mad::desc_text(n.description) + " " + guid;
    view::Json j = {{"node_guid", guid}, {"description", n.description}};
    const char* type = ib::node_type_name(n.info.node_type);
    j["type"] = type ? type : "unknown";
    if (w.port || !n.is_switch()) {
      text += " port " + std::to_string(w.port);
      j["port"] = w.port;
    }
    if (w.lid) {
      text += " lid " + std::to_string(w.lid);
      j["lid"] = w.lid;
    }
    if (w.port_guid) j["port_guid"] = mad::guid_text(w.port_guid);
    json.push_back(std::move(j));
  }
  rec.pair(key, text, std::move(json));
}

// `severity LEVEL`: error, warning or info (abbreviable).
ib::Severity parse_severity(const std::string& w) {
  for (ib::Severity s : {ib::Severity::Error, ib::Severity::Warning, ib::Severity::Info})
    if (matches(w, ib::severity_name(s))) return s;
  throw UsageError("unknown severity \"" + w + "\" (error, warning or info)");
}

// One finding a line.
void print_finding(Ctx& c, const ib::Fabric& f, const ib::Finding& x, view::Record& rec) {
  rec.clear();
  rec.pair("check", x.check);
  rec.pair("severity", ib::severity_name(x.severity));
  rec.pair_quoted("what", x.what);
  if (!x.detail.empty()) rec.pair_quoted("detail", x.detail);
  if (!x.where.empty()) add_where(f, x.where, rec);
  c.out.record(rec);
}

}  // namespace

void fabric_check(Ctx& c, FabricOf fabric_of) {
  FabricSource src = c.args.take_source();
  std::string since;
  ib::Severity level = ib::Severity::Info;  // all
  c.args.take_keyword_values(
      {"since", "severity"},
      [&](const std::string& k, const std::string& v) {
        if (k == "severity") {
          level = parse_severity(v);
        } else {
          if (v.empty()) throw UsageError("empty FILE after \"since\"");
          since = v;
        }
      },
      [](const std::string& k) {
        return k == "since"
                   ? std::string("missing FILE after \"since\"")
                   : std::string("missing LEVEL after \"severity\" (error, warning or info)");
      });
  bool want[kChecks] = {};
  bool any = false;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    unsigned i = 0;
    while (i < kChecks && !matches(k, kCheckNames[i])) ++i;
    if (i == kChecks)
      throw UsageError("unknown fabric check \"" + k +
                       "\" (ids, links, sm, routes, credit, balance or errors)");
    if (want[i])
      throw UsageError("fabric check \"" + std::string(kCheckNames[i]) + "\" given twice");
    want[i] = any = true;
  }
  if (!any)
    for (bool& w : want) w = true;
  // A session for the MADs: discovery, the tables, SMInfo and the PMAs
  // (none when a saved fabric is only read).
  bool mads = src.from.empty() || want[kSm] || want[kRoutes] || want[kCredit] || want[kBalance] ||
              want[kErrors];
  // The saved fabric first: a bad file is an error before any MAD.
  std::optional<ib::Fabric> before;
  if (!since.empty()) before = fabric_of(c, {.from = since, .via = ""}, nullptr);
  std::optional<MadSession> s;
  if (mads) s.emplace(c, src.via);
  ib::Fabric f = fabric_of(c, src, s ? &*s : nullptr);
  std::vector<ib::Finding> found;
  auto take = [&](std::vector<ib::Finding> v) {
    for (ib::Finding& x : v) found.push_back(std::move(x));
  };
  if (want[kIds]) take(ib::check_ids(f));
  if (want[kLinks]) take(ib::check_links(f));
  if (before) take(ib::check_since(*before, f));
  if (want[kSm]) take(ib::check_sm(s->engine(), f));
  if (want[kRoutes] || want[kCredit] || want[kBalance]) {
    std::vector<std::string> warnings;
    auto warn = [&] {  // tables that could not be read
      for (const std::string& w : warnings) std::fprintf(c.err, "warning: %s\n", w.c_str());
      if (!warnings.empty()) c.status = 1;
      warnings.clear();
    };
    ib::Lfts lfts = ib::read_lfts(s->engine(), f, warnings);
    warn();
    if (want[kRoutes]) {
      take(ib::check_routes(f, lfts));
      // The multicast tables too: the groups' trees.
      ib::Mfts mfts = ib::read_mfts(s->engine(), f, warnings);
      warn();
      take(ib::check_mfts(f, mfts));
    }
    if (want[kCredit]) {
      ib::VlMaps vls = ib::read_sl2vls(s->engine(), f);
      take(ib::check_credit(f, lfts, &vls));
    }
    if (want[kBalance]) take(ib::check_balance(f, lfts));
  }
  if (want[kErrors]) {
    // As `fabric errors` sweeps: its counters and thresholds.
    ib::SweepOptions o;
    ib::ErrorSweep sweep = ib::sweep_errors(s->engine(), f, o);
    sweep_warnings(c, sweep, *s);
    take(ib::check_errors(f, sweep, o));
  }
  std::erase_if(found, [&](const ib::Finding& x) { return !ib::at_least(x.severity, level); });
  size_t by[3] = {};
  for (const ib::Finding& x : found) ++by[static_cast<int>(x.severity)];
  view::Record rec;
  if (c.out.is_json() || c.opt.details) {
    for (const ib::Finding& x : found) print_finding(c, f, x, rec);
  } else {
    // Text: a kind of finding once, with how many there are and the first
    // one's place; -d lists them all.
    for (const std::vector<size_t>& group : ib::group_findings(found)) {
      const ib::Finding& x = found[group[0]];
      if (group.size() == 1) {
        print_finding(c, f, x, rec);
        continue;
      }
      rec.clear();
      rec.pair("check", x.check);
      rec.pair("severity", ib::severity_name(x.severity));
      rec.pair_quoted("what", x.what);
      rec.pair("count", group.size());
      if (!x.where.empty()) add_where(f, x.where, rec, "first");
      c.out.record(rec);
    }
  }
  auto count = [](size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::string checks;
  for (unsigned i = 0; i < kChecks; ++i)
    if (want[i]) checks += (checks.empty() ? "" : ",") + std::string(kCheckNames[i]);
  rec.clear();
  rec.add("summary",
          "summary: " + count(f.nodes.size(), "node", "nodes") + " checked (" + checks + "), " +
              count(by[0], "error", "errors") + ", " + count(by[1], "warning", "warnings") + ", " +
              count(by[2], "note", "notes"),
          view::Json{{"nodes_checked", f.nodes.size()},
                     {"checks", checks},
                     {"errors", by[0]},
                     {"warnings", by[1]},
                     {"notes", by[2]}});
  // JSON: the findings only, one shape (a summary would be a record of
  // another kind); counting them is the reader's.
  if (!c.out.is_json()) c.out.record(rec);
  if (by[0]) c.status = 1;
}

}  // namespace rdma
