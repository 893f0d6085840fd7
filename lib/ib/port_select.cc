#include "lib/ib/port_select.h"

#include "lib/error.h"

namespace rdma::ib {

uint8_t table_port(const NodeInfo& n, std::optional<uint8_t> port, const std::string& where) {
  if (!port) return n.is_switch() ? 0 : n.local_port;
  if (n.is_switch() && *port > n.num_ports)
    throw Error(where + " has no port " + std::to_string(*port) + " (a switch with ports 0-" +
                std::to_string(n.num_ports) + ")");
  if (!n.is_switch() && *port != n.local_port)
    throw Error(where + " is a channel adapter: it answers for port " +
                std::to_string(n.local_port) + ", where the MAD arrives; reach port " +
                std::to_string(*port) + " by its own LID or a directed route");
  return *port;
}

void check_port(const NodeInfo& n, uint8_t port, const std::string& where) {
  if (n.is_switch() && port <= n.num_ports) return;
  if (!n.is_switch() && port >= 1 && port <= n.num_ports) return;
  std::string has = n.is_switch() ? "a switch with ports 0-" + std::to_string(n.num_ports)
                    : n.num_ports == 1
                        ? std::string("a channel adapter with port 1")
                        : "a channel adapter with ports 1-" + std::to_string(n.num_ports);
  throw Error(where + " has no port " + std::to_string(port) + " (" + has + ")");
}

std::vector<uint8_t> perf_ports(const NodeInfo& n, std::optional<uint8_t> port, bool all,
                                bool all_port_select) {
  if (!all) return {port.value_or(n.is_switch() ? 1 : n.local_port)};
  if (all_port_select) return {kAllPorts};
  std::vector<uint8_t> ports;
  for (unsigned p = 1; p <= n.num_ports; ++p) ports.push_back(static_cast<uint8_t>(p));
  return ports;
}

}  // namespace rdma::ib
