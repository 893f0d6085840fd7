// The extended counters and error details fabric errors shows: only the
// counters shown by default (no PortSelect or CounterSelect), data in
// bytes, the largest values, and nothing for what was not read.
#include "lib/ib/port_counters_view.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/field.h"

namespace rdma::ib {
namespace {

std::string counters_text(const view::Record& r) {
  std::string s;
  for (const view::Field& f : r) s += f.text;
  return s;
}

TEST(PortCountersView, NothingReadNothingShown) {
  PortCounters c;
  view::Record r;
  add_extended_counters(c, r);
  add_error_details(c, r);
  EXPECT_TRUE(r.empty());
}

TEST(PortCountersView, ExtendedCountersByDefaultOnly) {
  PortCounters c;
  c.ext.assign(mad::kPortCountersExtended.bytes, 0);
  mad::set_field(mad::kPortCountersExtended, c.ext, "PortSelect", 3);
  mad::set_field(mad::kPortCountersExtended, c.ext, "CounterSelect", 0xffff);
  mad::set_field(mad::kPortCountersExtended, c.ext, "PortXmitData", 100);  // words
  mad::set_field(mad::kPortCountersExtended, c.ext, "PortRcvData", UINT64_MAX);
  mad::set_field(mad::kPortCountersExtended, c.ext, "PortXmitPkts", 7);
  mad::set_field(mad::kPortCountersExtended, c.ext, "PortMulticastRcvPkts", UINT64_MAX);
  view::Record r;
  add_extended_counters(c, r);
  EXPECT_EQ(counters_text(r),
            "xmit_bytes 400 rcv_bytes 18446744073709551615 xmit_pkts 7 rcv_pkts 0 "
            "unicast_xmit_pkts 0 unicast_rcv_pkts 0 multicast_xmit_pkts 0 "
            "multicast_rcv_pkts 18446744073709551615 ");
  ASSERT_EQ(r.size(), 8u);
  EXPECT_EQ(r[0].key, "xmit_bytes");
  EXPECT_EQ(r[0].value, 400u);
}

// Each details attribute where read, the other left out.
TEST(PortCountersView, ErrorDetailsWhereRead) {
  PortCounters c;
  c.rcv_details.assign(mad::kPortRcvErrorDetails.bytes, 0);
  mad::set_field(mad::kPortRcvErrorDetails, c.rcv_details, "PortLocalPhysicalErrors", 65535);
  mad::set_field(mad::kPortRcvErrorDetails, c.rcv_details, "PortLoopingErrors", 2);
  view::Record r;
  add_error_details(c, r);
  EXPECT_EQ(counters_text(r),
            "local_physical_errors 65535 malformed_pkt_errors 0 buffer_overrun_errors 0 "
            "dlid_mapping_errors 0 vl_mapping_errors 0 looping_errors 2 ");
  PortCounters x;
  x.xmit_details.assign(mad::kPortXmitDiscardDetails.bytes, 0);
  mad::set_field(mad::kPortXmitDiscardDetails, x.xmit_details, "PortNeighborMTUDiscards", 9);
  view::Record rx;
  add_error_details(x, rx);
  EXPECT_EQ(counters_text(rx),
            "inactive_discards 0 neighbor_mtu_discards 9 sw_lifetime_limit_discards 0 "
            "sw_hoq_lifetime_limit_discards 0 ");
}

// A PortCountersExtended shorter than the attribute (a short reply kept
// as it came) is an error, not a read past its end, and adds nothing.
TEST(PortCountersView, ShortExtendedCountersAreAnError) {
  PortCounters c;
  c.ext.assign(mad::kPortCountersExtended.bytes - 8, 0);
  view::Record r;
  EXPECT_THROW(add_extended_counters(c, r), Error);
  EXPECT_TRUE(r.empty());
  PortCounters d;
  d.rcv_details.assign(4, 0);
  EXPECT_THROW(add_error_details(d, r), Error);
  EXPECT_TRUE(r.empty());
}

}  // namespace
}  // namespace rdma::ib
