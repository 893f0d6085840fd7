// The fabric views' records: a node (`fabric show`), a link or a lone port
// (`fabric links`). Text "key value" pairs and JSON with the same keys and
// values, as every MAD view.
#pragma once

#include "lib/ib/fabric_model.h"
#include "lib/mad/speed.h"
#include "lib/view/record.h"

namespace rdma::ib {

// type, node_guid, lids, ports, description; with detail also
// sys_image_guid, port_guid, vendor_id, device_id, revision and the route.
void node_record(const Node& n, int detail, view::Record& out);

// One end of a link and, when it has one, its peer: type, node_guid, port,
// port_guid (a CA's or router's port), lid, description, then peer_*; the
// link's width, speed, rate, generation and states (as the first end's
// PortInfo says, a host's link as its switch's says; with detail also
// what the ports support). A down port has no width or speed: its
// PortInfo's are meaningless (IBA C14-24.2.1), and iblinkinfo leaves them
// out too.
void port_record(const Fabric& f, PortRef end, int detail, view::Record& out);

// Which end of a link its record starts with, whatever order discovery
// found them in: a host's (a CA or router) before a switch's; between two
// switches (or two hosts) the lower node GUID's, then the lower port's.
// True when a comes first.
bool end_first(const Fabric& f, PortRef a, PortRef b);

// The port GUID of a CA's or router's port; 0 for a switch's ports (the
// switch's node GUID names them) or a port with none known.
uint64_t port_guid(const Fabric& f, PortRef p);

// The LID a port answers at: a switch's port 0 LID for any of its ports.
uint16_t port_lid(const Fabric& f, PortRef p);

// The PortInfo whose capability masks vouch for the extended speed fields
// of n's port p (lib/mad/speed.h): a switch's port 0 (null when it is not
// known), else the port's own.
const PortInfo* speed_caps(const Node& n, const PortInfo& p);

// The generation of the link p describes (mad::generation of its speed
// fields: LinkSpeedExtActive2, LinkSpeedExtActive, the vendor's FDR10,
// LinkSpeedActive), the extended ones as caps' masks vouch for them (all
// of them without caps).
mad::Generation link_generation(const PortInfo& p, const PortInfo* caps = nullptr);

// "4X", "25.78125" (Gb/s per lane, as lib/mad/speed.h reads the speed
// fields, caps as for link_generation).
std::string width_text(const PortInfo& p);
std::string speed_text(const PortInfo& p, const PortInfo* caps = nullptr);

}  // namespace rdma::ib
