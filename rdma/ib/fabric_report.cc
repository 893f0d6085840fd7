// rdma fabric report DIR: one discovery, every check, the error sweep, and
// the files an admin hands on (lib/ib/report.h draws the page).
#include "rdma/ib/fabric_report.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "lib/error.h"
#include "lib/ib/cable_plan.h"
#include "lib/ib/cache.h"
#include "lib/ib/check_run.h"
#include "lib/ib/counter_window.h"
#include "lib/ib/errors.h"
#include "lib/ib/find.h"
#include "lib/ib/graphviz.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/port_labels.h"
#include "lib/ib/report.h"
#include "lib/ib/thresholds.h"
#include "lib/mad/format.h"
#include "lib/view/openmetrics.h"
#include "lib/view/replace_file.h"
#include "lib/view/time_text.h"
#include "rdma/ib/fabric_errors.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/session.h"
#include "rdma/words.h"

namespace rdma {

namespace {

// DIR, made when missing; Error naming it when it is not a directory.
void make_dir(const std::string& dir) {
  if (mkdir(dir.c_str(), 0777) == 0 || errno == EEXIST) {
    struct stat st;
    if (stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
    throw Error("report directory \"" + dir + "\" is not a directory");
  }
  throw Error("cannot make the report directory \"" + dir + "\": " + strerror(errno));
}

// A file of the report, replaced whole.
void write_file(const std::string& path, const std::string& text) {
  view::ReplaceFile f(path);
  if (std::fwrite(text.data(), 1, text.size(), f.file()) != text.size())
    throw Error("cannot write \"" + path + "\": " + strerror(errno));
  f.commit();
}

}  // namespace

void fabric_report(Ctx& c) {
  std::string dir = c.args.need("DIR (the report's directory)");
  std::string plan_file;
  std::optional<uint32_t> window;
  c.args.take_keyword_values(
      {"plan", "window"},
      [&](const std::string& k, const std::string& v) {
        if (k == "plan") {
          plan_file = v;
        } else {
          std::optional<uint64_t> n = view::parse_number(v, {.min = 1, .max = 86400});
          if (!n) throw UsageError("invalid window \"" + v + "\" (SECONDS, 1 to 86400)");
          window = static_cast<uint32_t>(*n);
        }
      },
      [](const std::string& k) {
        return k == "plan" ? std::string("missing PLAN after \"plan\"")
                           : std::string("missing SECONDS after \"window\"");
      });
  FabricSource src = c.args.take_source();
  c.args.done();
  make_dir(dir);
  // The plan first: a plan that cannot be read sends no MAD.
  std::optional<ib::Plan> plan;
  if (!plan_file.empty())
    plan = ib::load_plan(plan_file, ib::load_node_name_map(c.opt.node_name_map));

  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, fabric_options(c));
  // The picture's layout needs the fabric alone: dot lays it out (seconds
  // at thousands of nodes) while the checks and the sweep run; their marks
  // colour it after (mark_svg).
  ib::SvgJob picture(ib::report_dot(f, {}, {}));
  // Every check, the design's too (fattree, nodes); the errors check's
  // sweep reads every port, for counters.json and the rankings.
  std::vector<std::string> names(ib::check_names().begin(), ib::check_names().end());
  ib::SweepOptions o;
  o.every_port = true;
  // The site's thresholds, as fabric errors reads them.
  if (std::optional<std::string> file = ib::thresholds_file(std::nullopt))
    for (const std::string& w : o.thresholds.load(*file))
      std::fprintf(c.err, "warning: %s\n", w.c_str());
  ib::CheckRun run = ib::run_checks(&s.engine(), f, names, o);
  s.end_progress();
  const ib::ErrorSweep& sweep = *run.sweep;
  if (plan)
    for (const ib::PlanFinding& x : ib::check_plan(*plan, f).findings)
      run.found.push_back({"plan", x.severity, x.what, {}});
  if (window) {
    // The counter window: what rose over the window, judged by the
    // increase thresholds, never resetting (as fabric errors window).
    ib::SweepOptions wo = o;
    wo.wide_errors = true;
    auto read = [&] {
      double t = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                     .count();
      ib::ErrorSweep sw = ib::sweep_errors(s.engine(), f, wo);
      run.warnings.insert(run.warnings.end(), sw.warnings.begin(), sw.warnings.end());
      return ib::reading_of(f, sw, t);
    };
    ib::Reading before = read();
    std::this_thread::sleep_for(std::chrono::seconds(*window));
    ib::Reading after = read();
    ib::WindowJudgement j = ib::judge_window(before, after, wo.counters, wo.thresholds);
    for (const ib::PortIncrease& p : j.ports) {
      uint32_t n = f.index_of(p.after->node_guid).value();
      std::vector<ib::FindingPlace> where{ib::place(f, n, p.after->port)};
      std::string rose;
      for (const ib::CounterChange& k : p.counters)
        if (k.over)
          rose += (rose.empty() ? "" : ", ") + std::string(k.field->name) + " +" +
                  std::to_string(k.increase);
      if (!rose.empty())
        run.found.push_back(
            {"window", ib::Severity::Error,
             "error counters rose over their thresholds in " + std::to_string(*window) + " s",
             where, rose});
      if (p.link_downs)
        run.found.push_back({"window", ib::Severity::Error,
                             "link went down in " + std::to_string(*window) + " s (a flap)", where,
                             std::to_string(p.link_downs) + " times"});
    }
  }
  std::vector<ib::PortRef> over;
  for (const ib::PortCounters& p : sweep.ports)
    if (ib::over_threshold(p, o)) over.push_back(p.port);

  ib::Report r;
  r.source = !src.from.empty() ? src.from : !src.via.empty() ? src.via : "the local port";
  r.when = view::time_text("%Y-%m-%dT%H:%M:%SZ", true);
  r.version = RDMA_VERSION;
  r.nodes = f.nodes.size();
  for (const ib::Node& n : f.nodes) (n.is_switch() ? r.switches : r.cas)++;
  r.links = f.links().size();
  for (const std::string& n : names) {
    r.checks.emplace_back();
    r.checks.back().name = n;
  }
  if (plan) {
    r.checks.emplace_back();
    r.checks.back().name = "plan";
  }
  if (window) {
    r.checks.emplace_back();
    r.checks.back().name = "window";
  }
  for (const auto& [name, why] : run.skipped)
    for (ib::ReportCheck& k : r.checks)
      if (k.name == name) k.skipped = why;
  ib::count_findings(r.checks, run.found);
  r.groups = ib::report_groups(f, run.found);
  r.warnings = run.warnings;
  r.rankings = ib::rank_ports(f, sweep, 10);
  ib::Svg svg = picture.finish();
  if (!svg.svg.empty()) svg.svg = ib::mark_svg(svg.svg, f, run.found, over);
  r.svg = svg.svg;
  r.no_svg = svg.why;
  if (!svg.why.empty())
    std::fprintf(c.err, "warning: the report has no picture: %s\n", svg.why.c_str());
  r.files = {"fabric.json", "findings.json", "counters.json", "metrics.prom"};

  ib::save_fabric(f, dir + "/fabric.json");
  ib::ReportTotals t = ib::totals(r);
  view::Json summary = {{"verdict", ib::verdict(r)}, {"errors", t.errors}, {"warnings", t.warnings},
                        {"notes", t.notes},          {"nodes", r.nodes},   {"links", r.links},
                        {"not_read", r.warnings}};
  view::Json checks = view::Json::array();
  for (const ib::ReportCheck& k : r.checks)
    checks.push_back({{"check", k.name},
                      {"errors", k.errors},
                      {"warnings", k.warnings},
                      {"notes", k.notes},
                      {"skipped", k.skipped}});
  summary["checks"] = checks;
  view::Json list = view::Json::array();
  for (const ib::Finding& x : run.found)
    list.push_back({{"check", x.check},
                    {"severity", ib::severity_name(x.severity)},
                    {"what", x.what},
                    {"detail", x.detail},
                    {"where", ib::where_json(f, x.where)}});
  write_file(dir + "/findings.json",
             view::Json{{"summary", summary}, {"findings", list}}.dump(2) + "\n");
  {
    view::ReplaceFile file(dir + "/counters.json");
    std::unique_ptr<view::Printer> out = view::make_json_printer(file.file(), true);
    view::Record rec;
    for (const ib::PortCounters& p : sweep.ports) {
      rec.clear();
      errors_record(f, p, o, true, rec);
      out->record(rec);
    }
    out->finish();
    std::fputc('\n', file.file());
    file.commit();
  }
  {
    view::ReplaceFile file(dir + "/metrics.prom");
    view::MetricsSpec spec = ib::port_metrics_spec();
    spec.format = view::MetricsFormat::Prometheus;
    std::unique_ptr<view::MetricsPrinter> out = view::make_openmetrics_printer(file.file(), spec);
    errors_metrics(f, sweep, o, *out);
    // The verdict and each check's findings, for an alert on the report.
    out->gauge("rdma_ib_fabric_report_healthy",
               "1 when the report found no error and read the whole fabric",
               t.errors == 0 && r.warnings.empty());
    for (const ib::ReportCheck& k : r.checks) {
      if (!k.skipped.empty()) continue;
      std::string base = "rdma_ib_fabric_report_" + view::metric_name(k.name) + "_";
      out->gauge(base + "errors", "findings of severity error of the " + k.name + " check",
                 static_cast<double>(k.errors));
      out->gauge(base + "warnings", "findings of severity warning of the " + k.name + " check",
                 static_cast<double>(k.warnings));
      out->gauge(base + "notes", "findings of severity info of the " + k.name + " check",
                 static_cast<double>(k.notes));
    }
    out->finish();
    file.commit();
  }
  write_file(dir + "/report.html", ib::report_html(r));

  c.warn(r.warnings);  // what could not be read: a partial report
  // One record: the page and the verdict as a line of text; in JSON the
  // page and findings.json's summary as members of the same object.
  view::Record rec;
  rec.add("report",
          dir + "/report.html: fabric " + ib::verdict(r) + ": " + std::to_string(t.errors) +
              " errors, " + std::to_string(t.warnings) + " warnings, " + std::to_string(t.notes) +
              " notes",
          dir + "/report.html");
  for (auto& [key, value] : summary.items()) rec.add(key, "", value);
  c.out.record(rec);
  if (t.errors || !r.warnings.empty()) c.found();
}

}  // namespace rdma
