#include "lib/ib/records.h"

#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"

namespace rdma::ib {

std::string width_text(const PortInfo& p) {
  return mad::value_text(mad::Fmt::Width, p.width_active);
}

const PortInfo* speed_caps(const Node& n, const PortInfo& p) {
  if (!n.is_switch()) return &p;
  return n.ports.empty() || !n.ports[0].info ? nullptr : &*n.ports[0].info;
}

mad::Generation link_generation(const PortInfo& p, const PortInfo* caps) {
  mad::ExtSpeedCaps trusted =
      caps ? mad::ext_speed_caps(caps->caps, caps->caps2) : mad::ExtSpeedCaps{true, true};
  return mad::trusted_generation(trusted, p.speed_active, p.speed_ext_active, p.speed_ext2_active,
                                 p.mlnx_speed_active & mad::kMlnxSpeedFdr10);
}

std::string speed_text(const PortInfo& p, const PortInfo* caps) {
  return mad::speed_text(link_generation(p, caps), p.speed_active);
}

void node_record(const Node& n, int detail, view::Record& out) {
  const char* type = node_type_name(n.info.node_type);
  out.pair("type", type ? type : "unknown(" + std::to_string(n.info.node_type) + ")");
  out.pair("node_guid", mad::guid_hex(n.info.node_guid));
  std::vector<uint16_t> lids = n.lids();
  std::string text;
  view::Json arr = view::Json::array();
  for (uint16_t l : lids) {
    text += (text.empty() ? "" : ",") + std::to_string(l);
    arr.push_back(l);
  }
  out.pair("lids", text.empty() ? "-" : text, std::move(arr));
  out.pair("ports", n.info.num_ports);
  if (detail) {
    out.pair("sys_image_guid", mad::guid_hex(n.info.sys_image_guid));
    out.pair("port_guid", mad::guid_hex(n.info.port_guid));
    out.pair("vendor_id", mad::value_text(mad::Fmt::Hex, n.info.vendor_id, 24));
    out.pair("device_id", mad::value_text(mad::Fmt::Hex, n.info.device_id, 16));
    out.pair("revision", mad::value_text(mad::Fmt::Hex, n.info.revision, 32));
    out.pair("route", mad::route_text({true, 0, n.path}));
  }
  out.pair("description", mad::desc_text(n.description), n.description);
}

bool end_first(const Fabric& f, PortRef a, PortRef b) {
  const Node& na = f.nodes[a.node];
  const Node& nb = f.nodes[b.node];
  if (na.is_switch() != nb.is_switch()) return !na.is_switch();
  if (na.info.node_guid != nb.info.node_guid) return na.info.node_guid < nb.info.node_guid;
  return a.port < b.port;
}

uint16_t port_lid(const Fabric& f, PortRef p) {
  const Node& n = f.nodes[p.node];
  const Port& port = n.is_switch() ? n.ports[0] : n.ports[p.port];
  return port.info ? port.info->lid : 0;
}

uint64_t port_guid(const Fabric& f, PortRef p) {
  const Node& n = f.nodes[p.node];
  if (n.is_switch() || p.port == 0) return 0;
  const Port* port = n.port(p.port);
  return port ? port->guid : 0;
}

void port_record(const Fabric& f, PortRef end, int detail, view::Record& out) {
  auto side = [&](const char* prefix, PortRef r) {
    const Node& n = f.nodes[r.node];
    std::string p = prefix;
    // What each end is, so that a consumer needs no join with fabric show.
    const char* type = node_type_name(n.info.node_type);
    std::string t = type ? type : "unknown(" + std::to_string(n.info.node_type) + ")";
    out.add(p + "type", p + "type " + t + " ", t);
    out.add(p + "node_guid", p + "node_guid " + mad::guid_hex(n.info.node_guid) + " ",
            mad::guid_hex(n.info.node_guid));
    out.add(p + "port", p + "port " + std::to_string(r.port) + " ", r.port);
    // A CA's or router's port has a GUID of its own (ibqueryerrors prints it).
    if (uint64_t g = port_guid(f, r))
      out.add(p + "port_guid", p + "port_guid " + mad::guid_hex(g) + " ", mad::guid_hex(g));
    out.add(p + "lid", p + "lid " + std::to_string(port_lid(f, r)) + " ", port_lid(f, r));
    out.add(p + "description", p + "description " + mad::desc_text(n.description) + " ",
            n.description);
  };
  side("", end);
  const Port& port = f.at(end);
  auto settings = [&](const std::string& p, const std::optional<PortInfo>& i) {
    if (!i) return;
    if (i->hoq_life) out.pair(p + "hoq_life", unsigned{*i->hoq_life});
    if (i->vl_stall_count) out.pair(p + "vl_stall_count", unsigned{*i->vl_stall_count});
  };
  if (port.peer) side("peer_", *port.peer);
  // The link as the first end sees it (the other end's when it has none),
  // but a host's link as its switch sees it, as iblinkinfo reads it
  // whichever end the record starts with.
  const PortInfo* pi = port.info ? &*port.info : nullptr;
  const Node* pn = &f.nodes[end.node];
  const bool switch_peer = port.peer && !pn->is_switch() && f.nodes[port.peer->node].is_switch();
  if ((!pi || switch_peer) && port.peer && f.at(*port.peer).info) {
    pi = &*f.at(*port.peer).info;
    pn = &f.nodes[port.peer->node];
  }
  if (!pi) return;
  if (pi->state != kPortDown) {
    out.pair("width", width_text(*pi));
    mad::add_speed(out, link_generation(*pi, speed_caps(*pn, *pi)), pi->width_active,
                   pi->speed_active);
  }
  out.pair("state", mad::value_text(mad::Fmt::PortState, pi->state));
  out.pair("physical_state", mad::value_text(mad::Fmt::PhysState, pi->phys_state));
  if (detail) {
    out.pair("width_supported", mad::value_text(mad::Fmt::WidthMask, pi->width_supported));
    out.pair("speed_supported", mad::value_text(mad::Fmt::SpeedMask, pi->speed_supported));
    out.pair("speed_ext_supported",
             mad::value_text(mad::Fmt::SpeedExtMask, pi->speed_ext_supported));
    // Text and JSON (the number 2048) as PortInfo's own field prints.
    std::string mtu;
    view::Json mtu_json;
    mad::render_value(*mad::find_field(mad::kPortInfo, "NeighborMTU"), pi->mtu, mtu, mtu_json);
    out.pair("mtu", mtu, std::move(mtu_json));
    // Each end's own settings (iblinkinfo -p prints the end its line
    // starts from): the switch's HOQLife differs from the host's.
    settings("", port.info);
    if (port.peer) settings("peer_", f.at(*port.peer).info);
  }
}

}  // namespace rdma::ib
