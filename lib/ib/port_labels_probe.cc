#include "lib/ib/port_labels_probe.h"

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/sa.h"

namespace rdma::ib {

namespace {

std::string node_description(MadClient& s, const mad::Route& r) {
  std::string desc;
  mad::Mad nd = s.smp(r, mad::kGet, mad::kNodeDescription, 0);
  for (uint8_t ch : nd.data().first(64)) {
    if (!ch) break;
    desc += static_cast<char>(ch);
  }
  return desc;
}

}  // namespace

PortLabelProbe::PortLabelProbe(MadClient& s, mad::Route r, const NodeInfo& node, NodeNameMap names)
    : s_(s), r_(std::move(r)), node_(node), names_(std::move(names)) {
  name_ = names_.name(node_.node_guid, node_description(s_, r_));
}

PortEnd PortLabelProbe::end_at(const mad::Route& r) {
  NodeInfo n = NodeInfo::from(s_.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
  // A switch's ports have no GUID of their own; a CA's NodeInfo.PortGUID is
  // the GUID of the port the SMP arrived on, which is the cable's.
  return {n.node_type, n.node_guid, names_.name(n.node_guid, node_description(s_, r)), n.local_port,
          n.is_switch() ? 0 : n.port_guid};
}

std::optional<PortEnd> PortLabelProbe::remote(uint8_t port) {
  if (port == 0xff) return std::nullopt;  // the sum of every port
  try {
    if (r_.directed) {
      // A port down has no far end to answer: not asked (each try would
      // wait its timeout).
      PortInfo pi = PortInfo::from(s_.smp(r_, mad::kGet, mad::kPortInfo, port).data());
      if (!pi.link_up()) return std::nullopt;
      mad::Route next = r_;
      next.path.push_back(port);
      return end_at(next);
    }
    std::vector<uint8_t> example(mad::kLinkRecord.bytes);
    mad::set_field(mad::kLinkRecord, example, "FromLID", r_.lid);
    mad::set_field(mad::kLinkRecord, example, "FromPort", port);
    uint64_t mask = mad::component_mask(mad::kLinkRecord, {"FromLID", "FromPort"});
    mad::SaTable t = mad::get_table(s_.engine(), s_.sm_lid(), mad::kLinkRecord, mask, example);
    for (const std::vector<uint8_t>& rec : t.records) {
      if (mad::get_field(mad::kLinkRecord, rec, "FromLID") != r_.lid ||
          mad::get_field(mad::kLinkRecord, rec, "FromPort") != port)
        continue;
      mad::Route to;
      to.lid = static_cast<uint16_t>(mad::get_field(mad::kLinkRecord, rec, "ToLID"));
      PortEnd e = end_at(to);
      e.port = static_cast<uint8_t>(mad::get_field(mad::kLinkRecord, rec, "ToPort"));
      return e;
    }
  } catch (const Error&) {
    // No link behind the port, no SA: the port without its far end.
  }
  return std::nullopt;
}

void PortLabelProbe::add(uint8_t port, view::Record& rec) {
  PortEnd local{node_.node_type, node_.node_guid, name_, port,
                !node_.is_switch() && node_.local_port == port ? node_.port_guid : 0};
  add_port_labels(local, remote(port), rec);
}

}  // namespace rdma::ib
