#include "lib/ib/fabric_edit.h"

#include "lib/error.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

std::string hex(uint64_t guid) {
  return mad::guid_hex(guid);
}

bool port_guid_taken(const Fabric& f, uint64_t guid) {
  for (const Node& n : f.nodes)
    for (const Port& p : n.ports)
      if (p.guid == guid) return true;
  return false;
}

void new_node_guid(Fabric& f, const GuidEdit& e, bool want_switch) {
  std::optional<uint32_t> index = f.index_of(e.before);
  const char* kind = want_switch ? "switch" : "channel adapter";
  if (!index) throw Error("no node has GUID " + hex(e.before) + " in the saved fabric");
  Node& n = f.nodes[*index];
  if (n.is_switch() != want_switch)
    throw Error("node GUID " + hex(e.before) + " is a " +
                (n.is_switch() ? "switch's" : "channel adapter's") + ", not a " + kind + "'s");
  if (e.after != e.before && f.find(e.after))
    throw Error("node GUID " + hex(e.after) + " is another node's already");
  // A switch's port 0 has the switch's GUID: it changes with it.
  if (want_switch && e.after != e.before && port_guid_taken(f, e.after))
    throw Error("port GUID " + hex(e.after) + " is another port's already");
  n.info.node_guid = e.after;
  f.reindex();
  if (want_switch) {
    if (n.info.port_guid == e.before) n.info.port_guid = e.after;
    if (!n.ports.empty() && n.ports[0].guid == e.before) n.ports[0].guid = e.after;
  }
}

}  // namespace

void edit_guid(Fabric& f, const GuidEdit& e) {
  switch (e.kind) {
    case GuidEdit::Kind::Switch:
      return new_node_guid(f, e, true);
    case GuidEdit::Kind::Ca:
      return new_node_guid(f, e, false);
    case GuidEdit::Kind::SysImage: {
      bool any = false;
      for (Node& n : f.nodes)
        if (n.info.sys_image_guid == e.before) {
          n.info.sys_image_guid = e.after;
          any = true;
        }
      if (!any)
        throw Error("no node has system image GUID " + hex(e.before) + " in the saved fabric");
      return;
    }
    case GuidEdit::Kind::Port: {
      std::optional<uint32_t> index = f.index_of(e.node);
      if (!index) throw Error("no node has GUID " + hex(e.node) + " in the saved fabric");
      Node& n = f.nodes[*index];
      Port* port = nullptr;
      for (Port& p : n.ports)
        if (p.guid == e.before && p.guid) port = &p;
      if (!port) throw Error("node " + hex(e.node) + " has no port with GUID " + hex(e.before));
      if (e.after != e.before && port_guid_taken(f, e.after))
        throw Error("port GUID " + hex(e.after) + " is another port's already");
      port->guid = e.after;
      // NodeInfo's PortGUID is the port discovery came in by: that one too.
      if (n.info.port_guid == e.before) n.info.port_guid = e.after;
      return;
    }
  }
}

}  // namespace rdma::ib
