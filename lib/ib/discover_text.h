// The text discovery's nodes and warnings are made of: a NodeDescription's
// text, a directed route, what a node is.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/ib/smp.h"
#include "lib/ib/types.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"

namespace rdma::ib::discover_text {

// A NodeDescription's text: up to its 64 bytes, to the first NUL.
inline std::string description_of(std::span<const uint8_t> a) {
  return mad::c_string(a.first(std::min<size_t>(a.size(), 64)));
}
inline std::string route(const std::vector<uint8_t>& path) {
  return mad::route_text({true, 0, path});
}
// "a switch with 36 ports"
inline std::string what(const NodeInfo& ni) {
  const char* type = node_type_name(ni.node_type);
  return std::string("a ") +
         (type ? std::string(type) : "node of type " + std::to_string(ni.node_type)) + " with " +
         std::to_string(ni.num_ports) + (ni.num_ports == 1 ? " port" : " ports");
}

}  // namespace rdma::ib::discover_text
