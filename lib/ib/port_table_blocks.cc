#include "lib/ib/port_table_blocks.h"

#include <algorithm>

#include "lib/error.h"
#include "lib/ib/port_select.h"
#include "lib/mad/attrs.h"

namespace rdma::ib {

namespace {

// Element i of a's table field, from the blocks read in order.
uint64_t element(const mad::AttrDef& a, const char* field, const std::vector<mad::Mad>& blocks,
                 unsigned i) {
  unsigned per_block = mad::find_field(a, field)->count;
  return mad::get_field(a, blocks[i / per_block].data(), field, i % per_block);
}

}  // namespace

TablePort read_table_port(MadClient& c, const mad::Route& r, std::optional<uint8_t> port) {
  TablePort p;
  p.route = r;
  p.node = NodeInfo::from(c.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
  p.port = table_port(p.node, port, mad::route_text(r));
  return p;
}

PKeyTable read_pkeys(MadClient& c, const TablePort& p) {
  PKeyTable t;
  t.capacity = p.node.partition_cap;
  if (p.node.is_switch() && p.port != 0)
    t.capacity = SwitchInfo::from(c.smp(p.route, mad::kGet, mad::kSwitchInfo, 0).data())
                     .partition_enforcement_cap;
  std::vector<mad::Mad> blocks;
  for (unsigned b = 0; b * 32 < t.capacity; ++b)
    blocks.push_back(c.smp(p.route, mad::kGet, mad::kPKeyTable, (uint32_t{p.port} << 16) | b));
  for (unsigned i = 0; i < t.capacity; ++i)
    t.pkeys.push_back(
        static_cast<uint16_t>(element(mad::kPKeyTable, "P_KeyTableBlock", blocks, i)));
  return t;
}

GuidTable read_guids(MadClient& c, const TablePort& p) {
  if (p.node.is_switch() && p.port != 0)
    throw Error(mad::route_text(p.route) + " is a switch: only its port 0 has GUIDs (port " +
                std::to_string(p.port) + " has none)");
  mad::Mad pi = c.smp(p.route, mad::kGet, mad::kPortInfo, p.port);
  GuidTable t;
  t.capacity = static_cast<unsigned>(pi.get_attr(mad::kPortInfo, "GUIDCap"));
  std::vector<mad::Mad> blocks;
  for (unsigned b = 0; b * 8 < t.capacity; ++b)
    blocks.push_back(c.smp(p.route, mad::kGet, mad::kGuidInfo, b));
  for (unsigned i = 0; i < t.capacity; ++i)
    t.guids.push_back(element(mad::kGuidInfo, "GUIDBlock", blocks, i));
  return t;
}

void read_sl2vl(MadClient& c, const TablePort& p,
                const std::function<void(const Sl2VlTable&)>& each) {
  auto table = [&](uint32_t mod, std::optional<uint8_t> in) {
    mad::Mad m = c.smp(p.route, mad::kGet, mad::kSl2VlTable, mod);
    Sl2VlTable t;
    t.in_port = in;
    for (unsigned sl = 0; sl < t.vl.size(); ++sl)
      t.vl[sl] = static_cast<uint8_t>(mad::get_field(mad::kSl2VlTable, m.data(), "SLtoVL", sl));
    each(t);
  };
  if (!p.node.is_switch()) return table(0, std::nullopt);
  for (unsigned in = 0; in <= p.node.num_ports; ++in)
    table((in << 8) | p.port, static_cast<uint8_t>(in));
}

void read_vlarb(MadClient& c, const TablePort& p,
                const std::function<void(const VlArbTable&)>& each) {
  if (p.node.is_switch() && p.port == 0 &&
      !SwitchInfo::from(c.smp(p.route, mad::kGet, mad::kSwitchInfo, 0).data()).enhanced_port0)
    throw Error(mad::route_text(p.route) +
                " port 0 is a base switch port 0: it has no VL arbitration tables");
  mad::Mad pi = c.smp(p.route, mad::kGet, mad::kPortInfo, p.port);
  for (bool high : {false, true}) {
    VlArbTable t;
    t.high = high;
    unsigned cap = static_cast<unsigned>(
        pi.get_attr(mad::kPortInfo, high ? "VLArbitrationHighCap" : "VLArbitrationLowCap"));
    unsigned first = high ? 3 : 1;
    std::vector<mad::Mad> blocks;
    for (unsigned b = 0; b * 32 < cap && b < 2; ++b)
      blocks.push_back(c.smp(p.route, mad::kGet, mad::kVlArbTable, ((first + b) << 16) | p.port));
    t.capacity = std::min(cap, 64u);
    for (unsigned i = 0; i < t.capacity; ++i)
      t.entries.push_back({static_cast<uint8_t>(element(mad::kVlArbTable, "VL", blocks, i)),
                           static_cast<uint8_t>(element(mad::kVlArbTable, "Weight", blocks, i))});
    each(t);
  }
}

}  // namespace rdma::ib
