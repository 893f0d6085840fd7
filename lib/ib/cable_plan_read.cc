// The plan's three file formats (lib/ib/cable_plan.h): a saved fabric, a topology
// file, a cable-plan CSV; and the CSV written back.
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <regex>
#include <sstream>

#include "lib/error.h"
#include "lib/ib/cable_plan.h"
#include "lib/ib/cache.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/topology_lines.h"
#include "lib/ib/topology_read.h"
#include "lib/ib/types.h"
#include "lib/mad/format.h"
#include "lib/view/number.h"
#include "lib/view/read_text.h"
#include "lib/view/trim.h"

namespace rdma::ib {

using view::trim;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<mad::Generation> generation_named(const std::string& s) {
  for (unsigned g = 1; g <= static_cast<unsigned>(mad::Generation::Xdr); ++g) {
    const char* n = mad::generation_name(static_cast<mad::Generation>(g));
    if (n && lower(n) == lower(s)) return static_cast<mad::Generation>(g);
  }
  return std::nullopt;
}

// A number of the file (its digits matched already) from min to max: an
// Error naming the place otherwise (std::stoul would throw out_of_range, or
// a cast cut it to another port). A cable's port is 1-254, as a CSV plan's:
// port 0 is a switch's management port, with no cable.
uint64_t file_number(const std::string& s, bool hex, uint64_t max, const std::string& where,
                     const char* what, uint64_t min = 0) {
  std::optional<uint64_t> v = view::parse_number(s, {.min = min, .max = max, .hex = hex});
  if (!v) throw Error(where + ": " + what + " " + s + " is out of range");
  return *v;
}

bool valid_lanes(unsigned n) {
  return n == 1 || n == 2 || n == 4 || n == 8 || n == 12;
}

// Adds the plan's cables, through add() unless a name is two nodes' (then
// the checker calls the name ambiguous; its cables are kept as read).
void add_all(Plan& p, std::vector<PlanLink> links) {
  for (PlanLink& l : links) {
    if (p.nodes[l.a.node].count > 1 || p.nodes[l.b.node].count > 1)
      p.links.push_back(std::move(l));
    else
      p.add(std::move(l));
  }
}

// One CSV record's fields (RFC 4180 quoting, within the line).
std::vector<std::string> csv_fields(const std::string& line, const std::string& where) {
  std::vector<std::string> out;
  std::string f;
  size_t i = 0;
  for (;;) {
    f.clear();
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size()) throw Error(where + ": a quoted field is not closed");
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            f += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        f += line[i++];
      }
      while (i < line.size() && line[i] != ',') {
        if (line[i] != ' ' && line[i] != '\r') throw Error(where + ": text after a quoted field");
        ++i;
      }
      out.push_back(f);
    } else {
      while (i < line.size() && line[i] != ',') f += line[i++];
      out.push_back(trim(f));
    }
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return out;
}

unsigned port_number(const std::string& text, const std::string& where, const char* column) {
  std::string s = trim(text);
  if (lower(s).rfind("port", 0) == 0) s = trim(s.substr(4));
  // Blanks and a sign after "port", as strtoul took them.
  std::optional<uint64_t> v =
      view::parse_number(s, {.min = 1, .max = 254, .blanks_and_sign = true});
  if (!v) throw Error(where + ": " + column + " \"" + text + "\" is not a port number (1-254)");
  return static_cast<unsigned>(*v);
}

}  // namespace

Plan parse_plan_csv(const std::string& text, const std::string& file) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  enum Col { kStartDev, kStartPort, kEndDev, kEndPort, kType, kWidth, kSpeed, kCols };
  static const char* const kNames[kCols] = {"startdevice", "startport", "enddevice", "endport",
                                            "linktype",    "width",     "speed"};
  int col[kCols];
  std::fill(col, col + kCols, -1);
  bool header = false;
  std::vector<PlanLink> links;
  Plan p;
  while (std::getline(in, line)) {
    ++lineno;
    std::string where = file + ":" + std::to_string(lineno);
    if (trim(line).empty()) continue;
    std::vector<std::string> f = csv_fields(line, where);
    if (!header) {
      for (size_t i = 0; i < f.size(); ++i) {
        std::string k;
        for (char c : lower(f[i]))
          if (c != ' ' && c != '#' && c != '_' && c != '-') k += c;
        for (int c = 0; c < kCols; ++c)
          if (k == kNames[c]) col[c] = static_cast<int>(i);
      }
      for (int c = 0; c <= kEndPort; ++c)
        if (col[c] < 0)
          throw Error(where +
                      ": the header must name StartDevice, StartPort, EndDevice and EndPort "
                      "(and may name LinkType, Width, Speed)");
      header = true;
      continue;
    }
    if (trim(line)[0] == '#') continue;
    auto field = [&](int c) -> std::string {
      return col[c] >= 0 && static_cast<size_t>(col[c]) < f.size() ? f[col[c]] : "";
    };
    if (col[kType] >= 0 && !field(kType).empty() && lower(field(kType)) != "data") continue;
    PlanLink l;
    l.where = where;
    l.a.node = field(kStartDev);
    l.b.node = field(kEndDev);
    if (l.a.node.empty() || l.b.node.empty()) throw Error(where + ": a device name is empty");
    l.a.port = port_number(field(kStartPort), where, "StartPort");
    l.b.port = port_number(field(kEndPort), where, "EndPort");
    if (std::string w = lower(field(kWidth)); !w.empty()) {
      if (w.rfind("ib_", 0) == 0) w = w.substr(3);
      if (!w.empty() && w.back() == 'x') w.pop_back();
      // Blanks and a sign, as strtoul took them.
      std::optional<uint64_t> v = view::parse_number(w, {.max = 12, .blanks_and_sign = true});
      if (!v || !valid_lanes(static_cast<unsigned>(*v)))
        throw Error(where + ": Width \"" + field(kWidth) + "\" is not 1X, 2X, 4X, 8X or 12X");
      l.lanes = static_cast<unsigned>(*v);
    }
    if (std::string s = field(kSpeed); !s.empty()) {
      std::optional<mad::Generation> g = generation_named(s);
      if (!g)
        throw Error(where + ": Speed \"" + s +
                    "\" is not SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR");
      l.speed = *g;
    }
    p.add(std::move(l));
  }
  if (!header) throw Error(file + ": no header line (StartDevice,StartPort,EndDevice,EndPort)");
  return p;
}

Plan parse_plan_topology(const std::string& text, const std::string& file,
                         const NodeNameMap& names) {
  static const std::regex kGuid(R"re(^(switchguid|caguid|rtguid)=(0x[0-9a-fA-F]+).*$)re");
  static const std::regex kIdGuid(R"re(^[SHR]-([0-9a-fA-F]{1,16})$)re");
  static const std::regex kDesc(R"re(#\s*"([^"]*)")re");
  static const std::regex kRate(R"re(\b(\d+)x(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)\b)re");
  struct Declared {
    std::string name;
    int line = 0;
  };
  struct HalfCable {
    std::string node_id, peer_id;
    unsigned port = 0, peer_port = 0, lanes = 0;
    mad::Generation speed = mad::Generation::Unknown;
    int line = 0;
  };
  std::map<std::string, Declared> ids;
  std::vector<HalfCable> halves;
  Plan p;
  std::istringstream in(text);
  std::string line, current;
  uint64_t guid = 0;
  int lineno = 0;
  std::smatch m;
  while (std::getline(in, line)) {
    ++lineno;
    std::string where = file + ":" + std::to_string(lineno);
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (std::regex_match(t, m, kGuid)) {
      guid = file_number(m[2].str(), true, UINT64_MAX, where, "GUID");
    } else if (std::optional<TopologyNodeLine> nl = topology_node_line(t)) {
      current = nl->id;
      std::string rest = nl->rest;
      std::smatch d;
      std::string name = std::regex_search(rest, d, kDesc) ? d[1].str() : current;
      std::smatch g;
      if (!guid && std::regex_match(current, g, kIdGuid))
        guid = file_number(g[1].str(), true, UINT64_MAX, where, "GUID");
      if (guid) name = names.name(guid, name);
      if (name.empty() && guid) name = mad::guid_hex(guid);  // as plan_name names it
      if (!ids.emplace(current, Declared{name, lineno}).second)
        throw Error(where + ": node \"" + current + "\" is declared twice");
      auto [it, fresh] = p.nodes.try_emplace(name);
      PlanNode& pn = it->second;
      if (!fresh) {
        ++pn.count;
        pn.guid = 0;
      } else {
        pn.guid = guid;
        pn.type = nl->type == "Switch" ? static_cast<uint8_t>(NodeType::Switch)
                  : nl->type == "Rt"   ? static_cast<uint8_t>(NodeType::Router)
                                       : static_cast<uint8_t>(NodeType::Ca);
      }
      guid = 0;
    } else if (std::optional<TopologyPortLine> pl = topology_port_line(t)) {
      if (current.empty()) throw Error(where + ": a port line before any node line");
      HalfCable h{current,
                  pl->peer_id,
                  static_cast<unsigned>(file_number(pl->port, false, 254, where, "port", 1)),
                  static_cast<unsigned>(file_number(pl->peer_port, false, 254, where, "port", 1)),
                  0,
                  mad::Generation::Unknown,
                  lineno};
      std::string rest = pl->rest;
      std::smatch r;
      if (std::regex_search(rest, r, kRate)) {
        h.lanes = static_cast<unsigned>(file_number(r[1].str(), false, 255, where, "width"));
        h.speed = *generation_named(r[2].str());
      }
      halves.push_back(std::move(h));
    } else if (t.find('=') == std::string::npos) {
      throw Error(where + ": not a node, port or value line: " + t);
    }
  }
  // Each cable once, from the end declared first; the other end's line,
  // when the file has one, must say the same.
  std::map<std::pair<std::string, unsigned>, const HalfCable*> by_end;
  for (const HalfCable& h : halves) by_end[{h.node_id, h.port}] = &h;
  std::vector<PlanLink> links;
  for (const HalfCable& h : halves) {
    std::string where = file + ":" + std::to_string(h.line);
    auto peer = ids.find(h.peer_id);
    if (peer == ids.end()) throw Error(where + ": no node \"" + h.peer_id + "\" in the file");
    auto back = by_end.find({h.peer_id, h.peer_port});
    if (back != by_end.end()) {
      const HalfCable& o = *back->second;
      if (o.peer_id != h.node_id || o.peer_port != h.port)
        throw Error(where + ": \"" + h.node_id + "\"[" + std::to_string(h.port) + "] goes to \"" +
                    h.peer_id + "\"[" + std::to_string(h.peer_port) + "], whose line " +
                    std::to_string(o.line) + " says it goes to \"" + o.peer_id + "\"[" +
                    std::to_string(o.peer_port) + "]");
      if (o.line < h.line) continue;  // added from there
    }
    PlanLink l;
    l.a = {ids[h.node_id].name, h.port};
    l.b = {peer->second.name, h.peer_port};
    l.lanes = h.lanes;
    l.speed = h.speed;
    l.where = where;
    links.push_back(std::move(l));
  }
  add_all(p, std::move(links));
  return p;
}

namespace {

// A name with a control character (a NUL, a line break) matches no node's
// description and cannot be written back as one CSV field: the plan is
// refused, naming where (fuzz_cable_plan: a NUL cut the name written back).
// So is an empty name (a topology line's `# ""`), as the CSV reader refuses
// one: a plan names both ends of each cable, whatever its format.
Plan names_checked(Plan p, const std::string& path) {
  for (const PlanLink& l : p.links)
    for (const std::string* name : {&l.a.node, &l.b.node}) {
      if (name->empty())
        throw Error((l.where.empty() ? path : l.where) + ": a device name is empty");
      for (unsigned char c : *name)
        if (c < 0x20 || c == 0x7f)
          throw Error((l.where.empty() ? path : l.where) +
                      ": a device name has a control character (" + view::hex_text(c, 2) + ")");
    }
  return p;
}

}  // namespace

Plan load_plan(const std::string& path, const NodeNameMap& names) {
  std::string text = view::read_text(path, "the cable plan");
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    Fabric f = load_fabric(path);
    rename_nodes(names, f);
    return names_checked(plan_of(f), path);
  }
  if (is_topology_text(text)) return names_checked(parse_plan_topology(text, path, names), path);
  return names_checked(parse_plan_csv(text, path), path);
}

namespace {

std::string csv_quoted(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos && trim(s) == s && !s.empty() && s[0] != '#')
    return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

void write_plan_csv(const Plan& p, std::FILE* out) {
  std::fputs("StartDevice,StartPort,EndDevice,EndPort,LinkType,Width,Speed\n", out);
  for (const PlanLink& l : p.links) {
    const char* speed = mad::generation_name(l.speed);
    std::fprintf(out, "%s,%u,%s,%u,Data,%s,%s\n", csv_quoted(l.a.node).c_str(), l.a.port,
                 csv_quoted(l.b.node).c_str(), l.b.port,
                 l.lanes ? (std::to_string(l.lanes) + "X").c_str() : "", speed ? speed : "");
  }
}

}  // namespace rdma::ib
