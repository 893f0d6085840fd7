#include "rdma/ib/topology_grouped.h"

#include "lib/ib/chassis.h"
#include "lib/ib/records.h"
#include "lib/mad/format.h"
#include "rdma/ib/fabric_source.h"

namespace rdma {

namespace {

// The node's chassis as one object, null outside any: its number and GUID,
// and for a chip placed in a slot, the system type, slot and chip ("router":
// a CA or router module in a line slot).
view::Json chassis_json(const ib::Grouping& g, uint32_t i) {
  unsigned number = g.chassis_of[i];
  if (!number) return nullptr;
  view::Json j = view::Json::object();
  j["number"] = number;
  j["guid"] = mad::guid_hex(g.chassis[number - 1].guid);
  if (const auto& p = g.place[i]) {
    j["type"] = p->type;
    j["slot"] = p->slot == ib::ChassisSlot::Line    ? "line"
                : p->slot == ib::ChassisSlot::Spine ? "spine"
                                                    : "router";
    j["slot_number"] = p->number;
    j["chip"] = p->number ? p->chip : 0;
  }
  return j;
}

}  // namespace

void fabric_topology_grouped(Ctx& c, const FabricSource& src, ib::TopologyStyle style) {
  style.grouped = true;
  ib::Fabric f = fabric_of(c, src, nullptr, fabric_options(c));
  if (!c.out.is_json()) {
    std::fflush(c.help_out);
    ib::write_topology(f, c.help_out, style);
    return;
  }
  ib::Grouping g = ib::group_chassis(f);
  view::Record rec;
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    rec.clear();
    ib::node_record(f.nodes[i], 1, rec);
    rec.add("chassis", "", chassis_json(g, i));
    c.out.record(rec);
  }
}

}  // namespace rdma
