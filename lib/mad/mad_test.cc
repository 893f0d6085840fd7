#include "lib/mad/mad.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/combined_route.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

TEST(Mad, LidRoutedSmpHeader) {
  Mad m = make_smp({false, 5, {}}, kGet, kPortInfo, 3);
  EXPECT_EQ(m.bytes[0], 1);     // base version
  EXPECT_EQ(m.bytes[1], 0x01);  // SubnMgmt LID routed
  EXPECT_EQ(m.bytes[2], 1);
  EXPECT_EQ(m.bytes[3], 0x01);  // Get
  EXPECT_EQ(m.bytes[16], 0x00);
  EXPECT_EQ(m.bytes[17], 0x15);  // PortInfo
  EXPECT_EQ(m.bytes[23], 3);     // modifier: port 3
  Address a = smp_address({false, 5, {}});
  EXPECT_EQ(a.lid, 5);
  EXPECT_EQ(a.qp, 0u);
}

TEST(Mad, DirectedRouteSmpCarriesThePath) {
  Route r{true, 0, {1, 4}};
  Mad m = make_smp(r, kGet, kNodeInfo, 0);
  EXPECT_EQ(m.bytes[1], 0x81);
  EXPECT_EQ(m.bytes[6], 0);      // hop pointer
  EXPECT_EQ(m.bytes[7], 2);      // hop count
  EXPECT_EQ(m.bytes[32], 0xff);  // DrSLID permissive
  EXPECT_EQ(m.bytes[35], 0xff);  // DrDLID permissive
  EXPECT_EQ(m.bytes[128], 0);    // entry 0 unused
  EXPECT_EQ(m.bytes[129], 1);
  EXPECT_EQ(m.bytes[130], 4);
  EXPECT_EQ(smp_address(r).lid, kPermissiveLid);
  EXPECT_EQ(m.data().data(), m.bytes.data() + 64);
}

// The initial path as the wire has it (IBA 14.2.1.2): HopCount in byte 7,
// the ports from byte 129 (byte 128, entry 0, is no hop), read in place.
TEST(Mad, DrPathReadsTheInitialPathsHops) {
  Mad m;
  m.bytes[1] = 0x81;  // SubnMgmt directed route
  m.bytes[7] = 3;
  const uint8_t wire[] = {9, 1, 4, 255, 7};  // entry 0, 3 hops, a byte past them
  std::copy(std::begin(wire), std::end(wire), m.bytes.begin() + 128);
  std::span<const uint8_t> p = m.dr_path();
  EXPECT_EQ(std::vector<uint8_t>(p.begin(), p.end()), (std::vector<uint8_t>{1, 4, 255}));
  EXPECT_EQ(p.data(), m.bytes.data() + 129);
  m.bytes[7] = 0;  // the local node
  EXPECT_TRUE(m.dr_path().empty());
  m.bytes[7] = 200;  // more than the field holds: its 63 entries
  EXPECT_EQ(m.dr_path().size(), 63u);
  EXPECT_EQ(m.dr_path().data() + 63, m.bytes.data() + 192);
  m.bytes[1] = 0x01;  // LID routed: byte 7 and 129 on are no path
  m.bytes[7] = 3;
  EXPECT_TRUE(m.dr_path().empty());
  // What make_smp writes reads back, to the longest route.
  for (size_t n : {1u, 2u, 63u}) {
    std::vector<uint8_t> path(n);
    for (size_t i = 0; i < n; ++i) path[i] = static_cast<uint8_t>(i + 1);
    Mad smp = make_smp({true, 0, path}, kGet, kNodeInfo, 0);
    EXPECT_EQ(std::vector<uint8_t>(smp.dr_path().begin(), smp.dr_path().end()), path) << n;
  }
}

// A combined route, IBA 14.2.2: LID-routed to the start (the address's
// DLID), hop pointer 0, DrSLID the requester's LID for the reply's LID leg,
// DrDLID permissive (no LID leg at the end).
TEST(Mad, CombinedRouteSmpHeader) {
  Route r{true, 4, {2, 1}};
  Mad m = make_smp_from(0x0102, r, kGet, kNodeDescription, 0);
  EXPECT_EQ(m.bytes[1], 0x81);   // SubnMgmt directed route
  EXPECT_EQ(m.bytes[6], 0);      // hop pointer
  EXPECT_EQ(m.bytes[7], 2);      // hop count
  EXPECT_EQ(m.bytes[17], 0x10);  // NodeDescription
  EXPECT_EQ(m.bytes[32], 0x01);  // DrSLID 0x0102
  EXPECT_EQ(m.bytes[33], 0x02);
  EXPECT_EQ(m.bytes[34], 0xff);  // DrDLID permissive
  EXPECT_EQ(m.bytes[35], 0xff);
  EXPECT_EQ(m.bytes[129], 2);  // out of the start node's port 2
  EXPECT_EQ(m.bytes[130], 1);
  EXPECT_EQ(smp_address(r).lid, 4);
  // Without the requester's LID there is no way back.
  EXPECT_THROW(make_smp(r, kGet, kNodeInfo, 0), Error);
  EXPECT_THROW(make_smp_from(0, r, kGet, kNodeInfo, 0), Error);
  // Other routes are make_smp's.
  Mad dr = make_smp_from(5, {true, 0, {1}}, kGet, kNodeInfo, 0);
  EXPECT_EQ(dr.get(hdr::kDrSlid), kPermissiveLid);
  EXPECT_EQ(make_smp_from(5, {false, 3, {}}, kGet, kNodeInfo, 0).bytes[1], 0x01);
}

TEST(Mad, RejectsTooLongRoutes) {
  Route r{true, 0, std::vector<uint8_t>(64, 1)};
  EXPECT_THROW(make_smp(r, kGet, kNodeInfo, 0), Error);
  r.path.resize(63);
  EXPECT_NO_THROW(make_smp(r, kGet, kNodeInfo, 0));
}

TEST(Mad, GmpHeaders) {
  Mad pma = make_gmp(kClassPerf, kGet, kPortCounters, 0);
  EXPECT_EQ(pma.bytes[1], 0x04);
  EXPECT_EQ(pma.bytes[2], 1);
  EXPECT_EQ(pma.bytes[17], 0x12);
  EXPECT_EQ(pma.data().data(), pma.bytes.data() + 64);
  Mad sa = make_gmp(kClassSa, kGet, kPathRecord, 0);
  EXPECT_EQ(sa.bytes[2], 2);
  EXPECT_EQ(sa.bytes[17], 0x35);
  EXPECT_EQ(sa.data().data(), sa.bytes.data() + 56);
  EXPECT_EQ(gsi_address(9).qp, 1u);
  EXPECT_EQ(gsi_address(9).qkey, kGsiQkey);
}

std::string error_of(const Mad& req, const std::vector<uint8_t>& reply) {
  try {
    check_reply(req, reply, "NodeInfo from lid 2");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Mad, CheckReplyAcceptsAGoodReply) {
  Mad req = make_smp({false, 2, {}}, kGet, kNodeInfo, 0);
  EXPECT_EQ(error_of(req, reply_to(req, std::vector<uint8_t>(40, 7))), "");
}

TEST(Mad, CheckReplyRejectsShortReplies) {
  Mad req = make_smp({false, 2, {}}, kGet, kNodeInfo, 0);
  std::vector<uint8_t> r = reply_to(req, {});
  r.resize(103);  // NodeInfo is 40 bytes from offset 64
  EXPECT_EQ(error_of(req, r), "malformed reply to NodeInfo from lid 2: 103 bytes, need 104");
  r.resize(104);  // ends with its attribute: fine
  EXPECT_EQ(error_of(req, r), "");
  EXPECT_EQ(error_of(req, {}), "malformed reply to NodeInfo from lid 2: 0 bytes, need 104");
}

TEST(Mad, CheckReplyRejectsWrongClassMethodAndAttribute) {
  Mad req = make_smp({false, 2, {}}, kGet, kNodeInfo, 0);
  std::vector<uint8_t> r = reply_to(req, {});
  r[1] = 0x04;
  EXPECT_EQ(error_of(req, r),
            "malformed reply to NodeInfo from lid 2: class 0x0004, expected 0x0001");
  r = reply_to(req, {});
  r[3] = 0x01;  // a Get, not a GetResp
  EXPECT_EQ(error_of(req, r),
            "malformed reply to NodeInfo from lid 2: method 0x0001 is not a response to 0x0001");
  r = reply_to(req, {});
  r[17] = 0x15;
  EXPECT_EQ(error_of(req, r), "malformed reply to NodeInfo from lid 2: attribute PortInfo");
  r = reply_to(req, {});
  r[0] = 2;
  EXPECT_EQ(error_of(req, r), "malformed reply to NodeInfo from lid 2: base version 2");
}

TEST(Mad, CheckReplyRejectsAnotherTransaction) {
  Mad req = make_smp({false, 2, {}}, kGet, kNodeInfo, 0);
  req.set(hdr::kTid, 0x1234);
  std::vector<uint8_t> r = reply_to(req, {});
  EXPECT_EQ(error_of(req, r), "");
  // The kernel sets the high 32 bits (its agent's): not ours to compare.
  r[8] = 0x77;
  EXPECT_EQ(error_of(req, r), "");
  r[15] ^= 0x01;
  EXPECT_EQ(error_of(req, r),
            "malformed reply to NodeInfo from lid 2: transaction id 0x00001235, expected "
            "0x00001234");
}

TEST(Mad, CheckReplyNamesEveryDamage) {
  // Whatever a reply holds, check_reply returns or names one thing wrong.
  Mad req = make_smp({false, 2, {}}, kGet, kNodeInfo, 0);
  req.set(hdr::kTid, 0x1234);
  std::vector<uint8_t> good = reply_to(req, std::vector<uint8_t>(40, 7));
  for (size_t i = 0; i < 64; ++i)
    for (uint8_t bit = 1; bit; bit <<= 1) {
      std::vector<uint8_t> r = good;
      r[i] ^= bit;
      std::string e = error_of(req, r);
      if (!e.empty()) {
        EXPECT_EQ(e.find('\n'), std::string::npos);
        EXPECT_NE(e.find("NodeInfo from lid 2"), std::string::npos) << e;
      }
    }
  for (size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> r(good.begin(), good.begin() + n);
    EXPECT_EQ(error_of(req, r).empty(), n >= 104) << n;
  }
}

TEST(Mad, CheckReplyReportsStatus) {
  Mad req = make_smp({false, 2, {}}, kGet, kNodeInfo, 0);
  EXPECT_EQ(error_of(req, reply_to(req, {}, 0x000c)),
            "NodeInfo from lid 2 failed: status 0x000c (method/attribute combination not "
            "supported)");
  // Directed route: the D bit is not part of the status.
  Mad dr = make_smp({true, 0, {1}}, kGet, kNodeInfo, 0);
  EXPECT_EQ(error_of(dr, reply_to(dr, {})), "");
  EXPECT_EQ(error_of(dr, reply_to(dr, {}, 0x001c)),
            "NodeInfo from lid 2 failed: status 0x001c (invalid attribute or attribute modifier "
            "value)");
}

TEST(Mad, SetIsAnsweredByGetResp) {
  Mad req = make_smp({false, 2, {}}, kSet, kPortInfo, 1);
  std::vector<uint8_t> r = reply_to(req, {});
  r[17] = 0x15;
  EXPECT_EQ(error_of(req, r), "");
}

TEST(Mad, StatusText) {
  EXPECT_EQ(status_text(0, kClassSmiLid), "success");
  EXPECT_EQ(status_text(0x0300, kClassSa), "no records");
  EXPECT_EQ(status_text(0x0001, kClassPerf), "busy");
  EXPECT_EQ(status_text(0x0008, kClassPerf), "method not supported");
}

TEST(Mad, EveryTableFitsItsAttribute) {
  for (const AttrDef* a : all_attrs())
    for (const FieldDef& f : a->fields) {
      unsigned stride = f.stride ? f.stride : f.width;
      unsigned end = f.bit + (f.count - 1) * stride + f.width;
      EXPECT_LE(end, a->bytes * 8u) << a->name << "." << f.name;
      EXPECT_LE(a->bytes, data_offset(a->mgmt_class) == 56 ? 200u : 192u) << a->name;
      if (f.fmt != Fmt::Gid && f.fmt != Fmt::Str && f.fmt != Fmt::Desc) {
        EXPECT_LE(f.width, 64) << f.name;
      }
    }
}

TEST(Mad, FindsAttributesByAbbreviation) {
  EXPECT_EQ(&find_attr("nodeinfo"), &kNodeInfo);
  EXPECT_EQ(&find_attr("PortCounters"), &kPortCounters);
  EXPECT_EQ(&find_attr("PortCountersE"), &kPortCountersExtended);
  EXPECT_EQ(&find_attr("sl"), &kSl2VlTable);
  EXPECT_THROW(find_attr("Bogus"), Error);
  try {
    find_attr("nodeinfp");
    ADD_FAILURE() << "nodeinfp found";
  } catch (const UsageError& e) {
    std::string m = e.what();
    EXPECT_EQ(m.rfind("unknown attribute \"nodeinfp\" (NodeInfo, ", 0), 0u) << m;
    EXPECT_NE(m.find("; did you mean \"NodeInfo\"?"), std::string::npos) << m;  // any case
  }
  // The forwarding tables by name as by id; "m" still the vendor's PortInfo.
  EXPECT_EQ(&find_attr("LinearForwardingTable"), &kLinearForwardingTable);
  EXPECT_EQ(&find_attr("multicastforwardingtable"), &kMulticastForwardingTable);
  EXPECT_EQ(&find_attr("lin"), &kLinearForwardingTable);
  EXPECT_EQ(&find_attr("mu"), &kMulticastForwardingTable);
  EXPECT_EQ(&find_attr("m"), &kMlnxExtPortInfo);
  EXPECT_EQ(&find_attr("0x19"), &kLinearForwardingTable);
  EXPECT_EQ(&find_attr("0x1b"), &kMulticastForwardingTable);
}

TEST(Mad, FindsAttributesById) {
  EXPECT_EQ(&find_attr("0x11"), &kNodeInfo);
  EXPECT_EQ(&find_attr("21"), &kPortInfo);
  EXPECT_EQ(&find_attr("0x001d"), &kPortCountersExtended);
  EXPECT_EQ(&find_attr("0x1"), &kClassPortInfo);
  auto error = [](const char* w) {
    try {
      find_attr(w);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("0x12"),
            "attribute id 0x0012 is SwitchInfo and PortCounters; name the one you mean");
  EXPECT_EQ(error("0x35"), "unknown attribute id 0x0035");  // PathRecord: an SA record
  EXPECT_EQ(error("0x1g"), "invalid attribute id \"0x1g\"");
}

}  // namespace
}  // namespace rdma::mad
