#include "rdma/ib/check.h"

#include <algorithm>
#include <optional>

#include "lib/error.h"
#include "lib/ib/check.h"
#include "lib/ib/check_run.h"
#include "lib/ib/finding_places.h"
#include "lib/mad/format.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/session.h"

namespace rdma {

void fabric_check(Ctx& c) {
  FabricSource src = c.args.take_source();
  const std::vector<std::string_view>& names = ib::check_names();
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
  // A session for the MADs: discovery, the tables and SMInfo (none when a
  // saved fabric is only read).
  bool mads = src.from.empty() || std::any_of(which.begin(), which.end(), ib::check_needs_mads);
  std::optional<MadSession> s;
  if (mads) s.emplace(c, src.via);
  ib::Fabric f = fabric_of(c, src, s ? &*s : nullptr, fabric_options(c));
  ib::CheckRun run = ib::run_checks(s ? &s->engine() : nullptr, f, which);
  c.warn(run.warnings);  // tables that could not be read
  std::vector<ib::Finding>& found = run.found;
  size_t by[3] = {};
  view::Record rec;
  for (const ib::Finding& x : found) {
    ++by[static_cast<int>(x.severity)];
    rec.clear();
    rec.pair("check", x.check);
    rec.pair("severity", ib::severity_name(x.severity));
    rec.pair_quoted("what", x.what);
    if (!x.where.empty()) rec.pair("where", ib::where_text(f, x.where), ib::where_json(f, x.where));
    c.out.record(rec);
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
  c.out.record(rec);
  if (by[0]) c.found();
}

}  // namespace rdma
