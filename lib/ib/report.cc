#include "lib/ib/report.h"

#include <algorithm>
#include <map>

#include "lib/ib/dot.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

// A port as the report names it, with the other end of its cable.
RankedPort ranked(const Fabric& f, PortRef p, std::string value) {
  RankedPort r{where_text(f, {place(f, p.node, p.port)}), "", std::move(value)};
  if (const Port* port = f.nodes[p.node].port(p.port); port && port->peer)
    r.peer = where_text(f, {place(f, port->peer->node, port->peer->port)});
  return r;
}

template <typename Value>
Ranking rank(const Fabric& f, const ErrorSweep& sweep, size_t n, const char* title,
             const char* none, const char* unit, Value value) {
  std::vector<const PortCounters*> ports;
  for (const PortCounters& p : sweep.ports)
    if (value(p)) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(), [&](const PortCounters* a, const PortCounters* b) {
    return value(*a) > value(*b);
  });
  if (ports.size() > n) ports.resize(n);
  Ranking r{title, none, {}};
  for (const PortCounters* p : ports)
    r.ports.push_back(ranked(f, p->port, std::to_string(value(*p)) + " " + unit));
  return r;
}

}  // namespace

std::vector<Ranking> rank_ports(const Fabric& f, const ErrorSweep& sweep, size_t n) {
  const mad::FieldDef& wait = *mad::find_field(mad::kPortCounters, "PortXmitWait");
  const mad::FieldDef& downed = *mad::find_field(mad::kPortCounters, "LinkDownedCounter");
  // Waiting to send and the times down have rankings of their own.
  auto errors = [&](const PortCounters& p) {
    uint64_t sum = 0;
    for (const mad::FieldDef* d : error_counters())
      if (d != &wait && d != &downed) sum += p.get(*d);
    return sum;
  };
  return {rank(f, sweep, n, "errors", "no error counted on any port", "errors", errors),
          rank(f, sweep, n, "waits", "no port waited to send", "ticks waiting",
               [&](const PortCounters& p) { return p.get(wait); }),
          rank(f, sweep, n, "flaps", "no link went down", "times down",
               [&](const PortCounters& p) { return p.get(downed); })};
}

std::vector<FindingGroup> report_groups(const Fabric& f, const std::vector<Finding>& found) {
  std::vector<FindingGroup> groups;
  for (const std::vector<size_t>& kind : group_findings(found)) {
    const Finding& first = found[kind[0]];
    FindingGroup& g =
        groups.emplace_back(FindingGroup{first.check, first.severity, first.what, {}});
    for (size_t i : kind) {
      // A member is where, and what is its own (the counters and values).
      const Finding& x = found[i];
      std::string member = where_text(f, x.where);
      if (!x.detail.empty()) member += (member.empty() ? "" : ": ") + x.detail;
      if (!member.empty()) g.members.push_back(std::move(member));
    }
  }
  std::stable_sort(groups.begin(), groups.end(), [](const FindingGroup& a, const FindingGroup& b) {
    return a.severity < b.severity;
  });
  return groups;
}

void count_findings(std::vector<ReportCheck>& checks, const std::vector<Finding>& found) {
  for (const Finding& x : found) {
    auto it = std::find_if(checks.begin(), checks.end(),
                           [&](const ReportCheck& c) { return c.name == x.check; });
    if (it == checks.end()) {
      checks.emplace_back();
      checks.back().name = x.check;
      it = checks.end() - 1;
    }
    (x.severity == Severity::Error     ? it->errors
     : x.severity == Severity::Warning ? it->warnings
                                       : it->notes)++;
  }
}

ReportTotals totals(const Report& r) {
  ReportTotals t;
  for (const ReportCheck& c : r.checks) {
    t.errors += c.errors;
    t.warnings += c.warnings;
    t.notes += c.notes;
  }
  return t;
}

std::string verdict(const Report& r) {
  ReportTotals t = totals(r);
  if (t.errors || !r.warnings.empty()) return "unhealthy";
  return t.warnings ? "healthy with warnings" : "healthy";
}

namespace {

// Switches above which the picture is laid out quickly rather than well.
constexpr size_t kBigPicture = 200;

// How an edge of the picture is drawn, worst last.
enum class Mark : uint8_t { None, Warning, Over, Error };

const char* mark_colour(Mark m) {
  switch (m) {
    case Mark::Error:
      return "red";
    case Mark::Over:
      return "magenta";
    case Mark::Warning:
      return "orange";
    case Mark::None:
      break;
  }
  return "black";
}

// s with dot's quote and escape characters escaped, for inside quotes.
std::string dot_escape(const std::string& s) {
  std::string q;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') q += '\\';
    q += ch;
  }
  return q;
}

std::string dot_quote(const std::string& s) {
  return "\"" + dot_escape(s) + "\"";
}

std::string node_id(const Node& n) {
  return dot_quote("S-" + mad::guid_hex(n.info.node_guid));
}

}  // namespace

namespace {

// Where the picture's marks go: each switch pair's links and worst mark,
// and each switch's CA links and their worst mark (its outline).
struct Edge {
  size_t links = 0;
  Mark mark = Mark::None;
};
struct PictureMarks {
  std::map<std::pair<uint32_t, uint32_t>, Edge> edges;  // (upper, lower) switches
  std::vector<size_t> cas;
  std::vector<Mark> ca_mark;
};

PictureMarks picture_marks(const Fabric& f, const std::vector<unsigned>& level,
                           const std::vector<Finding>& found, const std::vector<PortRef>& over) {
  // Each port's worst mark, from the findings and the ports over a
  // threshold; a CA port's mark goes to its switch's outline.
  std::map<std::pair<uint32_t, uint8_t>, Mark> port_mark;
  auto mark = [&](uint32_t node, uint8_t port, Mark m) {
    Mark& have = port_mark[{node, port}];
    have = std::max(have, m);
  };
  for (const Finding& x : found)
    if (x.severity != Severity::Info)
      for (const FindingPlace& w : x.where)
        if (w.port)
          mark(w.node, w.port, x.severity == Severity::Error ? Mark::Error : Mark::Warning);
  for (const PortRef& p : over) mark(p.node, p.port, Mark::Over);
  auto mark_of = [&](PortRef p) {
    auto it = port_mark.find({p.node, p.port});
    return it == port_mark.end() ? Mark::None : it->second;
  };
  PictureMarks pm;
  pm.cas.resize(f.nodes.size());
  pm.ca_mark.resize(f.nodes.size());
  for (const Link& l : f.links()) {
    bool sa = f.nodes[l.a.node].is_switch(), sb = f.nodes[l.b.node].is_switch();
    Mark m = std::max(mark_of(l.a), mark_of(l.b));
    if (sa && sb) {
      uint32_t up = l.a.node, down = l.b.node;
      if (level[up] < level[down] || (level[up] == level[down] && up > down)) std::swap(up, down);
      Edge& e = pm.edges[{up, down}];
      ++e.links;
      e.mark = std::max(e.mark, m);
    } else if (sa || sb) {
      uint32_t sw = sa ? l.a.node : l.b.node;
      ++pm.cas[sw];
      pm.ca_mark[sw] = std::max(pm.ca_mark[sw], m);
    }
  }
  return pm;
}

// The SVG ids of a switch and of a switch pair's edge: report_dot sets
// them so that mark_svg finds them (no "-": dot escapes it in SVG).
std::string svg_node_id(uint32_t n) {
  return "n" + std::to_string(n);
}
std::string svg_edge_id(uint32_t up, uint32_t down) {
  return "e" + std::to_string(up) + "_" + std::to_string(down);
}

}  // namespace

std::string report_dot(const Fabric& f, const std::vector<Finding>& found,
                       const std::vector<PortRef>& over) {
  std::vector<unsigned> level = node_levels(f);
  PictureMarks pm = picture_marks(f, level, found, over);
  const auto& edges = pm.edges;
  const auto& cas = pm.cas;
  const auto& ca_mark = pm.ca_mark;

  std::string out = "graph fabric {\n  node [shape=box, style=filled, fillcolor=lightblue];\n";
  std::map<unsigned, std::vector<uint32_t>, std::greater<>> by_level;
  size_t switches = 0;
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (f.nodes[n].is_switch()) {
      by_level[level[n]].push_back(n);
      ++switches;
    }
  // A large fabric laid out with dot's defaults took 31 s of CPU at 687
  // switches and 7,000 edges (past render_svg's 30 s: no picture); with
  // few network-simplex and crossing-minimising passes and straight edges,
  // 3 s. The levels (rank=same) still order the picture.
  if (switches > kBigPicture)
    out += "  graph [nslimit=0.2, nslimit1=0.2, mclimit=0.01, splines=line];\n";
  for (const auto& [lv, nodes] : by_level) {
    out += "  { rank=same; /* level " + std::to_string(lv) + " */";
    for (uint32_t n : nodes) out += " " + node_id(f.nodes[n]) + ";";
    out += " }\n";
  }
  for (const auto& [lv, nodes] : by_level)
    for (uint32_t n : nodes) {
      const Node& node = f.nodes[n];
      std::string label = dot_escape(node.description.empty() ? mad::guid_hex(node.info.node_guid)
                                                              : node.description);
      std::vector<uint16_t> lids = node.lids();
      if (!lids.empty()) label += "\\nlid " + std::to_string(lids[0]);
      if (cas[n])
        label += "\\n" + std::to_string(cas[n]) + (cas[n] == 1 ? " CA link" : " CA links");
      out += "  " + node_id(node) + " [id=\"" + svg_node_id(n) + "\", label=\"" + label + "\"";
      if (ca_mark[n] != Mark::None)
        out += std::string(", color=") + mark_colour(ca_mark[n]) + ", penwidth=3";
      out += "];\n";
    }
  for (const auto& [ends, e] : edges) {
    out += "  " + node_id(f.nodes[ends.first]) + " -- " + node_id(f.nodes[ends.second]);
    std::vector<std::string> attrs{"id=\"" + svg_edge_id(ends.first, ends.second) + "\""};
    if (e.links > 1) attrs.push_back("label=\"x" + std::to_string(e.links) + "\"");
    if (e.mark != Mark::None) {
      attrs.push_back(std::string("color=") + mark_colour(e.mark));
      attrs.push_back("penwidth=3");
    }
    out += " [";
    for (size_t i = 0; i < attrs.size(); ++i) out += (i ? ", " : "") + attrs[i];
    out += "];\n";
  }
  return out + "}\n";
}

std::string mark_svg(const std::string& svg, const Fabric& f, const std::vector<Finding>& found,
                     const std::vector<PortRef>& over) {
  PictureMarks pm = picture_marks(f, node_levels(f), found, over);
  std::map<std::string, Mark> marked;
  for (const auto& [ends, e] : pm.edges)
    if (e.mark != Mark::None) marked[svg_edge_id(ends.first, ends.second)] = e.mark;
  for (uint32_t n = 0; n < pm.ca_mark.size(); ++n)
    if (pm.ca_mark[n] != Mark::None) marked[svg_node_id(n)] = pm.ca_mark[n];
  if (marked.empty()) return svg;
  // One pass: each group of a marked id has its black strokes drawn in
  // the mark's colour, 3 wide (what dot draws for color= and penwidth=3).
  const std::string open = "<g id=\"", black = "stroke=\"black\"";
  std::string out;
  out.reserve(svg.size() + marked.size() * 32);
  size_t at = 0;
  for (size_t g; (g = svg.find(open, at)) != std::string::npos;) {
    size_t id_at = g + open.size(), id_end = svg.find('"', id_at);
    if (id_end == std::string::npos) break;
    auto it = marked.find(svg.substr(id_at, id_end - id_at));
    size_t close = svg.find("</g>", id_end);
    if (it == marked.end() || close == std::string::npos) {
      out.append(svg, at, id_end - at);
      at = id_end;
      continue;
    }
    out.append(svg, at, id_end - at);
    std::string paint =
        std::string("stroke=\"") + mark_colour(it->second) + "\" stroke-width=\"3\"";
    size_t p = id_end;
    for (size_t b; (b = svg.find(black, p)) != std::string::npos && b < close;) {
      out.append(svg, p, b - p);
      out += paint;
      p = b + black.size();
    }
    at = p;
  }
  out.append(svg, at, std::string::npos);
  return out;
}

}  // namespace rdma::ib
