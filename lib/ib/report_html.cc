// report_html: the page of `rdma fabric report`. One HTML5 document with
// its style inline and no script, so that it opens from disk, mails as one
// file and shows the same with scripts off.
#include <algorithm>
#include <string>

#include "lib/ib/report.h"

namespace rdma::ib {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char ch : s) switch (ch) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += ch;
    }
  return o;
}

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Kept short: the verdict and the checks' table must fit the first screen.
const char* const kStyle = R"(
body { font-family: sans-serif; margin: 1em 2em; color: #222; }
h1 { margin: 0; font-size: 1.6em; }
h2 { font-size: 1.2em; margin: 1.2em 0 0.4em; }
.verdict { padding: 0.6em 1em; border-radius: 6px; }
.verdict p { margin: 0.3em 0 0; }
.healthy { background: #d8f0d8; border: 2px solid #2a8a2a; }
.warned { background: #fff2cc; border: 2px solid #c79100; }
.unhealthy { background: #f8d7d7; border: 2px solid #b22222; }
table { border-collapse: collapse; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: left; }
td.n { text-align: right; }
td.e:not(.zero) { color: #b22222; font-weight: bold; }
td.w:not(.zero) { color: #9a6a00; font-weight: bold; }
.zero { color: #999; }
details { margin: 0.2em 0; }
summary { cursor: pointer; }
.sev { display: inline-block; min-width: 5em; font-weight: bold; }
.sev-error { color: #b22222; }
.sev-warning { color: #9a6a00; }
.sev-info { color: #555; }
.count { color: #555; }
ul.members { font-family: monospace; font-size: 0.9em; }
.picture svg { max-width: 100%; height: auto; }
)";

const char* sev_class(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "info";
}

void count_cell(std::string& o, size_t n, const char* cls, const char* sev) {
  o += "<td class=\"n " + std::string(cls) + (n ? "" : " zero") + "\" data-severity=\"" + sev +
       "\">" + std::to_string(n) + "</td>";
}

}  // namespace

std::string report_html(const Report& r) {
  ReportTotals t = totals(r);
  std::string v = verdict(r);
  const char* cls = v == "healthy" ? "healthy" : v == "unhealthy" ? "unhealthy" : "warned";
  std::string o;
  o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  o += "<title>InfiniBand fabric report: " + esc(v) + "</title>\n<style>" + kStyle +
       "</style>\n</head>\n<body>\n";

  o += "<header id=\"verdict\" class=\"verdict " + std::string(cls) + "\" data-verdict=\"" +
       esc(v) + "\">\n<h1>Fabric " + esc(v) + ": " + plural(t.errors, "error", "errors") + ", " +
       plural(t.warnings, "warning", "warnings") + ", " + plural(t.notes, "note", "notes") +
       "</h1>\n";
  o += "<p>" + plural(r.nodes, "node", "nodes") + " (" + plural(r.switches, "switch", "switches") +
       ", " + plural(r.cas, "CA", "CAs") + "), " + plural(r.links, "link", "links") + "; from " +
       esc(r.source) + " at " + esc(r.when) + "; rdma " + esc(r.version) + "</p>\n";
  if (!r.warnings.empty())
    o += "<p>Partial: " + plural(r.warnings.size(), "part", "parts") +
         " of the fabric could not be read (below).</p>\n";
  o += "</header>\n";

  o += "<section id=\"summary\">\n<h2>Checks</h2>\n<table>\n<thead><tr><th>check</th>"
       "<th>errors</th><th>warnings</th><th>notes</th></tr></thead>\n<tbody>\n";
  for (const ReportCheck& c : r.checks) {
    o += "<tr data-check=\"" + esc(c.name) + "\"><td>" + esc(c.name) + "</td>";
    if (!c.skipped.empty()) {
      o += "<td colspan=\"3\" class=\"zero\">not run: " + esc(c.skipped) + "</td></tr>\n";
      continue;
    }
    count_cell(o, c.errors, "e", "error");
    count_cell(o, c.warnings, "w", "warning");
    count_cell(o, c.notes, "i", "info");
    o += "</tr>\n";
  }
  o += "</tbody>\n<tfoot><tr data-check=\"total\"><th>total</th>";
  count_cell(o, t.errors, "e", "error");
  count_cell(o, t.warnings, "w", "warning");
  count_cell(o, t.notes, "i", "info");
  o += "</tr></tfoot>\n</table>\n</section>\n";

  if (!r.warnings.empty()) {
    o += "<section id=\"warnings\">\n<h2>Not read</h2>\n<ul>\n";
    for (const std::string& w : r.warnings) o += "<li>" + esc(w) + "</li>\n";
    o += "</ul>\n</section>\n";
  }

  o += "<section id=\"findings\">\n<h2>Findings</h2>\n";
  if (r.groups.empty()) o += "<p>No findings.</p>\n";
  for (const FindingGroup& g : r.groups) {
    const char* s = sev_class(g.severity);
    o += "<details class=\"group\" data-check=\"" + esc(g.check) + "\" data-severity=\"" + s +
         "\" data-count=\"" + std::to_string(std::max<size_t>(g.members.size(), 1)) + "\">";
    o += "<summary><span class=\"sev sev-" + std::string(s) + "\">" + s + "</span> <b>" +
         esc(g.check) + "</b>: " + esc(g.what);
    if (g.members.size() > 1)
      o += " <span class=\"count\">(" + std::to_string(g.members.size()) + ")</span>";
    o += "</summary>\n";
    if (!g.members.empty()) {
      o += "<ul class=\"members\">\n";
      for (const std::string& m : g.members) o += "<li>" + esc(m) + "</li>\n";
      o += "</ul>\n";
    }
    o += "</details>\n";
  }
  o += "</section>\n";

  o += "<section id=\"worst\">\n<h2>Worst ports</h2>\n";
  for (const Ranking& k : r.rankings) {
    o += "<h3>By " + esc(k.title) + "</h3>\n";
    if (k.ports.empty()) {
      o += "<p>" + esc(k.none) + "</p>\n";
      continue;
    }
    o += "<table data-ranking=\"" + esc(k.title) + "\">\n<thead><tr><th>port</th><th>" +
         esc(k.title) + "</th><th>cabled to</th></tr></thead>\n<tbody>\n";
    for (const RankedPort& p : k.ports)
      o += "<tr><td>" + esc(p.port) + "</td><td>" + esc(p.value) + "</td><td>" + esc(p.peer) +
           "</td></tr>\n";
    o += "</tbody>\n</table>\n";
  }
  o += "</section>\n";

  o += "<section id=\"picture\" class=\"picture\">\n<h2>Switches</h2>\n";
  if (!r.svg.empty())
    o += "<p>Red: a link with an error; magenta: a port over an error threshold; orange: a "
         "warning. A switch outlined in colour has such a link to a CA.</p>\n" +
         r.svg + "\n";
  else
    o += "<p>No picture: " + esc(r.no_svg) + "</p>\n";
  o += "</section>\n";

  if (!r.files.empty()) {
    o += "<footer>\n<h2>Files</h2>\n<ul>\n";
    for (const std::string& f : r.files)
      o += "<li><a href=\"" + esc(f) + "\">" + esc(f) + "</a></li>\n";
    o += "</ul>\n</footer>\n";
  }
  o += "</body>\n</html>\n";
  return o;
}

}  // namespace rdma::ib
