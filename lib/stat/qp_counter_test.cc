#include "lib/stat/qp_counter.h"

#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include <optional>
#include <string>
#include <vector>

#include "lib/error.h"

namespace rdma::stat {
namespace {

// One STAT_COUNTER_ENTRY as the kernel sends it (fill_res_counter_entry):
// id, port, the auto-mode type, its QPs and its hardware counters.
struct CounterMsg {
  std::vector<uint8_t> buf = std::vector<uint8_t>(1024);
  nlmsghdr* h = mnl_nlmsg_put_header(buf.data());
  void qps(std::vector<std::optional<uint32_t>> lqpns) {
    nlattr* table = mnl_attr_nest_start(h, RDMA_NLDEV_ATTR_RES_QP);
    for (std::optional<uint32_t> n : lqpns) {
      nlattr* e = mnl_attr_nest_start(h, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
      if (n) mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_RES_LQPN, *n);
      mnl_attr_nest_end(h, e);
    }
    mnl_attr_nest_end(h, table);
  }
  void hwcounter(const char* name, uint64_t v) {
    nlattr* table = mnl_attr_nest_start(h, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
    nlattr* e = mnl_attr_nest_start(h, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
    mnl_attr_put_strz(h, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
    mnl_attr_put_u64(h, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, v);
    mnl_attr_nest_end(h, e);
    mnl_attr_nest_end(h, table);
  }
};

TEST(QpCounter, ParsesIdPortTypeQpsAndCounters) {
  CounterMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 4);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_RES_TYPE, 2);
  m.qps({17, 23});
  m.hwcounter("rx_write_requests", 9);
  QpCounter c = parse_qp_counter(nl::Attrs::of_message(m.h));
  EXPECT_EQ(c.id, 4u);
  EXPECT_EQ(c.port, 1u);
  EXPECT_EQ(c.qp_type, 2);
  EXPECT_FALSE(c.pid);
  EXPECT_FALSE(c.kern);
  EXPECT_EQ(c.lqpns, (std::vector<uint32_t>{17, 23}));
  ASSERT_EQ(c.counters.size(), 1u);
  EXPECT_EQ(c.counters[0].name, "rx_write_requests");
  EXPECT_EQ(c.counters[0].value, 9u);
}

TEST(QpCounter, MissingPartsAreErrors) {
  CounterMsg no_qps;
  mnl_attr_put_u32(no_qps.h, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 4);
  no_qps.hwcounter("rx_write_requests", 9);
  EXPECT_THROW(parse_qp_counter(nl::Attrs::of_message(no_qps.h)), Error);

  CounterMsg no_lqpn;
  mnl_attr_put_u32(no_lqpn.h, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 4);
  no_lqpn.qps({17, std::nullopt});
  no_lqpn.hwcounter("rx_write_requests", 9);
  try {
    parse_qp_counter(nl::Attrs::of_message(no_lqpn.h));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("QP of counter 4 without a QP number"), std::string::npos)
        << e.what();
  }
}

// iproute2's names, DRIVER for 0xff, UNKNOWN past the table.
TEST(QpCounter, TypeNamesAsIproute2) {
  EXPECT_STREQ(qp_type_name(2), "RC");
  EXPECT_STREQ(qp_type_name(4), "UD");
  EXPECT_STREQ(qp_type_name(10), "XRC_TGT");
  EXPECT_STREQ(qp_type_name(11), "UNKNOWN");
  EXPECT_STREQ(qp_type_name(0xff), "DRIVER");
}

}  // namespace
}  // namespace rdma::stat
