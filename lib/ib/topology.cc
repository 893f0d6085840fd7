#include "lib/ib/topology.h"

#include <cinttypes>
#include <optional>

#include "lib/ib/chassis.h"
#include "lib/ib/records.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

namespace {

uint16_t lid_of(const Fabric& f, PortRef r) {
  const Node& n = f.nodes[r.node];
  const Port& p = n.ports[n.is_switch() ? 0 : r.port];
  return p.info ? p.info->lid : 0;
}

unsigned lmc_of(const Fabric& f, PortRef r) {
  const Node& n = f.nodes[r.node];
  const Port& p = n.ports[n.is_switch() ? 0 : r.port];
  return p.info ? p.info->lmc : 0;
}

}  // namespace

// "S-0000000000200000": ibnetdiscover's node names, a type letter and the
// node GUID, so the file names every node uniquely.
std::string topology_node_name(const Node& n) {
  char buf[32];
  char t = n.is_switch()                                                ? 'S'
           : n.info.node_type == static_cast<uint8_t>(NodeType::Router) ? 'R'
                                                                        : 'H';
  std::snprintf(buf, sizeof buf, "%c-%016" PRIx64, t, n.info.node_guid);
  return buf;
}

namespace {

const char* width_text(uint8_t width_active) {
  switch (width_active) {
    case 1:
      return "1x";
    case 2:
      return "4x";
    case 4:
      return "8x";
    case 8:
      return "12x";
    case 16:
      return "2x";
  }
  return "?";
}

}  // namespace

std::string rate_text(const PortInfo& p, const PortInfo* caps) {
  const char* speed = mad::generation_name(link_generation(p, caps));
  if (!speed) speed = "?";
  return std::string(width_text(p.width_active)) + speed;
}

namespace {

// One node's block: its IDs, its node line and a line per linked port.
// With g (ibnetdiscover -g), the chassis notes and the faceplate's port
// numbers as "[ext N]". in_slot: a chassis' spine or line position, where
// ibnetdiscover -g prints a CA or router module as a switch too (no port
// 0: LID 0, its links' speed "???", s=0).
void write_node(const Fabric& f, uint32_t i, std::FILE* out, TopologyStyle style, const Grouping* g,
                bool in_slot = false) {
  const Node& n = f.nodes[i];
  bool as_switch = n.is_switch() || in_slot;
  std::fprintf(out, "\nvendid=0x%x\ndevid=0x%x\n", n.info.vendor_id, n.info.device_id);
  // As ibnetdiscover: no sysimgguid= for none (ibsim's routers have none).
  if (n.info.sys_image_guid) std::fprintf(out, "sysimgguid=0x%" PRIx64, n.info.sys_image_guid);
  if (g && g->chassis_of[i]) std::fprintf(out, "\t\t# Chassis %u", g->chassis_of[i]);
  if (n.info.sys_image_guid || (g && g->chassis_of[i])) std::fprintf(out, "\n");
  auto ext = [&](PortRef r) {
    unsigned e = g ? g->external_port(f, r) : 0;
    return e ? "[ext " + std::to_string(e) + "]" : std::string();
  };
  if (as_switch) {
    std::fprintf(out, "switchguid=0x%" PRIx64 "(%" PRIx64 ")", n.info.node_guid, n.info.port_guid);
    if (g) {
      std::string note = g->note(f, i);
      // ibnetdiscover ends the line "\t# " with no note: no blank at the
      // end here.
      std::fprintf(out, "\t#%s%s", note.empty() ? "" : " ", note.c_str());
    }
    std::fprintf(out, "\nSwitch\t%u \"%s\"\t\t# \"%s\" %s port 0 lid %u lmc %u\n", n.info.num_ports,
                 topology_node_name(n).c_str(), n.description.c_str(),
                 n.sw && n.sw->enhanced_port0 ? "enhanced" : "base",
                 n.is_switch() ? lid_of(f, {i, 0}) : 0, n.is_switch() ? lmc_of(f, {i, 0}) : 0);
  } else {
    bool router = n.info.node_type == static_cast<uint8_t>(NodeType::Router);
    std::fprintf(out, "%s=0x%" PRIx64 "\n", router ? "rtguid" : "caguid", n.info.node_guid);
    std::fprintf(out, "%s\t%u \"%s\"\t\t# \"%s\"\n", router ? "Rt" : "Ca", n.info.num_ports,
                 topology_node_name(n).c_str(), n.description.c_str());
  }
  for (const Port& p : n.ports) {
    if (!p.peer) continue;
    const Node& peer = f.nodes[p.peer->node];
    const Port& pp = f.at(*p.peer);
    std::string rate = p.info    ? rate_text(*p.info, speed_caps(n, *p.info))
                       : pp.info ? rate_text(*pp.info, speed_caps(peer, *pp.info))
                                 : "?";
    if (as_switch && !n.is_switch())
      rate = std::string(p.info ? width_text(p.info->width_active) : "?") + "???";
    // -f's codes, from this side's PortInfo (none when it was not read).
    char full[40] = "";
    if (style.full && p.info)
      std::snprintf(full, sizeof full, " s=%u w=%u v=%u",
                    as_switch && !n.is_switch() ? 0 : p.info->speed_active, p.info->width_active,
                    p.info->vl_cap);
    char peer_guid[24] = "";
    if (!peer.is_switch()) std::snprintf(peer_guid, sizeof peer_guid, "(%" PRIx64 ")", pp.guid);
    std::string peer_ext = ext(*p.peer);
    if (as_switch) {
      std::fprintf(out, "[%u]%s\t\"%s\"[%u]%s%s%s\t\t# \"%s\" lid %u %s%s\n", p.num,
                   ext({i, p.num}).c_str(), topology_node_name(peer).c_str(), p.peer->port,
                   peer_ext.c_str(), peer_guid, *peer_guid ? " " : "", peer.description.c_str(),
                   lid_of(f, *p.peer), rate.c_str(), full);
    } else {
      std::fprintf(out,
                   "[%u](%" PRIx64 ") \t\"%s\"[%u]%s%s%s\t\t# lid %u lmc %u \"%s\" lid %u %s%s\n",
                   p.num, p.guid, topology_node_name(peer).c_str(), p.peer->port, peer_ext.c_str(),
                   peer_guid, *peer_guid ? " " : "", lid_of(f, {i, p.num}), lmc_of(f, {i, p.num}),
                   peer.description.c_str(), lid_of(f, *p.peer), rate.c_str(), full);
    }
  }
}

}  // namespace

void write_topology(const Fabric& f, std::FILE* out, TopologyStyle style) {
  if (!f.nodes.empty()) {
    const Node& local = f.nodes[0];
    std::fprintf(out, "#\n# Topology file: generated by rdma fabric topology\n#\n");
    std::fprintf(out, "# Initiated from node %016" PRIx64 " port %016" PRIx64 "\n",
                 local.info.node_guid, local.info.port_guid);
  }
  std::optional<Grouping> g;
  if (style.grouped) {
    // ibnetdiscover -g: each chassis (spines, lines, its other switches,
    // its CAs), then the switches outside any; CAs and routers follow as
    // always, those of a chassis left out.
    g = group_chassis(f);
    for (const Chassis& c : g->chassis) {
      std::fprintf(out, "\nChassis %u", c.number);
      if (c.guid) std::fprintf(out, " (guid 0x%" PRIx64 ")", c.guid);
      std::fprintf(out, "\n\n# Spine Nodes");
      for (uint32_t i : c.spines) write_node(f, i, out, style, &*g, true);
      std::fprintf(out, "\n# Line Nodes");
      for (uint32_t i : c.lines) write_node(f, i, out, style, &*g, true);
      std::fprintf(out, "\n# Chassis Switches");
      for (uint32_t i : c.nodes)
        if (f.nodes[i].is_switch()) write_node(f, i, out, style, &*g);
      std::fprintf(out, "\n# Chassis CAs");
      for (uint32_t i : c.nodes)
        if (f.nodes[i].info.node_type == static_cast<uint8_t>(NodeType::Ca))
          write_node(f, i, out, style, &*g);
    }
    std::fprintf(out, "\nNon-Chassis Nodes\n");
  }
  // Switches first, then CAs and routers, as ibnetdiscover groups them.
  for (bool switches : {true, false})
    for (uint32_t i = 0; i < f.nodes.size(); ++i)
      if (f.nodes[i].is_switch() == switches && !(g && g->chassis_of[i]))
        write_node(f, i, out, style, g ? &*g : nullptr);
}

}  // namespace rdma::ib
