#include "lib/ib/port_address.h"

#include "lib/error.h"
#include "lib/ib/sa_records.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/result.h"

namespace rdma::ib {

PortAddress port_address(std::span<const uint8_t> port_info, unsigned port,
                         std::span<const uint8_t> node_info) {
  PortInfo pi = PortInfo::from(port_info);
  NodeInfo ni = NodeInfo::from(node_info);
  PortAddress a;
  if (ni.is_switch() && port != 0) return a;  // an external port: no address
  if (ni.is_switch() || port == 0 || port == pi.local_port) {
    std::array<uint8_t, 16> g{};
    for (int i = 0; i < 8; ++i) {
      g[i] = static_cast<uint8_t>(pi.gid_prefix >> (56 - 8 * i));
      g[8 + i] = static_cast<uint8_t>(ni.port_guid >> (56 - 8 * i));
    }
    a.gid = g;
  }
  if (pi.lid) a.lid_end = static_cast<uint16_t>(pi.lid + (1u << pi.lmc) - 1);
  return a;
}

PortAddress port_address(MadClient& c, const mad::Route& route, std::span<const uint8_t> port_info,
                         unsigned port) {
  mad::Mad ni;
  try {
    ni = c.smp(route, mad::kGet, mad::kNodeInfo, 0);
  } catch (const mad::MadError&) {
    return {};  // the PortInfo shown is the answer; no address beside it
  }
  return port_address(port_info, port, ni.data());
}

PortAddress port_address_sa(MadClient& c, const mad::Target& t, std::span<const uint8_t> port_info,
                            unsigned port) {
  std::vector<std::vector<uint8_t>> recs;
  try {
    recs = c.sa_records(t, mad::kNodeRecord);
  } catch (const Error&) {
    return {};  // the PortInfo shown is the answer; no address beside it
  }
  return port_address(port_info, port, sa_carried(mad::kNodeRecord, mad::kNodeInfo, recs.front()));
}

void add_port_address(const PortAddress& a, view::Record& out) {
  if (a.lid_end) out.pair("lid_end", *a.lid_end);
  if (a.gid) out.pair("gid", mad::gid_text(*a.gid));
}

}  // namespace rdma::ib
