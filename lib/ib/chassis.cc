#include "lib/ib/chassis.h"

#include <algorithm>
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

// A chassis as libibnetdisc builds it: slots by position, its other
// nodes, and how many nodes share its GUID.
struct Build {
  uint64_t guid = 0;
  unsigned number = 0;  // 0: not (yet) a chassis
  std::map<unsigned, uint32_t> spines, lines;
  std::vector<uint32_t> nodes;
  unsigned count = 0;
};

// libibnetdisc's passes over a fabric. found is its "ch_found": a node
// that has a place, or tried for one (a Voltaire switch, a Mellanox chip
// that names its slot, a module on a Voltaire spine), or joined a
// chassis by its GUID.
class Grouper {
 public:
  Grouper(const Fabric& f, Grouping& g) : f_(f), g_(g), found_(f.nodes.size()) {}

  void run() {
    // Switches as libibnetdisc's list holds them: the last found first.
    for (uint32_t i = static_cast<uint32_t>(f_.nodes.size()); i-- > 0;) {
      const Node& n = f_.nodes[i];
      if (voltaire_switch(n)) {
        place_voltaire(i);
      } else if (n.is_switch()) {
        g_.place[i] = mellanox_place(n.info.vendor_id, n.info.device_id, n.description);
        found_[i] = g_.place[i].has_value();
      }
    }
    for (uint32_t s = static_cast<uint32_t>(f_.nodes.size()); s-- > 0;) {
      const Node& n = f_.nodes[s];
      if (voltaire_switch(n) && voltaire_spine(n.info.device_id) && !g_.chassis_of[s])
        build_voltaire(s);
    }
    group_by_guid();
    for (Build& b : list_) {
      if (!b.number) continue;
      Chassis c{b.number, b.guid, {}, {}, std::move(b.nodes)};
      for (auto [at, i] : b.spines) c.spines.push_back(i);
      for (auto [at, i] : b.lines) c.lines.push_back(i);
      g_.chassis.push_back(std::move(c));
    }
    // Numbered in the list's order already; the sort only keeps
    // chassis[number - 1] true whatever comes.
    std::sort(g_.chassis.begin(), g_.chassis.end(),
              [](const Chassis& a, const Chassis& b) { return a.number < b.number; });
  }

 private:
  // A Voltaire chip's place: a spine's from the line port its first
  // switch link meets, a line's from the spine port its first inner link
  // meets (libibnetdisc looks no further). A spine also places the
  // modules on its ports that no spine before it placed.
  void place_voltaire(uint32_t i) {
    const Node& n = f_.nodes[i];
    found_[i] = true;
    bool spine = voltaire_spine(n.info.device_id);
    if (!spine && !voltaire_line(n.info.device_id)) return;
    bool placed = false;
    for (const Port& p : n.ports) {
      if (!p.num || !p.peer || !inner(n, p.num)) continue;
      uint32_t j = p.peer->node;
      const Node& peer = f_.nodes[j];
      if (!spine) {
        if (voltaire_spine(peer.info.device_id))
          g_.place[i] = voltaire_line_place(peer.info.device_id, p.peer->port);
        return;
      }
      if (!peer.is_switch()) {
        if (!found_[j]) {
          found_[j] = true;
          g_.place[j] = voltaire_module_place(n.info.device_id, p.num, n.info.node_guid);
        }
      } else if (!placed) {
        placed = true;
        g_.place[i] = voltaire_spine_place(n.info.device_id, p.peer->port);
      }
    }
  }

  // Puts a placed node at its position among b's lines or spines, unless
  // another holds it. libibnetdisc gives up on the whole grouping for a
  // node with no position; here that node alone is left out.
  void insert(Build& b, uint32_t i, bool line) {
    const std::optional<ChassisPlace>& p = g_.place[i];
    if (!found_[i] || !p) return;
    uint16_t device = f_.nodes[i].info.device_id;
    unsigned at = line ? voltaire_line_position(device, *p) : voltaire_spine_position(device, *p);
    if (!at || !(line ? b.lines : b.spines).emplace(at, i).second) return;
    g_.chassis_of[i] = b.number;
  }

  // Each found peer of a member's inner ports, into the other list: the
  // lines' peers as spines (from the line chips only), the spines' as
  // lines or modules.
  void catch_peers(Build& b, bool from_lines) {
    std::vector<uint32_t> members;
    for (auto [at, i] : from_lines ? b.lines : b.spines)
      if (!from_lines || voltaire_line(f_.nodes[i].info.device_id)) members.push_back(i);
    for (uint32_t i : members)
      for (const Port& p : f_.nodes[i].ports)
        if (p.num && p.peer && inner(f_.nodes[i], p.num)) insert(b, p.peer->node, !from_lines);
  }

  // A chassis grown from spine s: its peers, then twice the lines' peers
  // and the spines' peers (libibnetdisc's fixed passes, not until
  // nothing is added). A node may so join a second chassis.
  void build_voltaire(uint32_t s) {
    const std::optional<ChassisPlace>& p = g_.place[s];
    if (!p || !voltaire_spine_position(f_.nodes[s].info.device_id, *p)) return;
    Build b;
    b.number = ++numbers_;
    insert(b, s, false);
    for (const Port& q : f_.nodes[s].ports)
      if (q.num && q.peer && inner(f_.nodes[s], q.num)) insert(b, q.peer->node, true);
    for (int pass = 0; pass < 2; ++pass) {
      catch_peers(b, true);
      catch_peers(b, false);
    }
    // The first spine's GUID less one, as Voltaire's SM names the box.
    b.guid = f_.nodes[b.spines.begin()->second].info.node_guid - 1;
    list_.push_back(std::move(b));
  }

  // libibnetdisc finds a node's chassis by GUID among all chassis, but
  // only once a first one of another vendor than Voltaire exists.
  Build* by_guid(uint64_t guid) {
    if (!others_) return nullptr;
    for (Build& b : list_)
      if (b.guid == guid) return &b;
    return nullptr;
  }

  // The other vendors' nodes by chassis GUID, nodes as libibnetdisc's list
  // holds them (the last found first): a GUID two nodes share makes a
  // chassis, numbered as its first node there comes.
  void group_by_guid() {
    std::vector<std::optional<uint64_t>> key(f_.nodes.size());
    for (uint32_t i = 0; i < f_.nodes.size(); ++i) {
      const Node& n = f_.nodes[i];
      if (n.info.vendor_id == kVoltaire || !n.info.sys_image_guid) continue;
      uint64_t peer = 0;
      if (const Port* p1 = n.port(1); p1 && p1->peer && !n.is_switch())
        peer = f_.nodes[p1->peer->node].info.sys_image_guid;
      key[i] = chassis_guid(n.info, peer);
    }
    for (uint32_t i = static_cast<uint32_t>(f_.nodes.size()); i-- > 0;) {
      if (!key[i]) continue;
      if (Build* b = by_guid(*key[i])) {
        ++b->count;
      } else {
        list_.push_back({*key[i], 0, {}, {}, {}, 1});
        others_ = true;
      }
    }
    for (uint32_t i = static_cast<uint32_t>(f_.nodes.size()); i-- > 0;) {
      if (!key[i]) continue;
      Build* b = by_guid(*key[i]);
      if (!b || b->count < 2) continue;
      if (!b->number) b->number = ++numbers_;
      if (!found_[i]) {
        // libibnetdisc puts each at the head of the list: discovery order.
        found_[i] = true;
        b->nodes.insert(b->nodes.begin(), i);
        g_.chassis_of[i] = b->number;
      } else if (f_.nodes[i].info.vendor_id == kMellanox && g_.place[i] &&
                 g_.place[i]->slot != ChassisSlot::Router) {
        // A Mellanox chip at its slot number, a second there left out.
        auto& slots = g_.place[i]->slot == ChassisSlot::Line ? b->lines : b->spines;
        if (slots.emplace(g_.place[i]->number, i).second) g_.chassis_of[i] = b->number;
      }
    }
  }

  const Fabric& f_;
  Grouping& g_;
  std::vector<bool> found_;
  std::vector<Build> list_;  // libibnetdisc's chassis list, in its order
  unsigned numbers_ = 0;
  bool others_ = false;
};

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
  const char* kind = p.slot == ChassisSlot::Line    ? "Line "
                     : p.slot == ChassisSlot::Spine ? "Spine "
                                                    : "SRBD ";
  return kind + std::to_string(p.number) + " Chip " + std::to_string(p.chip);
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

std::string Grouping::note(const Fabric& f, uint32_t i) const {
  const std::optional<ChassisPlace>& p = place[i];
  if (!chassis_of[i] || !p) return "";
  // libibnetdisc names the type of a Voltaire node from its chassis, of a
  // Mellanox one from its own description (a module has none); the slot
  // of either.
  uint32_t vendor = f.nodes[i].info.vendor_id;
  if (vendor == kVoltaire || (vendor == kMellanox && p->slot != ChassisSlot::Router))
    return (p->type.empty() ? "" : p->type + " ") + slot_text(*p);
  return vendor == kMellanox ? slot_text(*p) : "";
}

Grouping group_chassis(const Fabric& f) {
  Grouping g;
  g.chassis_of.assign(f.nodes.size(), 0);
  g.place.resize(f.nodes.size());
  Grouper(f, g).run();
  return g;
}

}  // namespace rdma::ib
