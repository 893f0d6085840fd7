// The verbs views' records, from libibverbs' structs (fake devices).
#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/testing/fake_verbs.h"
#include "lib/verbs/gid.h"
#include "lib/verbs/limits.h"
#include "lib/verbs/names.h"
#include "lib/verbs/port.h"

namespace rdma::verbs {
namespace {

std::string text(const view::Record& r) {
  std::string s;
  for (const view::Field& f : r) s += f.text;
  return s;
}

view::Json json(const view::Record& r) {
  view::Json j = view::Json::object();
  for (const view::Field& f : r) j[f.key] = f.value;
  return j;
}

Gid gid(uint32_t port, uint32_t index, std::initializer_list<uint8_t> bytes, uint32_t type,
        std::string netdev) {
  Gid g;
  g.port = port;
  g.index = index;
  std::copy(bytes.begin(), bytes.end(), g.raw);
  g.type = type;
  g.netdev = std::move(netdev);
  return g;
}

TEST(VerbsNames, GidTextAndIpv4) {
  Gid v4 = gid(1, 1, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1}, 2, "veth0");
  EXPECT_EQ(gid_text(v4.raw), "0000:0000:0000:0000:0000:ffff:c000:0201");
  EXPECT_EQ(gid_ipv4(v4.raw), "192.0.2.1");
  Gid ll =
      gid(1, 0, {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0, 0xff, 0xfe, 0x12, 0x34, 0x56}, 0, "");
  EXPECT_EQ(gid_text(ll.raw), "fe80:0000:0000:0000:5054:00ff:fe12:3456");
  EXPECT_EQ(gid_ipv4(ll.raw), "");
  // ::ffff:0:0/96 only: an IPv6 address ending in ffff:... is not IPv4.
  Gid v6 = gid(1, 2, {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4}, 2, "");
  EXPECT_EQ(gid_ipv4(v6.raw), "");
}

TEST(VerbsNames, GidTypes) {
  EXPECT_EQ(parse_gid_type("roce-v2"), IBV_GID_TYPE_ROCE_V2);
  EXPECT_EQ(parse_gid_type("ib"), IBV_GID_TYPE_IB);
  EXPECT_THROW(parse_gid_type("v2"), Error);
  EXPECT_STREQ(gid_type_name(IBV_GID_TYPE_ROCE_V1), "roce-v1");
}

TEST(VerbsNames, FlagsNameKnownBitsAndShowTheRestInHex) {
  view::Json j =
      flag_names(IBV_DEVICE_BAD_PKEY_CNTR | IBV_DEVICE_XRC | (1u << 31), kDeviceCapFlags);
  EXPECT_EQ(j, view::Json::parse(R"(["BAD_PKEY_CNTR","XRC","0x80000000"])"));
  EXPECT_EQ(flag_text(j), "<BAD_PKEY_CNTR, XRC, 0x80000000>");
  EXPECT_EQ(flag_names(0, kOdpTransportCaps), view::Json::array());
  EXPECT_EQ(flag_text(view::Json::array()), "<>");
}

FakeDeviceSpec rxe_like() {
  FakeDeviceSpec s;
  ibv_device_attr& a = s.attr.orig_attr;
  std::snprintf(a.fw_ver, sizeof a.fw_ver, "0.0.0");
  a.node_guid = htobe64(0x505400fffe123456ULL);
  a.sys_image_guid = a.node_guid;
  a.vendor_id = 0xffffff;
  a.hw_ver = 0;
  a.phys_port_cnt = 1;
  a.max_mr_size = ~0ULL;
  a.page_size_cap = 0xfffff000;
  a.max_qp = 1048560;
  a.max_qp_wr = 1048576;
  a.device_cap_flags = 0x81223c76;
  a.max_sge = 32;
  a.max_cqe = 32767;
  a.atomic_cap = IBV_ATOMIC_HCA;
  a.max_srq = 917503;
  a.max_srq_wr = 1048576;
  a.max_srq_sge = 27;
  a.max_pkeys = 64;
  a.local_ca_ack_delay = 15;
  s.attr.device_cap_flags_ex = 0x1c021207c76ULL;
  ibv_port_attr p{};
  p.state = IBV_PORT_ACTIVE;
  p.max_mtu = IBV_MTU_4096;
  p.active_mtu = IBV_MTU_1024;
  p.gid_tbl_len = 1024;
  p.port_cap_flags = 0x00890000;
  p.max_msg_sz = 0x800000;
  p.pkey_tbl_len = 1;
  p.max_vl_num = 1;
  p.active_width = 1;
  p.active_speed = 1;
  p.phys_state = 5;
  p.link_layer = IBV_LINK_LAYER_ETHERNET;
  s.ports.push_back(p);
  return s;
}

TEST(VerbsLimits, IbvDevinfoNamesAndValues) {
  FakeDevice d(rxe_like());
  view::Record r;
  limits_record("rxe0", d, r);
  view::Json j = json(r);
  EXPECT_EQ(j["dev"], "rxe0");
  EXPECT_EQ(j["transport"], "InfiniBand");
  EXPECT_EQ(j["fw_ver"], "0.0.0");
  EXPECT_EQ(j["node_guid"], "5054:00ff:fe12:3456");
  EXPECT_EQ(j["vendor_id"], "0xffffff");
  EXPECT_EQ(j["hw_ver"], "0x0");
  EXPECT_EQ(j["max_mr_size"], "0xffffffffffffffff");
  EXPECT_EQ(j["page_size_cap"], "0xfffff000");
  EXPECT_EQ(j["max_qp"], 1048560);
  EXPECT_EQ(j["atomic_cap"], "ATOMIC_HCA");
  EXPECT_EQ(j["max_srq_sge"], 27);
  EXPECT_FALSE(j.contains("max_map_per_fmr"));  // only with max_fmr, as ibv_devinfo
  EXPECT_FALSE(j.contains("board_id"));
  EXPECT_FALSE(j.contains("completion_timestamp_mask"));
  EXPECT_FALSE(j.contains("hca_core_clock"));
  EXPECT_FALSE(j.contains("tm_caps"));
  // 0x81223c76: bit 31 has no name in ibv_devinfo either.
  EXPECT_EQ(j["device_cap_flags"].back(), "0x80000000");
  EXPECT_EQ(j["device_cap_flags"][0], "BAD_PKEY_CNTR");
  // Only the high half is new in the _ex flags: 1 << 38, 39, 40 are unnamed.
  EXPECT_EQ(j["device_cap_flags_ex"], view::Json::parse(R"(["0x1C000000000"])"));
  EXPECT_EQ(j["rc_odp_caps"], view::Json::array());
  EXPECT_EQ(j["tso_caps"], view::Json::parse(R"({"max_tso":0})"));
  EXPECT_EQ(j["rss_caps"]["rx_hash_fields_mask"], "0x0");
  std::string t = text(r);
  EXPECT_EQ(t.substr(0, 40), "dev rxe0\n    transport InfiniBand\n    fw");
  EXPECT_NE(
      t.find("\n    max_qp 1048560\n    max_qp_wr 1048576\n    device_cap_flags <BAD_PKEY_CNTR, "),
      std::string::npos)
      << t;
  EXPECT_NE(t.find("\n    atomic_cap ATOMIC_HCA\n"), std::string::npos);
  EXPECT_NE(t.find("\n    tso_caps max_tso 0\n"), std::string::npos);
  EXPECT_NE(t.find("\n    rc_odp_caps <>\n"), std::string::npos);
  EXPECT_EQ(j["num_comp_vectors"], 1);
  EXPECT_EQ(r[r.size() - 1].key, "num_comp_vectors");
}

TEST(VerbsLimits, ExtendedAttributesWhenTheDeviceHasThem) {
  FakeDeviceSpec s = rxe_like();
  s.board_id = "MT_0000000222";
  s.attr.completion_timestamp_mask = 0x7fffffffffffffffULL;
  s.attr.hca_core_clock = 156250;
  s.attr.odp_caps.general_caps = IBV_ODP_SUPPORT;
  s.attr.odp_caps.per_transport_caps.rc_odp_caps = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_SRQ_RECV;
  s.attr.tso_caps = {262144, 1u << IBV_QPT_RAW_PACKET};
  s.attr.packet_pacing_caps.qp_rate_limit_min = 1;
  s.attr.packet_pacing_caps.qp_rate_limit_max = 100000000;
  s.attr.packet_pacing_caps.supported_qpts = 1u << IBV_QPT_UD;
  s.attr.tm_caps.max_num_tags = 8;
  s.attr.tm_caps.flags = IBV_TM_CAP_RC;
  s.attr.cq_mod_caps = {65535, 4095};
  s.attr.max_dm_size = 131072;
  s.attr.raw_packet_caps = IBV_RAW_PACKET_CAP_IP_CSUM;
  FakeDevice d(s);
  view::Record r;
  limits_record("mlx5_0", d, r);
  view::Json j = json(r);
  EXPECT_EQ(j["board_id"], "MT_0000000222");
  EXPECT_EQ(j["completion_timestamp_mask"], "0x7fffffffffffffff");
  EXPECT_EQ(j["hca_core_clock"], 156250);
  EXPECT_EQ(j["general_odp_caps"], view::Json::parse(R"(["ODP_SUPPORT"])"));
  EXPECT_EQ(j["rc_odp_caps"], view::Json::parse(R"(["SUPPORT_SEND","SUPPORT_SRQ"])"));
  EXPECT_EQ(j["tso_caps"],
            view::Json::parse(R"({"max_tso":262144,"supported_qp":["SUPPORT_RAW_PACKET"]})"));
  EXPECT_EQ(j["packet_pacing_caps"]["supported_qp"], view::Json::parse(R"(["SUPPORT_UD"])"));
  EXPECT_EQ(j["tm_caps"]["max_num_tags"], 8);
  EXPECT_EQ(j["cq_moderation_caps"]["max_cq_period"], 4095);
  EXPECT_EQ(j["max_dm_size"], 131072);
  EXPECT_EQ(j["raw_packet_caps"], view::Json::parse(R"(["IP_CSUM"])"));
  EXPECT_NE(text(r).find("\n    packet_pacing_caps qp_rate_limit_min 1 qp_rate_limit_max 100000000 "
                         "supported_qp <SUPPORT_UD>\n"),
            std::string::npos)
      << text(r);
}

TEST(VerbsPort, StatusAndDetails) {
  ibv_port_attr p = rxe_like().ports[0];
  view::Record r;
  port_record("rxe0", 1, p, 0, r);
  EXPECT_EQ(text(r),
            "link rxe0/1 link_layer Ethernet state ACTIVE physical_state LINK_UP max_mtu 4096 "
            "active_mtu 1024 width 1X rate 2.5");
  port_record("rxe0", 1, p, 1, r);
  view::Json j = json(r);
  EXPECT_EQ(j["speed"], "2.5");
  EXPECT_EQ(j["rate"], 2.5);
  EXPECT_EQ(j["ifname"], "rxe0");
  EXPECT_EQ(j["port"], 1);
  EXPECT_EQ(j["port_cap_flags"], "0x00890000");
  EXPECT_EQ(j["max_msg_sz"], "0x800000");
  EXPECT_EQ(j["gid_tbl_len"], 1024);
  EXPECT_EQ(j["max_vl_num"], 1);
  EXPECT_EQ(j["max_mtu"], 4096);
  p.max_vl_num = 0;
  port_record("siw0", 1, p, 1, r);
  EXPECT_EQ(json(r)["max_vl_num"], "invalid");
  p.active_width = 2;
  p.active_speed = 32;
  p.link_layer = IBV_LINK_LAYER_INFINIBAND;
  port_record("mlx5_0", 1, p, 0, r);
  EXPECT_NE(text(r).find("link_layer InfiniBand "), std::string::npos);
  EXPECT_NE(text(r).find(" width 4X rate 100"), std::string::npos);  // ibstat's 4X EDR
  port_record("mlx5_0", 1, p, 0, r, std::nullopt, 0x0002c90300a1b2c3);
  EXPECT_NE(text(r).find(" rate 100 port_guid 0x0002c90300a1b2c3"), std::string::npos);
  p.active_width = 8;  // 12X
  p.active_speed = 1;  // SDR
  port_record("mlx5_0", 1, p, 0, r);
  EXPECT_EQ(json(r)["rate"], 30);
  p.active_speed = 3;  // no generation: no rate
  port_record("mlx5_0", 1, p, 0, r);
  EXPECT_FALSE(json(r).contains("rate"));
}

TEST(VerbsPort, PortGuidIsGidZerosInterfaceId) {
  Gid g;
  const uint8_t raw[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x02, 0xc9, 0x03, 0, 0xa1, 0xb2, 0xc3};
  std::copy(std::begin(raw), std::end(raw), g.raw);
  EXPECT_EQ(port_guid(g), 0x0002c90300a1b2c3u);
}

// ibv_query_port_speed (rdma-core 62): Debian 12's libibverbs 44 lacks it,
// so only the fake verbs shows the field; without an answer the line is
// the one above.
TEST(VerbsPort, EffectiveSpeedWhereLibibverbsReportsIt) {
  ibv_port_attr p = rxe_like().ports[0];
  view::Record r;
  port_record("mlx5_0", 1, p, 0, r, 4000);
  EXPECT_EQ(text(r),
            "link mlx5_0/1 link_layer Ethernet state ACTIVE physical_state LINK_UP max_mtu 4096 "
            "active_mtu 1024 width 1X rate 2.5 effective_speed 400Gb/s");
  EXPECT_EQ(json(r)["effective_speed_mbps"], 400000);
  port_record("mlx5_0", 1, p, 1, r, 25);
  EXPECT_NE(text(r).find(" speed 2.5 rate 2.5 effective_speed 2.5Gb/s sm_lid "), std::string::npos)
      << text(r);
  port_record("rxe0", 1, p, 0, r, std::nullopt);
  EXPECT_EQ(text(r).find("effective"), std::string::npos);
}

TEST(VerbsGid, RecordAndFilter) {
  Gid g = gid(1, 1, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1}, 2, "veth0");
  view::Record r;
  gid_record("rxe0", g, r);
  EXPECT_EQ(text(r),
            "dev rxe0 port 1 index 1 gid 0000:0000:0000:0000:0000:ffff:c000:0201 ipv4 192.0.2.1 "
            "type roce-v2 netdev veth0");
  EXPECT_EQ(json(r), view::Json::parse(R"({"dev":"rxe0","port":1,"index":1,
      "gid":"0000:0000:0000:0000:0000:ffff:c000:0201","ipv4":"192.0.2.1","type":"roce-v2",
      "netdev":"veth0"})"));
  GidFilter f;
  EXPECT_TRUE(f.matches(g));
  f.type = IBV_GID_TYPE_ROCE_V1;
  EXPECT_FALSE(f.matches(g));
  f.type = IBV_GID_TYPE_ROCE_V2;
  f.netdev = "veth1";
  EXPECT_FALSE(f.matches(g));
  f.netdev = "veth0";
  f.port = 2;
  EXPECT_FALSE(f.matches(g));
  f.port = 1;
  EXPECT_TRUE(f.matches(g));
}

}  // namespace
}  // namespace rdma::verbs

namespace rdma::verbs {
namespace {

// The real library on this machine: the test host has no RDMA device (or
// not this one), which must be one Error and nothing from libibverbs on
// stderr. Skipped where libibverbs.so.1 is not installed.
TEST(Libibverbs, ADeviceItDoesNotKnowIsOneError) {
  std::unique_ptr<Verbs> v;
  try {
    v = open_libibverbs();
  } catch (const Error& e) {
    GTEST_SKIP() << e.what();
  }
  testing::internal::CaptureStderr();
  std::string msg;
  try {
    v->open("nosuchdev9");
  } catch (const Error& e) {
    msg = e.what();
  }
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(msg.starts_with("device \"nosuchdev9\" has no verbs interface") ||
              msg.starts_with("cannot list verbs devices"))
      << msg;
  EXPECT_EQ(err, "");
}

}  // namespace
}  // namespace rdma::verbs
