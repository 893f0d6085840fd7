#include "rdma/ib/port_tables.h"

#include "lib/error.h"
#include "lib/ib/port_select.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"

namespace rdma {

namespace {

unsigned field(const mad::AttrDef& a, const mad::Mad& m, const char* name) {
  return static_cast<unsigned>(m.get_attr(a, name));
}

std::string where(const PortTarget& p) {
  return mad::route_text(p.route);
}

// Elements [0, n) of the table fields of blocks, as one field per name.
void add_table(view::Record& rec, const mad::AttrDef& a, const std::vector<mad::Mad>& blocks,
               unsigned n) {
  for (const mad::FieldDef& f : a.fields) {
    std::string all;
    view::Json arr = view::Json::array();
    for (unsigned i = 0; i < n; ++i) {
      std::string text;
      view::Json json;
      mad::render(f, blocks[i / f.count].data(), i % f.count, text, json);
      all += (i ? "," : "") + text;
      arr.push_back(std::move(json));
    }
    rec.add(f.label, std::string(f.label) + " " + all + " ", std::move(arr));
  }
}

view::Record base_record(const PortTarget& p) {
  view::Record rec;
  add_target(rec, p.route);
  rec.pair("port", p.port);
  return rec;
}

// A switch's port 0 keeps its partition capacity in NodeInfo, its external
// ports in SwitchInfo; a CA's in NodeInfo.
void show_pkeys(Ctx& c, MadSession& s, const PortTarget& p) {
  unsigned cap = field(mad::kNodeInfo, p.node, "PartitionCap");
  if (p.is_switch && p.port != 0) {
    mad::Mad sw = s.smp(p.route, mad::kGet, mad::kSwitchInfo, 0);
    cap = field(mad::kSwitchInfo, sw, "PartitionEnforcementCap");
  }
  std::vector<mad::Mad> blocks;
  for (unsigned b = 0; b * 32 < cap; ++b)
    blocks.push_back(s.smp(p.route, mad::kGet, mad::kPKeyTable, (uint32_t{p.port} << 16) | b));
  view::Record rec = base_record(p);
  rec.pair("capacity", cap);
  add_table(rec, mad::kPKeyTable, blocks, cap);
  c.out.record(rec);
}

// GUIDInfo has no port in its modifier: a CA's port, or switch port 0.
void show_guids(Ctx& c, MadSession& s, const PortTarget& p) {
  if (p.is_switch && p.port != 0)
    throw Error(where(p) + " is a switch: only its port 0 has GUIDs (port " +
                std::to_string(p.port) + " has none)");
  mad::Mad pi = s.smp(p.route, mad::kGet, mad::kPortInfo, p.port);
  unsigned cap = field(mad::kPortInfo, pi, "GUIDCap");
  std::vector<mad::Mad> blocks;
  for (unsigned b = 0; b * 8 < cap; ++b)
    blocks.push_back(s.smp(p.route, mad::kGet, mad::kGuidInfo, b));
  view::Record rec = base_record(p);
  rec.pair("capacity", cap);
  add_table(rec, mad::kGuidInfo, blocks, cap);
  c.out.record(rec);
}

// A CA has one table; a switch one per input port to output port N.
void show_sl2vl(Ctx& c, MadSession& s, const PortTarget& p) {
  if (!p.is_switch) {
    view::Record rec = base_record(p);
    mad::Mad t = s.smp(p.route, mad::kGet, mad::kSl2VlTable, 0);
    mad::decode(mad::kSl2VlTable, t.data(), c.opt.details, rec);
    c.out.record(rec);
    return;
  }
  unsigned ports = field(mad::kNodeInfo, p.node, "NumPorts");
  for (unsigned in = 0; in <= ports; ++in) {
    view::Record rec = base_record(p);
    rec.pair("in", in);
    mad::Mad t = s.smp(p.route, mad::kGet, mad::kSl2VlTable, (in << 8) | p.port);
    mad::decode(mad::kSl2VlTable, t.data(), c.opt.details, rec);
    c.out.record(rec);
  }
}

// Blocks 1-2 hold the low-priority table, 3-4 the high one (32 entries
// each); the capacities are PortInfo's. A base switch port 0 has no data
// VLs and so no tables.
void show_vlarb(Ctx& c, MadSession& s, const PortTarget& p) {
  if (p.is_switch && p.port == 0) {
    mad::Mad sw = s.smp(p.route, mad::kGet, mad::kSwitchInfo, 0);
    if (!field(mad::kSwitchInfo, sw, "EnhancedPort0"))
      throw Error(where(p) + " port 0 is a base switch port 0: it has no VL arbitration tables");
  }
  mad::Mad pi = s.smp(p.route, mad::kGet, mad::kPortInfo, p.port);
  for (bool high : {false, true}) {
    unsigned cap = field(mad::kPortInfo, pi, high ? "VLArbitrationHighCap" : "VLArbitrationLowCap");
    unsigned first = high ? 3 : 1;
    std::vector<mad::Mad> blocks;
    for (unsigned b = 0; b * 32 < cap && b < 2; ++b)
      blocks.push_back(s.smp(p.route, mad::kGet, mad::kVlArbTable, ((first + b) << 16) | p.port));
    cap = std::min(cap, 64u);
    view::Record rec = base_record(p);
    rec.add("priority", std::string("priority ") + (high ? "high" : "low") + " ",
            high ? "high" : "low");
    rec.pair("capacity", cap);
    add_table(rec, mad::kVlArbTable, blocks, cap);
    c.out.record(rec);
  }
}

}  // namespace

PortTarget port_target(MadSession& s, const mad::Route& r, std::optional<uint8_t> port) {
  PortTarget p;
  p.route = r;
  p.node = s.smp(r, mad::kGet, mad::kNodeInfo, 0);
  ib::NodeInfo info = ib::NodeInfo::from(p.node.data());
  p.is_switch = info.is_switch();
  p.port = ib::table_port(info, port, where(p));
  return p;
}

void show_port_table(Ctx& c, MadSession& s, const PortTarget& p, const std::string& table) {
  if (table == "pkeys")
    show_pkeys(c, s, p);
  else if (table == "guids")
    show_guids(c, s, p);
  else if (table == "sl2vl")
    show_sl2vl(c, s, p);
  else
    show_vlarb(c, s, p);
}

}  // namespace rdma
