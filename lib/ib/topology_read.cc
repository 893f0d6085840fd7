#include "lib/ib/topology_read.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "lib/error.h"
#include "lib/ib/topology_lines.h"
#include "lib/ib/types.h"
#include "lib/mad/speed.h"
#include "lib/view/number.h"
#include "lib/view/trim.h"

namespace rdma::ib {

namespace {

// A node as its lines give it.
struct FileNode {
  NodeInfo info;
  std::string id;
  std::string description;
  uint64_t switch_port_guid = 0;
  bool enhanced = false;
  uint16_t lid = 0;  // a switch's port 0
  uint8_t lmc = 0;
  int line = 0;
};

// One port line: this end and what it says of the other.
struct FileLink {
  size_t node = 0;  // index into the file's nodes
  unsigned port = 0;
  uint64_t guid = 0;  // a CA or router port's GUID, "(GUID)"; 0: not said
  std::string peer_id;
  unsigned peer_port = 0;
  uint64_t peer_guid = 0;
  std::optional<uint16_t> lid, peer_lid;  // a CA end's LID
  uint8_t lmc = 0;
  std::string rate;  // "4xEDR"
  int line = 0;
};

// What a port's line and its peer's line say of one end.
struct End {
  uint64_t guid = 0;
  std::optional<uint16_t> lid;
  uint8_t lmc = 0;
  std::string rate;
  std::optional<std::pair<size_t, unsigned>> peer;
  int line = 0;  // the line that linked it
};

uint64_t number(const std::string& s, bool hex, uint64_t max, const std::string& where,
                const char* what, uint64_t min = 0) {
  std::optional<uint64_t> v = view::parse_number(s, {.min = min, .max = max, .hex = hex});
  if (!v) throw Error(where + ": " + what + " " + s + " is out of range");
  return *v;
}

// "4xEDR" into PortInfo's width and speed fields (the capability bits that
// vouch for an extended speed too); false for a word that is no rate.
bool set_rate(const std::string& word, PortInfo& p) {
  static const std::regex kRate(R"re(^(\d+)x(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)$)re");
  std::smatch m;
  if (!std::regex_match(word, m, kRate)) return false;
  static constexpr std::pair<std::string_view, uint8_t> kWidths[] = {{"1", mad::kWidth1x},
                                                                     {"2", mad::kWidth2x},
                                                                     {"4", mad::kWidth4x},
                                                                     {"8", mad::kWidth8x},
                                                                     {"12", mad::kWidth12x}};
  auto w = std::find_if(std::begin(kWidths), std::end(kWidths),
                        [&](const auto& e) { return e.first == m[1].str(); });
  if (w == std::end(kWidths)) return false;
  p.width_active = w->second;
  std::string g = m[2].str();
  p.speed_active = g == "SDR" ? mad::kSpeedSdr : g == "DDR" ? mad::kSpeedDdr : mad::kSpeedQdr;
  if (g == "FDR10") p.mlnx_speed_active = mad::kMlnxSpeedFdr10;
  static constexpr std::pair<std::string_view, uint8_t> kExt[] = {{"FDR", mad::kSpeedExtFdr},
                                                                  {"EDR", mad::kSpeedExtEdr},
                                                                  {"HDR", mad::kSpeedExtHdr},
                                                                  {"NDR", mad::kSpeedExtNdr}};
  if (auto e = std::find_if(std::begin(kExt), std::end(kExt),
                            [&](const auto& x) { return x.first == g; });
      e != std::end(kExt)) {
    p.speed_ext_active = e->second;
    p.caps |= mad::kCapExtendedSpeeds;
  }
  if (g == "XDR") {
    p.speed_ext2_active = 1;
    p.caps |= mad::kCapExtendedSpeeds | mad::kCapMask2Supported;
    p.caps2 |= mad::kCap2ExtendedSpeeds2;
  }
  return true;
}

}  // namespace

bool topology_holds(std::string_view field) {
  static constexpr std::string_view kHeld[] = {"NodeType",     "NumPorts", "SystemImageGUID",
                                               "NodeGUID",     "PortGUID", "DeviceID",
                                               "LocalPortNum", "VendorID", "EnhancedPort0"};
  return std::find(std::begin(kHeld), std::end(kHeld), field) != std::end(kHeld);
}

bool is_topology_text(std::string_view text) {
  static const std::regex kNode(R"re((^|\n)[ \t]*(Switch|Hca|Ca|Rt)[ \t]+\d+[ \t]+")re");
  return std::regex_search(text.begin(), text.end(), kNode);
}

Fabric parse_topology_fabric(const std::string& text, const std::string& file) {
  static const std::regex kValue(
      R"re(^(vendid|devid|sysimgguid|switchguid|caguid|rtguid)=(0x[0-9a-fA-F]+)(\(([0-9a-fA-F]+)\))?\s*(#.*)?$)re");
  // ibnetdiscover -g's headings: a chassis, the nodes outside any, a Xsigo
  // chassis' host name. What they say the IDs of the nodes say again.
  static const std::regex kGrouping(
      R"re(^(Chassis\s+\d+(\s+\(guid 0x[0-9a-fA-F]+\))?|Non-Chassis Nodes|Hostname:.*)$)re");
  static const std::regex kInitiated(
      R"re(^#\s*Initiated from node ([0-9a-fA-F]+) port ([0-9a-fA-F]+))re");
  static const std::regex kSwitchRest(
      R"re(^\s*#\s*"(.*)"\s+(base|enhanced)\s+port\s+0\s+lid\s+(\d+)\s+lmc\s+(\d+).*$)re");
  static const std::regex kCaRest(R"re(^\s*#\s*"(.*)"\s*$)re");
  static const std::regex kIdGuid(R"re(^[SHR]-([0-9a-fA-F]{1,16})$)re");
  static const std::regex kCaPortRest(
      R"re(^\s*#\s*lid\s+(\d+)\s+lmc\s+(\d+)\s+"(.*)"\s+lid\s+(\d+)\s+(\S+)\s*$)re");
  static const std::regex kSwitchPortRest(R"re(^\s*#\s*"(.*)"\s+lid\s+(\d+)\s+(\S+)\s*$)re");

  std::vector<FileNode> nodes;
  std::map<std::string, size_t> by_id;
  std::vector<FileLink> lines;
  std::optional<uint64_t> from_node, from_port;
  // The values before a node line, its own.
  std::map<std::string, std::pair<uint64_t, uint64_t>> values;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  std::smatch m, r;
  // ibnetdiscover -g lists a chip in each chassis that took it (a Voltaire
  // spine may take another box's chip): a grouped file may repeat a
  // node's block, its port lines included, and the repeat says nothing new.
  bool grouped = false, repeat = false;
  while (std::getline(in, line)) {
    ++lineno;
    std::string where = file + ":" + std::to_string(lineno);
    std::string t = view::trim(line);
    if (t.empty()) continue;
    if (t[0] == '#') {
      if (std::regex_search(t, m, kInitiated)) {
        from_node = number(m[1].str(), true, UINT64_MAX, where, "GUID");
        from_port = number(m[2].str(), true, UINT64_MAX, where, "GUID");
      }
      continue;
    }
    if (std::regex_match(t, kGrouping)) {
      grouped = true;
      continue;
    }
    if (std::regex_match(t, m, kValue)) {
      uint64_t paren = m[4].matched ? number(m[4].str(), true, UINT64_MAX, where, "GUID") : 0;
      values[m[1].str()] = {number(m[2].str(), true, UINT64_MAX, where, m[1].str().c_str()), paren};
    } else if (std::optional<TopologyNodeLine> nl = topology_node_line(t)) {
      FileNode n;
      n.line = lineno;
      n.id = nl->id;
      std::string type = nl->type;
      // ibnetdiscover -g prints a CA or router module in a Voltaire
      // chassis' slot as a switch; its ID's letter still says which.
      bool switch_form = type == "Switch";
      if (switch_form && n.id[0] != 'S' && std::regex_match(n.id, kIdGuid))
        type = n.id[0] == 'R' ? "Rt" : "Ca";
      n.info.base_version = 1;
      n.info.class_version = 1;
      n.info.node_type = static_cast<uint8_t>(type == "Switch" ? NodeType::Switch
                                              : type == "Rt"   ? NodeType::Router
                                                               : NodeType::Ca);
      n.info.num_ports = static_cast<uint8_t>(number(nl->ports, false, 254, where, "port count"));
      std::string rest = nl->rest;
      if (switch_form && std::regex_match(rest, r, kSwitchRest)) {
        n.description = r[1].str();
        if (n.info.is_switch()) {
          n.enhanced = r[2].str() == "enhanced";
          n.lid = static_cast<uint16_t>(number(r[3].str(), false, 0xffff, where, "LID"));
          n.lmc = static_cast<uint8_t>(number(r[4].str(), false, 7, where, "LMC"));
        }
      } else if (std::regex_match(rest, r, kCaRest)) {
        n.description = r[1].str();
      }
      const char* guid_key = switch_form ? "switchguid"
                             : n.info.node_type == static_cast<uint8_t>(NodeType::Router)
                                 ? "rtguid"
                                 : "caguid";
      if (auto g = values.find(guid_key); g != values.end()) {
        n.info.node_guid = g->second.first;
        n.switch_port_guid = g->second.second;
      } else if (std::smatch g2; std::regex_match(n.id, g2, kIdGuid)) {
        n.info.node_guid = number(g2[1].str(), true, UINT64_MAX, where, "GUID");
      }
      if (!n.info.node_guid)
        throw Error(where + ": node \"" + n.id + "\" has no GUID (no " + guid_key +
                    "= line before it, and its ID is not S-, H- or R-GUID)");
      if (!n.switch_port_guid) n.switch_port_guid = n.info.node_guid;
      if (auto v = values.find("sysimgguid"); v != values.end())
        n.info.sys_image_guid = v->second.first;
      if (auto v = values.find("vendid"); v != values.end())
        n.info.vendor_id = static_cast<uint32_t>(
            number(view::hex_text(v->second.first), true, 0xffffff, where, "vendid"));
      if (auto v = values.find("devid"); v != values.end())
        n.info.device_id = static_cast<uint16_t>(
            number(view::hex_text(v->second.first), true, 0xffff, where, "devid"));
      values.clear();
      repeat =
          grouped && by_id.contains(n.id) && nodes[by_id[n.id]].info.node_guid == n.info.node_guid;
      if (repeat) continue;
      for (const FileNode& o : nodes)
        if (o.info.node_guid == n.info.node_guid)
          throw Error(where + ": node GUID " + view::hex_text(n.info.node_guid, 16) +
                      " is declared twice (line " + std::to_string(o.line) + ")");
      if (!by_id.emplace(n.id, nodes.size()).second)
        throw Error(where + ": node \"" + n.id + "\" is declared twice");
      nodes.push_back(std::move(n));
    } else if (std::optional<TopologyPortLine> pl = topology_port_line(t)) {
      if (repeat) continue;
      if (nodes.empty()) throw Error(where + ": a port line before any node line");
      FileLink l;
      l.line = lineno;
      l.node = nodes.size() - 1;
      l.port = static_cast<unsigned>(
          number(pl->port, false, nodes.back().info.num_ports, where, "port", 1));
      if (pl->guid) l.guid = number(*pl->guid, true, UINT64_MAX, where, "GUID");
      l.peer_id = pl->peer_id;
      l.peer_port = static_cast<unsigned>(number(pl->peer_port, false, 254, where, "port", 1));
      if (pl->peer_guid) l.peer_guid = number(*pl->peer_guid, true, UINT64_MAX, where, "GUID");
      std::string rest = pl->rest;
      if (std::regex_match(rest, r, kCaPortRest)) {
        l.lid = static_cast<uint16_t>(number(r[1].str(), false, 0xffff, where, "LID"));
        l.lmc = static_cast<uint8_t>(number(r[2].str(), false, 7, where, "LMC"));
        l.peer_lid = static_cast<uint16_t>(number(r[4].str(), false, 0xffff, where, "LID"));
        l.rate = r[5].str();
      } else if (std::regex_match(rest, r, kSwitchPortRest)) {
        l.peer_lid = static_cast<uint16_t>(number(r[2].str(), false, 0xffff, where, "LID"));
        l.rate = r[3].str();
      }
      lines.push_back(std::move(l));
    } else if (t.find('=') == std::string::npos) {
      throw Error(where + ": not a node, port or value line: " + t);
    }
  }
  if (nodes.empty()) throw Error(file + ": no node line (Switch, Ca or Rt)");

  // Each end as both lines say it; they must agree on where the link goes.
  std::vector<std::vector<End>> ends(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) ends[i].resize(size_t{nodes[i].info.num_ports} + 1);
  std::vector<std::vector<int>> said(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) said[i].assign(ends[i].size(), 0);
  for (const FileLink& l : lines) {
    std::string where = file + ":" + std::to_string(l.line);
    auto peer = by_id.find(l.peer_id);
    if (peer == by_id.end()) throw Error(where + ": no node \"" + l.peer_id + "\" in the file");
    size_t p = peer->second;
    if (l.peer_port > nodes[p].info.num_ports)
      throw Error(where + ": \"" + l.peer_id + "\" has no port " + std::to_string(l.peer_port));
    if (said[l.node][l.port])
      throw Error(where + ": port " + std::to_string(l.port) + " is listed twice (line " +
                  std::to_string(said[l.node][l.port]) + ")");
    said[l.node][l.port] = l.line;
    End& a = ends[l.node][l.port];
    End& b = ends[p][l.peer_port];
    auto link_end = [&](End& e, size_t node, unsigned port, std::pair<size_t, unsigned> other) {
      auto name = [&](size_t n, unsigned q) {
        return "\"" + nodes[n].id + "\"[" + std::to_string(q) + "]";
      };
      if (e.peer && *e.peer != other)
        throw Error(where + ": " + name(node, port) + " is linked to " +
                    name(other.first, other.second) + " here, to " +
                    name(e.peer->first, e.peer->second) + " on line " + std::to_string(e.line));
      e.peer = other;
      e.line = l.line;
    };
    link_end(a, l.node, l.port, {p, l.peer_port});
    link_end(b, p, l.peer_port, {l.node, l.port});
    if (l.guid) a.guid = l.guid;
    if (l.peer_guid) b.guid = l.peer_guid;
    if (l.lid) {
      a.lid = l.lid;
      a.lmc = l.lmc;
    }
    if (l.peer_lid && !nodes[p].info.is_switch() && !b.lid) b.lid = l.peer_lid;
    // A module's own line in switch form says "4x???": no rate.
    if (PortInfo probe; set_rate(l.rate, probe)) {
      a.rate = l.rate;
      if (b.rate.empty()) b.rate = l.rate;
    }
  }

  // Where the file was taken from: its directed routes start there.
  size_t root = 0;
  if (from_node)
    for (size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i].info.node_guid == *from_node) root = i;
  unsigned root_port = 0;
  if (!nodes[root].info.is_switch()) {
    for (unsigned p = 1; p < ends[root].size() && !root_port; ++p)
      if (ends[root][p].peer && (!from_port || ends[root][p].guid == *from_port)) root_port = p;
    for (unsigned p = 1; p < ends[root].size() && !root_port; ++p)
      if (ends[root][p].peer) root_port = p;
  }

  // Breadth first from there, ports in order, through switches only: the
  // order and routes discovery finds.
  struct Reached {
    std::vector<uint8_t> path;
    unsigned port = 0;  // the port it was reached through
  };
  std::vector<std::optional<Reached>> reached(nodes.size());
  std::vector<size_t> order;
  std::deque<size_t> queue;
  reached[root] = Reached{{}, root_port};
  queue.push_back(root);
  while (!queue.empty()) {
    size_t n = queue.front();
    queue.pop_front();
    order.push_back(n);
    if (n != root && !nodes[n].info.is_switch()) continue;
    for (unsigned p = 1; p < ends[n].size(); ++p) {
      if (!nodes[n].info.is_switch() && p != root_port) continue;
      const std::optional<std::pair<size_t, unsigned>>& peer = ends[n][p].peer;
      if (!peer || reached[peer->first]) continue;
      std::vector<uint8_t> path = reached[n]->path;
      path.push_back(static_cast<uint8_t>(p));
      reached[peer->first] = Reached{std::move(path), peer->second};
      queue.push_back(peer->first);
    }
  }
  // Nodes the routes do not reach (a CA's other port): after, with none.
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!reached[i]) {
      reached[i] = Reached{};
      order.push_back(i);
    }

  uint16_t top = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    top = std::max(top, nodes[i].lid);
    for (const End& e : ends[i])
      if (e.lid) top = std::max(top, static_cast<uint16_t>(*e.lid + (1u << e.lmc) - 1));
  }

  Fabric f;
  std::vector<uint32_t> index(nodes.size());
  for (size_t i : order) {
    const FileNode& fn = nodes[i];
    NodeInfo info = fn.info;
    info.local_port = static_cast<uint8_t>(reached[i]->port);
    info.port_guid = fn.info.is_switch() ? fn.switch_port_guid : ends[i][reached[i]->port].guid;
    index[i] = f.add(info, reached[i]->path);
    Node& n = f.nodes[index[i]];
    n.description = fn.description;
    uint32_t caps = 0;
    uint16_t caps2 = 0;
    for (unsigned p = 1; p < ends[i].size(); ++p) {
      const End& e = ends[i][p];
      if (!e.peer) continue;
      PortInfo pi;
      pi.local_port = static_cast<uint8_t>(p);
      pi.state = kPortActive;
      pi.phys_state = kPhysLinkUp;
      if (e.lid) {
        pi.lid = *e.lid;
        pi.lmc = e.lmc;
      }
      set_rate(e.rate, pi);
      caps |= pi.caps;
      caps2 |= pi.caps2;
      n.ports[p].guid = e.guid;
      n.ports[p].info = pi;
    }
    if (fn.info.is_switch()) {
      PortInfo pi;
      pi.lid = fn.lid;
      pi.lmc = fn.lmc;
      pi.state = kPortActive;
      pi.phys_state = kPhysLinkUp;
      n.ports[0].guid = fn.switch_port_guid;
      n.ports[0].info = pi;
      SwitchInfo sw;
      sw.enhanced_port0 = fn.enhanced;
      sw.linear_fdb_top = top;
      n.sw = sw;
    }
    // The switch's port 0 vouches for its ports' speeds (speed_caps()).
    for (Port& p : n.ports)
      if (p.info) {
        p.info->caps |= caps;
        p.info->caps2 |= caps2;
      }
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    for (unsigned p = 1; p < ends[i].size(); ++p) {
      const End& e = ends[i][p];
      PortRef a{index[i], static_cast<uint8_t>(p)};
      if (!e.peer) continue;
      PortRef b{index[e.peer->first], static_cast<uint8_t>(e.peer->second)};
      if (!f.at(a).peer) f.connect(a, b);
    }
  return f;
}

}  // namespace rdma::ib
