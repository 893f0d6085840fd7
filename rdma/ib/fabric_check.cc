#include "rdma/ib/fabric_check.h"

#include <algorithm>
#include <optional>

#include "lib/error.h"
#include "lib/ib/check.h"
#include "lib/ib/check_run.h"
#include "lib/ib/finding_places.h"
#include "lib/ib/thresholds.h"
#include "lib/mad/format.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/session.h"

namespace rdma {

namespace {

// `severity LEVEL`: error, warning or info (abbreviable).
ib::Severity parse_severity(const std::string& w) {
  for (ib::Severity s : {ib::Severity::Error, ib::Severity::Warning, ib::Severity::Info})
    if (matches(w, ib::severity_name(s))) return s;
  throw UsageError(unknown_word("severity", w, {"error", "warning", "info"}));
}

// One finding a line (key: where its places go; "first" for a group's).
void print_finding(Ctx& c, const ib::Fabric& f, const ib::Finding& x, view::Record& rec) {
  rec.clear();
  rec.pair("check", x.check);
  rec.pair("severity", ib::severity_name(x.severity));
  rec.pair_quoted("what", x.what);
  if (!x.detail.empty()) rec.pair_quoted("detail", x.detail);
  if (!x.where.empty()) rec.pair("where", ib::where_text(f, x.where), ib::where_json(f, x.where));
  c.out.record(rec);
}

}  // namespace

void fabric_check(Ctx& c) {
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
  const std::span<const std::string_view> names = ib::check_names();
  std::vector<bool> want(names.size());
  while (!c.args.empty()) {
    std::string k = c.args.next();
    size_t i = 0;
    while (i < names.size() && !matches(k, names[i].data())) ++i;
    if (i == names.size())
      throw UsageError(
          unknown_word("fabric check", k, std::vector<std::string>(names.begin(), names.end())));
    // "ids ids" is a slip, not a wish to check twice.
    if (want[i]) throw UsageError("fabric check \"" + std::string(names[i]) + "\" given twice");
    want[i] = true;
  }
  // None named: every check but those that judge the fabric's design.
  if (std::find(want.begin(), want.end(), true) == want.end())
    for (size_t i = 0; i < names.size(); ++i) want[i] = ib::check_by_default(names[i]);
  std::vector<std::string> which;
  for (size_t i = 0; i < names.size(); ++i)
    if (want[i]) which.emplace_back(names[i]);
  // The saved fabric first: a bad file is an error before any MAD.
  std::optional<ib::Fabric> before;
  if (!since.empty()) before = fabric_of(c, {.from = since, .via = ""}, nullptr, fabric_options(c));
  // A session for the MADs: discovery, the tables, SMInfo and the PMAs
  // (none when a saved fabric is only read).
  bool mads = src.from.empty() || std::any_of(which.begin(), which.end(), ib::check_needs_mads);
  std::optional<MadSession> s;
  if (mads) s.emplace(c, src.via);
  ib::Fabric f = fabric_of(c, src, s ? &*s : nullptr, fabric_options(c));
  // The errors check judges by the site's thresholds, as fabric errors does.
  ib::SweepOptions sweep;
  if (std::optional<std::string> file = ib::thresholds_file(std::nullopt))
    for (const std::string& w : sweep.thresholds.load(*file))
      std::fprintf(c.err, "warning: %s\n", w.c_str());
  ib::CheckRun run = ib::run_checks(s ? &s->engine() : nullptr, f, which, sweep);
  if (s) s->end_progress();
  c.warn(run.warnings);  // tables and PMAs that could not be read
  std::vector<ib::Finding>& found = run.found;
  if (before)
    for (ib::Finding& x : ib::check_since(*before, f)) found.push_back(std::move(x));
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
      if (!x.where.empty())
        rec.pair("first", ib::where_text(f, x.where), ib::where_json(f, x.where));
      c.out.record(rec);
    }
  }
  auto count = [](size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::string checks;
  for (const std::string& name : which) checks += (checks.empty() ? "" : ",") + name;
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
  if (by[0]) c.found();
}

}  // namespace rdma
