#include "lib/ib/saved_node.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <string_view>
#include <type_traits>

#include "lib/ib/saved_fields.h"
#include "lib/ib/topology_read.h"
#include "lib/mad/attrs.h"
#include "lib/mad/field.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

// The attribute's fields the model holds, encoded into its bytes; then
// decoded, only those, into out. Returns the labels detail would show that
// are not held.
template <typename S, typename Fields>
std::vector<std::string> add_held(const mad::AttrDef& a, const S& s, Fields fields, bool topology,
                                  int detail, view::Record& out) {
  std::vector<uint8_t> bytes(a.bytes, 0);
  std::set<std::string_view> held;
  encode_held(a, s, fields, topology ? topology_holds : nullptr, bytes, held);
  std::vector<mad::FieldDef> shown;
  std::vector<std::string> missing;
  for (const mad::FieldDef& f : a.fields) {
    if (held.count(f.name))
      shown.push_back(f);
    else if (f.level <= detail)
      missing.push_back(f.label);
  }
  mad::decode_fields(shown, bytes, detail, out);
  return missing;
}

}  // namespace

std::vector<std::string> add_saved_node(const Node& n, unsigned port, bool topology, int detail,
                                        const NodeNameMap& names, view::Record& out) {
  NodeInfo info = n.info;
  if (!n.is_switch() && n.port(port) && n.port(port)->guid) {
    info.port_guid = n.port(port)->guid;
    info.local_port = static_cast<uint8_t>(port);
  }
  std::vector<std::string> missing = add_held(
      mad::kNodeInfo, info, [](auto& s, auto&& g) { node_info_fields(s, g); }, topology, detail,
      out);
  if (n.sw) {
    std::vector<std::string> m = add_held(
        mad::kSwitchInfo, *n.sw, [](auto& s, auto&& g) { switch_info_fields(s, g); }, topology,
        detail, out);
    missing.insert(missing.end(), m.begin(), m.end());
  }
  std::vector<uint8_t> desc(mad::kNodeDescription.bytes, 0);
  std::memcpy(desc.data(), n.description.data(), std::min(desc.size(), n.description.size()));
  mad::decode(mad::kNodeDescription, desc, detail, out);
  rename_description(names, n.info.node_guid, out);
  return missing;
}

}  // namespace rdma::ib
