#include "lib/ib/check_nodes.h"

#include <map>
#include <regex>
#include <tuple>

#include "lib/ib/types.h"
#include "lib/mad/format.h"

namespace rdma::ib {

bool default_description(const std::string& d) {
  static const std::regex kModel(R"re(^\s*$|^MT\d+\b|Mellanox Technologies\s*$|^Nvidia\b)re",
                                 std::regex::icase);
  return std::regex_search(d, kModel);
}

namespace {

// A node as a finding names it: a switch by port 0, a CA or router by its
// first port that has a link (its LID with it).
FindingPlace node_place(const Fabric& f, uint32_t n) {
  const Node& node = f.nodes[n];
  if (!node.is_switch())
    for (const Port& p : node.ports)
      if (p.num && p.peer) return place(f, n, p.num);
  return place(f, n, 0);
}

}  // namespace

std::vector<Finding> check_nodes(const Fabric& f) {
  std::vector<Finding> out;
  auto add = [&](Severity s, std::string what, std::vector<FindingPlace> where) {
    out.push_back({"nodes", s, std::move(what), std::move(where)});
  };
  // Descriptions two nodes have, in the order first met.
  std::map<std::string, std::vector<uint32_t>> by_desc;
  std::vector<std::string> order;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    auto& v = by_desc[f.nodes[n].description];
    if (v.empty()) order.push_back(f.nodes[n].description);
    v.push_back(n);
  }
  for (const std::string& d : order) {
    const std::vector<uint32_t>& v = by_desc[d];
    if (v.size() < 2) continue;
    std::vector<FindingPlace> where;
    for (uint32_t n : v) where.push_back(node_place(f, n));
    add(Severity::Warning,
        "description " + mad::desc_text(d) + " on " + std::to_string(v.size()) + " nodes",
        std::move(where));
  }
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (node.info.node_type != static_cast<uint8_t>(NodeType::Ca)) continue;
    if (default_description(node.description))
      add(Severity::Warning,
          "CA with a default description " + mad::desc_text(node.description) +
              " (is rdma-ndd running?)",
          {node_place(f, n)});
  }
  // Revisions within a model.
  using Model = std::tuple<uint8_t, uint32_t, uint16_t>;
  std::map<Model, std::map<uint32_t, std::vector<uint32_t>>> revs;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const NodeInfo& i = f.nodes[n].info;
    revs[{i.node_type, i.vendor_id, i.device_id}][i.revision].push_back(n);
  }
  for (const auto& [model, by_rev] : revs) {
    if (by_rev.size() < 2) continue;
    const auto& [type, vendor, device] = model;
    char head[96];

    const char* plural = !node_type_name(type)                            ? "nodes"
                         : type == static_cast<uint8_t>(NodeType::Switch) ? "switches"
                         : type == static_cast<uint8_t>(NodeType::Ca)     ? "CAs"
                                                                          : "routers";
    std::snprintf(head, sizeof head, "%s of VendorID 0x%x DeviceID 0x%x at %zu revisions:", plural,
                  vendor, device, by_rev.size());
    std::string what = head;
    std::vector<FindingPlace> where;
    size_t total = 0;
    for (const auto& [rev, nodes] : by_rev) total += nodes.size();
    for (const auto& [rev, nodes] : by_rev) {
      char r[48];
      std::snprintf(r, sizeof r, " 0x%x (%zu),", rev, nodes.size());
      what += r;
      // The nodes of the rarer revisions are the ones to look at.
      if (nodes.size() * 2 <= total)
        for (uint32_t n : nodes) where.push_back(node_place(f, n));
    }
    what.pop_back();
    add(Severity::Warning, what, std::move(where));
  }
  return out;
}

}  // namespace rdma::ib
