#include "lib/stat/qp_counter.h"

#include <rdma/rdma_netlink.h>

#include "lib/error.h"

namespace rdma::stat {

QpCounter parse_qp_counter(const nl::Attrs& a) {
  a.need({RDMA_NLDEV_ATTR_STAT_COUNTER_ID, RDMA_NLDEV_ATTR_RES_QP, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS},
         "QP counter without id, QP table or hardware counters");
  QpCounter c;
  c.id = a.u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID);
  if (a.has(RDMA_NLDEV_ATTR_PORT_INDEX)) c.port = a.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
  if (a.has(RDMA_NLDEV_ATTR_RES_TYPE)) c.qp_type = a.u8(RDMA_NLDEV_ATTR_RES_TYPE);
  if (a.has(RDMA_NLDEV_ATTR_RES_PID)) c.pid = a.u32(RDMA_NLDEV_ATTR_RES_PID);
  if (a.has(RDMA_NLDEV_ATTR_RES_KERN_NAME))
    c.kern = std::string(a.str(RDMA_NLDEV_ATTR_RES_KERN_NAME));
  nl::for_each_nested(a.get(RDMA_NLDEV_ATTR_RES_QP), [&](const nlattr* entry) {
    nl::Attrs q = nl::Attrs::of_nest(entry);
    q.need({RDMA_NLDEV_ATTR_RES_LQPN},
           [&] { return "QP of counter " + std::to_string(c.id) + " without a QP number"; });
    c.lqpns.push_back(q.u32(RDMA_NLDEV_ATTR_RES_LQPN));
  });
  c.counters = parse_hwcounters(a.get(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS));
  return c;
}

const char* qp_type_name(uint8_t type) {
  static constexpr const char* kNames[] = {
      "SMI",           "GSI",     "RC",         "UC",      "UD",      "RAW_IPV6",
      "RAW_ETHERTYPE", "UNKNOWN", "RAW_PACKET", "XRC_INI", "XRC_TGT",
  };
  if (type < std::size(kNames)) return kNames[type];
  return type == 0xff ? "DRIVER" : "UNKNOWN";
}

}  // namespace rdma::stat
