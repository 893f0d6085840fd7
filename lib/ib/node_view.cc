#include "lib/ib/node_view.h"

#include <span>

#include "lib/ib/sa_records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

std::vector<uint8_t> bytes(std::span<const uint8_t> s) {
  return {s.begin(), s.end()};
}

}  // namespace

NodeAttrs read_node_attrs(MadClient& c, const mad::Route& r) {
  NodeAttrs a;
  a.info = bytes(c.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
  a.description = bytes(c.smp(r, mad::kGet, mad::kNodeDescription, 0).data());
  if (a.node().is_switch()) a.switch_info = bytes(c.smp(r, mad::kGet, mad::kSwitchInfo, 0).data());
  return a;
}

NodeAttrs read_node_attrs_sa(MadClient& c, const mad::Target& t) {
  std::vector<uint8_t> node = c.sa_records(t, mad::kNodeRecord).front();
  NodeAttrs a;
  a.lid = static_cast<uint16_t>(mad::get_field(mad::kNodeRecord, node, "LID"));
  a.info = bytes(sa_carried(mad::kNodeRecord, mad::kNodeInfo, node));
  a.description = bytes(sa_carried(mad::kNodeRecord, mad::kNodeDescription, node));
  if (a.node().is_switch()) {
    mad::Target at;
    at.lid = a.lid;
    std::vector<uint8_t> sw = c.sa_records(at, mad::kSwitchInfoRecord).front();
    a.switch_info = bytes(sa_carried(mad::kSwitchInfoRecord, mad::kSwitchInfo, sw));
  }
  return a;
}

void add_node_attrs(const NodeAttrs& a, int detail, const NodeNameMap& names, view::Record& out) {
  mad::decode(mad::kNodeInfo, a.info, detail, out);
  if (!a.switch_info.empty()) mad::decode(mad::kSwitchInfo, a.switch_info, detail, out);
  mad::decode(mad::kNodeDescription, a.description, detail, out);
  rename_description(names, a.node().node_guid, out);
}

NodeInfo read_node_info(MadClient& c, const mad::Route& r) {
  return NodeInfo::from(c.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
}

}  // namespace rdma::ib
