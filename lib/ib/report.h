// `rdma fabric report`: one health report of a fabric, from the findings of
// every check and the worst ports of the error sweep, as a page a browser
// opens from disk (report_html) with the fabric's switches drawn by
// Graphviz (report_dot). Plain structs in, text out: the command gathers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/ib/check.h"
#include "lib/ib/errors.h"
#include "lib/ib/fabric_model.h"
#include "lib/ib/finding_places.h"

namespace rdma::ib {

// One check of the report: its findings counted by severity, or why it did
// not run ("needs a live fabric").
struct ReportCheck {
  std::string name;
  size_t errors = 0, warnings = 0, notes = 0;
  std::string skipped;  // empty: it ran
};

// Findings that say the same thing (check, severity and text) about
// different places, as one row with its members.
struct FindingGroup {
  std::string check;
  Severity severity = Severity::Error;
  std::string what;
  std::vector<std::string> members;  // each finding's places and detail, as text
};

// A port of a ranking (the worst by errors, by waits, by flaps).
struct RankedPort {
  std::string port;   // "\"leaf1\" 0x... port 3 lid 2"
  std::string peer;   // the other end of its cable, "" when none
  std::string value;  // what it is ranked by, as text ("12 symbol errors")
};

struct Ranking {
  std::string title;  // "errors", "waits", "flaps"
  std::string none;   // said when ports is empty ("no port over a threshold")
  std::vector<RankedPort> ports;
};

struct Report {
  std::string source;   // "mlx5_0/1" or the saved file's name
  std::string when;     // the time of the run, UTC, ISO 8601
  std::string version;  // rdma's
  size_t nodes = 0, switches = 0, cas = 0, links = 0;
  std::vector<ReportCheck> checks;
  std::vector<FindingGroup> groups;  // errors first, then warnings, then notes
  std::vector<Ranking> rankings;
  std::vector<std::string> warnings;  // what could not be read: a partial report
  std::string svg;                    // the picture, "" when there is none
  std::string no_svg;                 // why there is none
  std::vector<std::string> files;     // the other files written beside the page
};

// The worst n ports of a sweep of every port by their error counters'
// sum, by the ticks they waited to send (PortXmitWait) and by the times
// their link went down (LinkDownedCounter); ports at 0 are left out.
std::vector<Ranking> rank_ports(const Fabric& f, const ErrorSweep& sweep, size_t n);

// The report's groups: group_findings()'s kinds (check, severity, text), in
// the order of their first member, errors first, then warnings, then notes,
// each with its members' places and details as text.
std::vector<FindingGroup> report_groups(const Fabric& f, const std::vector<Finding>& found);

// Counts findings into the report's checks by name (a check not in checks
// is added at the end).
void count_findings(std::vector<ReportCheck>& checks, const std::vector<Finding>& found);

// Totals over the checks.
struct ReportTotals {
  size_t errors = 0, warnings = 0, notes = 0;
};
ReportTotals totals(const Report& r);

// "healthy", "healthy with warnings" or "unhealthy" (errors, or a partial
// sweep: what was not read cannot be called healthy).
std::string verdict(const Report& r);

// The page: one self-contained HTML5 document (no script, no external
// style, font or image), the verdict first, then the checks' counts, the
// sweep's warnings, the findings grouped (each group expands to its
// members), the rankings and the picture.
std::string report_html(const Report& r);

// The fabric's switches as a dot graph for the report's picture: a node per
// switch ranked by level (node_levels), labelled with its name and the CAs
// cabled to it, one edge per pair of linked switches with the number of
// links; an edge is red when one of its links has an error finding, orange
// for a warning, magenta when a port of it is in `over` (error counters
// over a threshold, which wins over "degraded"). CAs are counted, not
// drawn: a picture of thousands of hosts says less than their counts.
std::string report_dot(const Fabric& f, const std::vector<Finding>& found,
                       const std::vector<PortRef>& over);

// dot's SVG of report_dot(f, {}, {}) with the marks report_dot(f, found,
// over) would have drawn: the picture is laid out from the fabric alone
// while the checks run, and coloured by their findings after.
std::string mark_svg(const std::string& svg, const Fabric& f, const std::vector<Finding>& found,
                     const std::vector<PortRef>& over);

}  // namespace rdma::ib
