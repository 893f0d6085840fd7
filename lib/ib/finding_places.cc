#include "lib/ib/finding_places.h"

#include "lib/mad/format.h"

namespace rdma::ib {

std::string where_text(const Fabric& f, const std::vector<FindingPlace>& where) {
  std::string text;
  for (const FindingPlace& w : where) {
    const Node& n = f.nodes[w.node];
    text += (text.empty() ? "" : "; ") + mad::desc_text(n.description) + " " +
            mad::guid_hex(n.info.node_guid);
    if (w.port || !n.is_switch()) text += " port " + std::to_string(w.port);
    if (w.lid) text += " lid " + std::to_string(w.lid);
  }
  return text;
}

view::Json where_json(const Fabric& f, const std::vector<FindingPlace>& where) {
  view::Json json = view::Json::array();
  for (const FindingPlace& w : where) {
    const Node& n = f.nodes[w.node];
    view::Json j = {{"node_guid", mad::guid_hex(n.info.node_guid)}, {"description", n.description}};
    const char* type = node_type_name(n.info.node_type);
    j["type"] = type ? type : "unknown";
    if (w.port || !n.is_switch()) j["port"] = w.port;
    if (w.lid) j["lid"] = w.lid;
    if (w.port_guid) j["port_guid"] = mad::guid_hex(w.port_guid);
    json.push_back(std::move(j));
  }
  return json;
}

}  // namespace rdma::ib
