#include "lib/ib/chassis.h"

#include <map>

#include "lib/ib/voltaire.h"

namespace rdma::ib {

namespace {

// Vendor IDs (IEEE OUIs) and the device ID the grouping rules name.
constexpr uint32_t kVoltaire = kVoltaireVendor;
constexpr uint32_t kMellanox = 0x0002c9;
constexpr uint32_t kTopspin = 0x0005ad;
constexpr uint32_t kInfiniCon = 0x00066a;
constexpr uint32_t kXsigo = 0x001397;
constexpr uint16_t kMellanoxIs4 = 0xbd36;
constexpr unsigned kMaxSpines = 18;
constexpr unsigned kMaxLines = 36;
// libibnetdisc keeps 19 characters of the system type.
constexpr size_t kTypeChars = 19;

// Xsigo's SystemImageGUIDs: OUI, then byte 3 the node type (1 switch,
// 2 HCA, 3 TCA) and byte 4 the port type; leaf one is type 1, port 2.
constexpr uint64_t kXsigoOui = 0x0013970000000000ULL;
bool xsigo(uint64_t g) {
  return (g & 0xffffff0000000000ULL) == kXsigoOui;
}
bool xsigo_kind(uint64_t g, uint64_t kind) {
  return (g & 0xffffffff00000000ULL) == (kXsigoOui | kind << 32);
}
bool xsigo_leaf_one(uint64_t g) {
  return (g & 0xffffffffff000000ULL) == 0x0013970102000000ULL;
}
constexpr uint64_t kNoByte4 = 0xffffffff00ffffffULL;

// atoi's reading: the leading digits, 0 for none.
unsigned leading_number(std::string_view s) {
  unsigned v = 0;
  for (char c : s) {
    if (c < '0' || c > '9' || v > 100000) break;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}

bool voltaire_switch(const Node& n) {
  return n.info.vendor_id == kVoltaire && n.is_switch();
}

// Whether port p of n faces the box's other chips (inner_ports 0: all).
bool inner(const Node& n, unsigned p) {
  unsigned last = voltaire_inner_ports(n.info.device_id);
  return !last || p <= last;
}

// A Voltaire chip's place: a spine's from the line port its first
// switch link meets, a line's from the spine port its first inner link
// meets (libibnetdisc looks no further).
std::optional<ChassisPlace> voltaire_place(const Fabric& f, const Node& n) {
  bool spine = voltaire_spine(n.info.device_id);
  if (!spine && !voltaire_line(n.info.device_id)) return std::nullopt;
  for (const Port& p : n.ports) {
    if (!p.num || !p.peer || !inner(n, p.num)) continue;
    const Node& peer = f.nodes[p.peer->node];
    if (spine) {
      if (!peer.is_switch()) continue;
      return voltaire_spine_place(n.info.device_id, p.peer->port);
    }
    if (!voltaire_spine(peer.info.device_id)) return std::nullopt;
    return voltaire_line_place(peer.info.device_id, p.peer->port);
  }
  return std::nullopt;
}

// Voltaire's chassis, numbered before the others: each grows from a
// placed spine (the last found first, as libibnetdisc's switch list runs)
// through the spines' links to lines and the lines' inner links to
// spines, each chip at its position while that is free.
void group_voltaire(const Fabric& f, Grouping& g) {
  for (uint32_t s = static_cast<uint32_t>(f.nodes.size()); s-- > 0;) {
    const Node& start = f.nodes[s];
    if (!voltaire_switch(start) || !voltaire_spine(start.info.device_id) || !g.place[s] ||
        g.chassis_of[s])
      continue;
    unsigned number = static_cast<unsigned>(g.chassis.size() + 1);
    std::map<unsigned, uint32_t> spines, lines;
    auto insert = [&](uint32_t i) {
      const Node& n = f.nodes[i];
      if (!voltaire_switch(n) || !g.place[i] || g.chassis_of[i]) return false;
      unsigned at = voltaire_position(n.info.device_id, *g.place[i]);
      auto& slots = g.place[i]->slot == ChassisSlot::Line ? lines : spines;
      if (!at || !slots.emplace(at, i).second) return false;
      g.chassis_of[i] = number;
      return true;
    };
    insert(s);
    for (bool grew = true; grew;) {
      grew = false;
      for (auto* kind : {&spines, &lines}) {
        std::vector<uint32_t> members;
        for (auto [at, i] : *kind) members.push_back(i);
        for (uint32_t i : members)
          for (const Port& p : f.nodes[i].ports)
            if (p.num && p.peer && inner(f.nodes[i], p.num)) grew |= insert(p.peer->node);
      }
    }
    Chassis c{number, 0, {}, {}, {}};
    for (auto [at, i] : spines) c.spines.push_back(i);
    for (auto [at, i] : lines) c.lines.push_back(i);
    // The first spine's GUID less one, as Voltaire's SM names the box.
    c.guid = f.nodes[c.spines.front()].info.node_guid - 1;
    g.chassis.push_back(std::move(c));
  }
}

}  // namespace

std::optional<ChassisPlace> mellanox_place(uint32_t vendor_id, uint16_t device_id,
                                           std::string_view d) {
  if (vendor_id != kMellanox || device_id != kMellanoxIs4) return std::nullopt;
  // "MF0;<system name>:<system type>/<slot>[:<board type>]/U<chip>"
  if (d.substr(0, 4) != "MF0;") return std::nullopt;
  d.remove_prefix(4);
  size_t colon = d.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  d.remove_prefix(colon + 1);
  size_t slash = d.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  ChassisPlace p;
  p.type = std::string(d.substr(0, std::min(slash, kTypeChars)));
  d.remove_prefix(slash + 1);
  size_t end = d.find_first_of("/:");
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view slot = d.substr(0, end);
  if (d[end] == ':') {  // a board type, skipped
    end = d.find('/', end);
    if (end == std::string_view::npos) return std::nullopt;
  }
  d.remove_prefix(end + 1);
  if (d.empty() || d[0] != 'U') return std::nullopt;
  p.chip = leading_number(d.substr(1));
  if (slot.empty() || (slot[0] != 'L' && slot[0] != 'S')) return std::nullopt;
  p.slot = slot[0] == 'L' ? ChassisSlot::Line : ChassisSlot::Spine;
  p.number = leading_number(slot.substr(1));
  // libibnetdisc keeps slot 0 for a number past the box's slots; no chip
  // sits there.
  if (p.number < 1 || p.number > (p.slot == ChassisSlot::Line ? kMaxLines : kMaxSpines))
    return std::nullopt;
  return p;
}

uint64_t chassis_guid(const NodeInfo& info, uint64_t peer_sys_image_guid) {
  uint64_t g = info.sys_image_guid;
  if (info.vendor_id == kTopspin || info.vendor_id == kInfiniCon) return g & kNoByte4;
  if (info.vendor_id != kXsigo && !xsigo(g)) return g;
  bool ca = xsigo_kind(g, 2) || xsigo_kind(g, 3);
  if (!ca) return xsigo_kind(g, 1) ? g & kNoByte4 : g;
  if (xsigo_leaf_one(peer_sys_image_guid)) return peer_sys_image_guid & kNoByte4;
  return g;
}

std::string slot_text(const ChassisPlace& p) {
  return std::string(p.slot == ChassisSlot::Line ? "Line " : "Spine ") + std::to_string(p.number) +
         " Chip " + std::to_string(p.chip);
}

unsigned Grouping::external_port(const Fabric& f, PortRef r) const {
  const std::optional<ChassisPlace>& p = place[r.node];
  const Node& n = f.nodes[r.node];
  if (n.info.vendor_id == kVoltaire)
    return p ? voltaire_external_port(n.info.device_id, p->chip, r.port) : 0;
  // A Mellanox line chip's ports 1-18 are the faceplate's 1-18.
  if (!p || p->slot != ChassisSlot::Line) return 0;
  return r.port >= 1 && r.port <= 18 && r.port <= f.nodes[r.node].info.num_ports ? r.port : 0;
}

Grouping group_chassis(const Fabric& f) {
  Grouping g;
  g.chassis_of.assign(f.nodes.size(), 0);
  g.place.resize(f.nodes.size());
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (voltaire_switch(f.nodes[i]))
      g.place[i] = voltaire_place(f, f.nodes[i]);
    else if (f.nodes[i].is_switch())
      g.place[i] = mellanox_place(f.nodes[i].info.vendor_id, f.nodes[i].info.device_id,
                                  f.nodes[i].description);
  // Voltaire's chips are grouped by how they are wired, not by
  // SystemImageGUID.
  group_voltaire(f, g);
  std::vector<std::optional<uint64_t>> key(f.nodes.size());
  std::map<uint64_t, unsigned> count;
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    const Node& n = f.nodes[i];
    if (n.info.vendor_id == kVoltaire || !n.info.sys_image_guid) continue;
    uint64_t peer = 0;
    if (const Port* p1 = n.port(1); p1 && p1->peer && !n.is_switch())
      peer = f.nodes[p1->peer->node].info.sys_image_guid;
    key[i] = chassis_guid(n.info, peer);
    ++count[*key[i]];
  }
  std::map<uint64_t, size_t> index;
  size_t voltaire = g.chassis.size();
  std::vector<std::map<unsigned, uint32_t>> spines(voltaire), lines(voltaire);
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    if (!key[i] || count[*key[i]] < 2) continue;
    auto [it, fresh] = index.emplace(*key[i], g.chassis.size());
    if (fresh) {
      g.chassis.push_back({static_cast<unsigned>(g.chassis.size() + 1), *key[i], {}, {}, {}});
      spines.emplace_back();
      lines.emplace_back();
    }
    Chassis& c = g.chassis[it->second];
    if (const auto& p = g.place[i]) {
      // A second chip claiming a slot stays outside, as libibnetdisc's does.
      auto& slots = p->slot == ChassisSlot::Line ? lines[it->second] : spines[it->second];
      if (!slots.emplace(p->number, i).second) continue;
    } else {
      c.nodes.push_back(i);
    }
    g.chassis_of[i] = c.number;
  }
  for (size_t c = voltaire; c < g.chassis.size(); ++c) {
    for (auto [slot, i] : spines[c]) g.chassis[c].spines.push_back(i);
    for (auto [slot, i] : lines[c]) g.chassis[c].lines.push_back(i);
  }
  return g;
}

}  // namespace rdma::ib
