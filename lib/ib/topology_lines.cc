#include "lib/ib/topology_lines.h"

#include <regex>

namespace rdma::ib {

std::optional<TopologyNodeLine> topology_node_line(const std::string& t) {
  static const std::regex kNode(R"re(^(Switch|Hca|Ca|Rt)\s+(\d+)\s+"([^"]*)"(.*)$)re");
  std::smatch m;
  if (!std::regex_match(t, m, kNode)) return std::nullopt;
  return TopologyNodeLine{m[1].str(), m[2].str(), m[3].str(), m[4].str()};
}

std::optional<TopologyPortLine> topology_port_line(const std::string& t) {
  static const std::regex kPort(
      R"re(^\[(\d+)\](\[ext \d+\])?(\(([0-9a-fA-F]+)\))?\s*"([^"]*)"\[(\d+)\](\[ext \d+\])?(\(([0-9a-fA-F]+)\))?(.*)$)re");
  std::smatch m;
  if (!std::regex_match(t, m, kPort)) return std::nullopt;
  TopologyPortLine l;
  l.port = m[1].str();
  if (m[4].matched) l.guid = m[4].str();
  l.peer_id = m[5].str();
  l.peer_port = m[6].str();
  if (m[9].matched) l.peer_guid = m[9].str();
  l.rest = m[10].str();
  return l;
}

}  // namespace rdma::ib
