// The node and port lines of ibnetdiscover's topology file, split into
// their parts: one reading for both readers of the format, the fabric's
// (lib/ib/topology_read.h) and the cable plan's (lib/ib/cable_plan.h),
// which then take from the parts what each needs.
#pragma once

#include <optional>
#include <string>

namespace rdma::ib {

// `Switch 8 "S-0002c90300000001"  # "sw1" enhanced port 0 lid 2 lmc 0`
struct TopologyNodeLine {
  std::string type;   // Switch, Hca, Ca or Rt
  std::string ports;  // the digits
  std::string id;     // between the quotes
  std::string rest;   // what follows the ID
};

// `[1][ext 1](guid) "H-..."[1](guid)  # lid 1 lmc 0 "hca1" lid 2 4xSDR`;
// [ext N] (ibnetdiscover -g's faceplate numbers) is skipped.
struct TopologyPortLine {
  std::string port;
  std::optional<std::string> guid;  // this end's "(GUID)", hex digits
  std::string peer_id;
  std::string peer_port;
  std::optional<std::string> peer_guid;
  std::string rest;
};

// t trimmed; nothing when it is no such line.
std::optional<TopologyNodeLine> topology_node_line(const std::string& t);
std::optional<TopologyPortLine> topology_port_line(const std::string& t);

}  // namespace rdma::ib
